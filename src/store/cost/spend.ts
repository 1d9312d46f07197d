/**
 * What a session's usage cost: its estimate over every model (the parent's
 * and its subagents' usage, subagents.ts), today's part, and a burn rate in
 * tokens and USD per hour. One function for every surface (sessions detail,
 * History, the Cost pane, --json, fleet rows), memoised on the Claude domain's
 * per-session view object, which it keeps while the session's facts are unchanged.
 */
import { burnRate } from '../claude/analytics.js';
import { isDead, lifeOf } from '../claude/life.js';
import type { ClaudeSessionView, ClaudeSnapshot } from '../claude/model.js';
import { estimate, formatUsd, type Estimate, type ModelPrice } from '../claude/prices.js';
import { addUsage, usageTokens, type UsageByModel } from '../claude/usage.js';
import { formatBytes } from '../../io/safe-fs/index.js';
import { FULL_READ_MAX, longLinesText } from '../claude/transcript-reader.js';

export const DAY_MS = 24 * 3600_000;

/**
 * Said after a figure whose session still has subagent files being read (the monitor reads them after it is
 * live): the figure is what was read so far, a lower bound, never shown as the whole.
 */
export const SUBAGENTS_READING = '+subagents…';
/** The longer words for a detail line. */
export const SUBAGENTS_READING_WHY = 'its subagent files are still being read: a lower bound';
/** The same mark where a column has no room for the whole words (a list's spend cell). */
export const SUBAGENTS_READING_SHORT = '+sub…';
/**
 * Said after a figure whose session's own transcript is not read to its end yet (a big one is read mostly after
 * the monitor is live): the same kind of lower bound, its words and its short form.
 */
export const TRANSCRIPT_READING = '+transcript…';
export const TRANSCRIPT_READING_WHY = 'the rest of its transcript is still being read: a lower bound';
export const TRANSCRIPT_READING_SHORT = '+…';

/**
 * Said after a figure counted from only part of its session's transcript, for good: a first read of a transcript
 * over FULL_READ_MAX starts that far from its end (transcript-reader.ts). The same kind of lower bound as the
 * marks above, never to be completed: its words and its short form.
 */
export const UNREAD = '+unread part';
export const UNREAD_SHORT = '+part';

/**
 * The part of a session's transcript never read: the bytes before `fromByte` (0: read from its start) and
 * `longLines` lines over 4 MB (its subagent files' too); `subagentFiles` subagent files over 64 MB read from their
 * last 64 MB only, `subagentBytes` before those parts (both absent when none).
 */
export interface Unread {
  fromByte: number;
  /** The transcript's size when last read. */
  size: number;
  longLines: number;
  subagentFiles?: number;
  subagentBytes?: number;
}

/** What of the session's transcript and subagent files is never read (a lower bound for good), or null. */
export function unreadOf(c: ClaudeSessionView | null | undefined): Unread | null {
  const t = c?.transcript;
  const longLines = t?.longLines ?? 0;
  const sub = t?.subagentsPartial;
  if (!t || (t.partialFrom === 0 && longLines === 0 && !sub)) return null;
  return {
    fromByte: t.partialFrom,
    size: t.size,
    longLines,
    ...(sub ? { subagentFiles: sub.files, subagentBytes: sub.notRead } : {}),
  };
}

/**
 * "only the last 64.0 MB of its 185.2 MB transcript is read", "1 subagent file over 64.0 MB is read from its last
 * 64.0 MB only (56.0 MB not read)", "2 transcript lines over 4.0 MB not read", or several: what was left out, in the
 * user's words.
 */
export const unreadText = (u: Unread): string =>
  [
    u.fromByte > 0
      ? `only the last ${formatBytes(u.size - u.fromByte)} of its ${formatBytes(u.size)} transcript is read`
      : '',
    u.subagentFiles
      ? `${u.subagentFiles === 1 ? '1 subagent file' : `${String(u.subagentFiles)} subagent files`} over ${formatBytes(FULL_READ_MAX)} ${u.subagentFiles === 1 ? 'is read from its' : 'are read from their'} last ${formatBytes(FULL_READ_MAX)} only (${formatBytes(u.subagentBytes ?? 0)} not read)`
      : '',
    u.longLines > 0 ? longLinesText(u.longLines).replace(/: the figure may be low$/, '') : '',
  ]
    .filter(Boolean)
    .join(', and ');

/**
 * Why a session's figures are a lower bound: the rest of its own transcript or its subagent files are still being
 * read, or part of its transcript is never read (`unread`); null: they are whole.
 */
export type Reading = 'transcript' | 'subagents' | 'unread' | null;

/**
 * The session's transcript first (its figures are the most incomplete), then its subagent files; once both are
 * read, a transcript read only in part.
 */
export function readingOf(c: ClaudeSessionView | null | undefined): Reading {
  const t = c?.transcript;
  return t?.transcriptReading === true
    ? 'transcript'
    : t?.subagentsReading === true
      ? 'subagents'
      : unreadOf(c) !== null
        ? 'unread'
        : null;
}

/** Whether `r` is a read still under way (it will complete), not a part never read. */
export const stillBeingRead = (r: Reading): r is 'transcript' | 'subagents' => r === 'transcript' || r === 'subagents';

/** " +transcript…" / " +subagents…" / " +unread part" (with its leading space), or "" when the figure is whole. */
export const readingMark = (r: Reading): string =>
  r === 'transcript'
    ? ` ${TRANSCRIPT_READING}`
    : r === 'subagents'
      ? ` ${SUBAGENTS_READING}`
      : r === 'unread'
        ? ` ${UNREAD}`
        : '';
/**
 * The mark with its reason: " +transcript… (the rest of its transcript is still being read: a lower bound)",
 * " +unread part (only the last 64.0 MB of its 185.2 MB transcript is read: a lower bound)".
 */
export const readingWhy = (r: Reading, unread?: Unread | null): string =>
  r === 'transcript'
    ? ` ${TRANSCRIPT_READING} (${TRANSCRIPT_READING_WHY})`
    : r === 'subagents'
      ? ` ${SUBAGENTS_READING} (${SUBAGENTS_READING_WHY})`
      : r === 'unread'
        ? ` ${UNREAD} (${unread ? unreadText(unread) : 'part of its transcript is never read'}: a lower bound)`
        : '';
/** The mark in a list's cell: "+…", "+sub…", "+part", or "". */
export const readingShort = (r: Reading): string =>
  r === 'transcript'
    ? TRANSCRIPT_READING_SHORT
    : r === 'subagents'
      ? SUBAGENTS_READING_SHORT
      : r === 'unread'
        ? UNREAD_SHORT
        : '';

/**
 * A list's spend cell, the same on every list (fleet rows, History runs): "$0.42", "$0.42+?" (a model unpriced
 * too), "$0.42+sub…" (subagent files still being read), "$0.42+…" (the rest of the transcript still being read),
 * "$0.42+part" (part of the transcript never read), "unpriced", "…" (nothing yet, still being read), "—". `usd` is
 * null when nothing was priced. `reading` true is subagent files (a fleet row from a sender that says no more).
 */
export function spendCell(usd: number | null, unpriced: boolean, reading: Reading | boolean): string {
  const r: Reading = reading === true ? 'subagents' : reading === false ? null : reading;
  if (usd === null) return unpriced ? 'unpriced' : stillBeingRead(r) ? '…' : '—';
  return `${formatUsd(usd)}${unpriced ? '+?' : ''}${readingShort(r)}`;
}

/** Whether a session's subagent files are still being read (the fact behind the subagents' marks). */
export const subagentsReading = (claude: ClaudeSnapshot, sessionId: string | null): boolean =>
  sessionId !== null && claude.bySession.get(sessionId)?.transcript?.subagentsReading === true;

/** What of a session is still being read (readingOf), by its id. */
export const stillReading = (claude: ClaudeSnapshot, sessionId: string | null): Reading =>
  sessionId === null ? null : readingOf(claude.bySession.get(sessionId));

/** "2026-12-01": the UTC day (the app's one time zone). */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface SessionSpend {
  estimate: Estimate;
  tokens: number;
  /** The part spent on the UTC day of `now`. */
  today: Estimate;
  todayTokens: number;
  /** Tokens per minute over the last 10 minutes (null with fewer than 2 responses there). */
  burnPerMin: number | null;
  /** The burn in USD per hour at the session's own mix of models and token kinds; null when unknown. */
  burnUsdPerHour: number | null;
  /** Its transcript or its subagent files still being read, or part of its transcript never read: a lower bound. */
  partial: boolean;
  /** Which of them (readingOf). */
  reading: Reading;
  /** The part of its transcript never read (unreadOf), null when it is read from its start. */
  unread: Unread | null;
}

/** Usage in the timeline's buckets that start on `day` (buckets never straddle a UTC day). */
export function usageOnDay(c: ClaudeSessionView, day: string): UsageByModel {
  const out: UsageByModel = new Map();
  const f = c.transcript?.facts;
  if (!f) return out;
  for (const b of f.timeline.list()) if (utcDay(b.startMs) === day) addUsage(out, b.byModel);
  return out;
}

const memo = new WeakMap<
  ClaudeSessionView,
  { key: string; prices: Readonly<Record<string, ModelPrice>> | undefined; spend: SessionSpend }
>();

/** The words a spend that cannot be known is shown with in a total: "3 sessions not priced". */
export const NOT_PRICED = 'not priced';
/** The line under a total that leaves `n` sessions out: how many, and why. */
export const notPricedText = (n: number): string =>
  `${n} session${n === 1 ? "'s" : "s'"} spend not priced: ${n === 1 ? 'its transcript cannot' : 'their transcripts cannot'} be read (see each loop, or the problem lines); left out of every figure here, not counted as $0`;
/**
 * A session's spend that cannot be known, with why: "spend unknown: its transcript is not a regular file", or
 * "…: its transcript cannot be read (a line is not valid JSON)" for a reason that is not said of the file.
 */
export const spendUnknownText = (why: string): string =>
  /^(is|has|cannot) /.test(why)
    ? `spend unknown: its transcript ${why}`
    : `spend unknown: its transcript cannot be read (${why})`;

/**
 * Why the session's spend cannot be known, or null: its transcript is there but nothing in it could be counted
 * because it could not be read (a FIFO, a link to a device, bytes with no line in them). Its figure is unknown,
 * never "$0": every surface shows "—" with this reason, and the totals count it as not priced.
 */
export function spendUnknown(c: ClaudeSessionView | null | undefined): string | null {
  const t = c?.transcript;
  if (!t || t.problem === null) return null;
  return t.facts.messages === 0 && usageTokens(t.facts.byModel) === 0 ? t.problem : null;
}

/** null when the session has no transcript, or one that could not be read (spendUnknown says why). */
export function sessionSpend(
  c: ClaudeSessionView | undefined,
  prices: Readonly<Record<string, ModelPrice>> | undefined,
  now: number,
): SessionSpend | null {
  const f = c?.transcript?.facts;
  if (!c || !f || spendUnknown(c) !== null) return null;
  // A gone or exited session burns nothing, whatever its last ten minutes looked like.
  const burnPerMin = isDead(lifeOf(c).status) ? null : burnRate(f, now);
  const key = `${utcDay(now)}|${burnPerMin}`;
  const hit = memo.get(c);
  if (hit && hit.key === key && hit.prices === prices) return hit.spend;
  const est = estimate(f.byModel, prices);
  const tokens = usageTokens(f.byModel);
  const todayUsage = usageOnDay(c, utcDay(now));
  const todayEst = estimate(todayUsage, prices);
  const pricedTokens = est.priced.reduce((n, p) => n + p.tokens, 0);
  const burnUsdPerHour =
    burnPerMin === null || pricedTokens === 0 || est.unpriced.length > 0
      ? null
      : (burnPerMin * 60 * est.usd) / pricedTokens;
  const spend: SessionSpend = {
    estimate: est,
    tokens,
    today: todayEst,
    todayTokens: usageTokens(todayUsage),
    burnPerMin,
    burnUsdPerHour,
    partial: readingOf(c) !== null,
    reading: readingOf(c),
    unread: unreadOf(c),
  };
  memo.set(c, { key, prices, spend });
  return spend;
}
