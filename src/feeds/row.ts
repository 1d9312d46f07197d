/**
 * One fleet row: what the fleet view shows of a session, as plain data that
 * is the same whether it came from a local store or from a remote
 * `omc-top watch --json --rows` stream. Remote rows are hostile input: the
 * zod schema bounds every field and every string is cleaned again here, on
 * the receiving side, whatever the sender claims to have done.
 */
import { z } from 'zod';
import type { ClaudeSessionView } from '../store/claude/model.js';
import { failedNeed, isPermissionNeed, type NeedItem } from './attention/needs.js';
import { lifeOf } from '../store/claude/life.js';
import { processReason, processWord } from '../store/claude/join-words.js';
import { cleanLine, truncate } from '../io/sanitize.js';
import type { SessionView } from '../store/sessions/model.js';
import { LEGACY_LABEL, modeSummary, promptText, unknownModesText } from '../store/sessions/summary.js';
import { LEGACY_KEY, sessionKey, signalUntilMs } from '../store/sessions/model.js';
import { configuredPrices } from '../store/claude/price-config.js';
import { CANCEL_FAILED } from '../store/cancel/words.js';
import { sessionSpend, spendUnknown, stillBeingRead, type Reading } from '../store/cost/spend.js';
import { SETTLED_WORDS, type CancelRecord } from '../store/cancel/cancel-records.js';
import { FLIGHT_WORDS, flightText, recordedFlight, type FlightWord } from '../store/cancel/in-flight.js';
import {
  settledShown,
  settledText,
  settledWhy,
  recordedSettled,
  SETTLED_SHOW_MS,
  type SettledWord,
} from '../store/cancel/settled.js';
import { statusWords } from '../store/sessions/summary.js';
import type { QuotaSnapshot } from '../store/cost/quota-domain.js';
import { rateLimitBadge, sessionRateLimit } from '../store/cost/rate-limit-words.js';

export const SESSION_STATUSES = [
  'enforced',
  'paused',
  'not-enforced',
  'pending',
  'stale',
  'finished',
  'cancelling',
  'idle',
  // A file or directory its verdict depends on could not be read here: an older receiver's schema refuses the row.
  'unreadable',
] as const;
export const PROCESS_STATUSES = ['busy', 'idle', 'waiting', 'gone', 'exited', 'unknown'] as const;

/** The row model `watch --json --rows` sends and the fleet view draws. */
export interface RowModel {
  /** The session id; "legacy" for the session-less state (which a session directory may also be named). */
  session: string;
  /**
   * The session-less state (OMC's files in state/ and the root), not a session directory. Absent from an
   * older sender: its "legacy" row is then either one (it sent both the same way).
   */
  sessionless?: boolean;
  status: (typeof SESSION_STATUSES)[number];
  /**
   * While an OMC cancel signal in force decides `status` (`cancelling`, or `paused` when the loops kept their state):
   * when the Stop hook stops honouring it (epoch ms).
   */
  cancelUntilMs: number | null;
  /**
   * omc-top's cancel of this session in flight (store/cancel/in-flight.ts): the word every surface says instead of
   * `status` (`stopping` counted up from `sinceMs`, `ended`/`cancel` down to `untilMs`), or null. Absent from an
   * older sender.
   */
  cancelFlight?: FlightWord | null;
  /**
   * omc-top's cancel of this session settled (store/cancel/settled.ts): the word every surface says instead of
   * `status` until SETTLED_SHOW_MS after `atMs` (the receiver decides on its own clock), or null. Absent from an
   * older sender.
   */
  cancelSettled?: SettledWord | null;
  /** Every mode with progress and phase, as the sessions pane writes it. */
  modes: string;
  prompt: string;
  updatedMs: number | null;
  /** Sort key: smaller needs attention sooner (the sessions pane's rank). */
  rank: number;
  /** The Claude Code process behind the session; null when no registry entry names it. */
  process: (typeof PROCESS_STATUSES)[number] | null;
  /**
   * That process runs the session from where its hooks read another `.omc` (its loop here is orphaned): the CLAUDE
   * cell says so instead of `process` (store/claude/join-words.ts processWord). Absent when not, and from an older
   * sender.
   */
  processElsewhere?: boolean;
  processWhy: string | null;
  /** What needs the user in this session (the attention model's oldest open item), or null. */
  needs: string | null;
  /**
   * What the session spent, estimated (store/cost/spend.ts: subagents included): the priced part in USD
   * (null: no transcript, or nothing priced) and how many models had no price. Absent from older senders.
   */
  costUsd?: number | null;
  unpricedModels?: number;
  /** The part spent on the sender's UTC day. */
  todayUsd?: number | null;
  burnPerMin?: number | null;
  /** The session's subagent files or its transcript are still being read: the spend is a lower bound (store/cost/spend.ts). */
  costPartial?: boolean;
  /** Which of them: its list cell's mark says ("+…" the transcript, "+sub…" subagent files). */
  costReading?: 'transcript' | 'subagents' | null;
  /**
   * Part of the session's transcript is never read (store/cost/spend.ts unreadOf: the bytes before `fromByte`,
   * `longLines` lines over 4 MB, `subagentFiles` subagent files over 64 MB read from their last 64 MB only with
   * `subagentBytes` before): the spend is a lower bound for good, its cell says "+part". Absent when it is read whole, and from an older sender.
   */
  costUnread?: { fromByte: number; size: number; longLines: number; subagentFiles?: number; subagentBytes?: number };
  /**
   * Why the spend cannot be known (the transcript is there but cannot be read: store/cost/spend.ts spendUnknown):
   * the cell says "—" and the project's total counts the row as not priced, never as $0.
   */
  costUnknown?: string | null;
  /**
   * The session's loop is held by the plan's rate limit until then (epoch ms; store/cost/rate-limit-words.ts): the
   * row shows `[rate-limited ↻HH:MM]` after its modes. Absent when not, and from an older sender.
   */
  rateLimitedUntilMs?: number;
  /**
   * A Claude with no OMC loop that waits on the user (waitingClaudeRows): nothing to cancel or pause, only a prompt
   * to answer. Absent when not, and from an older sender (its row then reads "Claude with no OMC loop").
   */
  noLoop?: boolean;
}

const MAX_TEXT = 400;
const epoch = z.number().finite().min(0).max(253_402_300_799_999).nullable();
const text = (max: number) => z.string().max(max * 4);

export const ROW_SCHEMA = z.object({
  session: z.string().min(1).max(200),
  sessionless: z.boolean().optional(),
  status: z.enum(SESSION_STATUSES),
  cancelUntilMs: epoch,
  cancelFlight: z
    .object({ word: z.enum(FLIGHT_WORDS), sinceMs: epoch, untilMs: epoch })
    .refine((w) => (w.sinceMs === null) !== (w.untilMs === null))
    .nullable()
    .optional(),
  cancelSettled: z
    .object({ word: z.enum(SETTLED_WORDS), atMs: epoch.unwrap() })
    .nullable()
    .optional(),
  modes: text(MAX_TEXT),
  prompt: text(MAX_TEXT),
  updatedMs: epoch,
  rank: z.number().finite().min(-1e6).max(1e6),
  process: z.enum(PROCESS_STATUSES).nullable(),
  processElsewhere: z.boolean().optional(),
  processWhy: text(200).nullable(),
  // An omc-top from before the attention model sends no `needs`: nothing is known to need the user there.
  needs: text(MAX_TEXT).nullable().optional(),
  costUsd: z.number().finite().min(0).max(1e9).nullable().optional(),
  unpricedModels: z.number().int().min(0).max(1000).optional(),
  todayUsd: z.number().finite().min(0).max(1e9).nullable().optional(),
  burnPerMin: z.number().finite().min(0).max(1e12).nullable().optional(),
  costPartial: z.boolean().optional(),
  costReading: z.enum(['transcript', 'subagents']).nullable().optional(),
  costUnread: z
    .object({
      fromByte: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      longLines: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      subagentFiles: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      subagentBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    })
    .optional(),
  costUnknown: text(MAX_TEXT).nullable().optional(),
  rateLimitedUntilMs: epoch.unwrap().optional(),
  noLoop: z.boolean().optional(),
});

const clean = (s: string, max: number) => truncate(cleanLine(s), max);

/** Cleans a row that passed the schema: a remote sender's strings are re-cleaned here, never trusted. */
export function cleanRow(r: z.infer<typeof ROW_SCHEMA>): RowModel {
  return {
    ...r,
    session: clean(r.session, 120),
    modes: clean(r.modes, MAX_TEXT),
    prompt: clean(r.prompt, MAX_TEXT),
    processWhy: r.processWhy === null ? null : clean(r.processWhy, 200),
    needs: r.needs === null || r.needs === undefined ? null : clean(r.needs, MAX_TEXT),
    costUnknown: r.costUnknown === null || r.costUnknown === undefined ? null : clean(r.costUnknown, MAX_TEXT),
  };
}

/**
 * A row's identity among its project's rows (the fleet's row keys, the wire's map): LEGACY_KEY for the
 * session-less state, else the session id, so a directory named legacy is a row of its own.
 */
export const rowIdentity = (r: Pick<RowModel, 'session' | 'sessionless'>): string =>
  r.sessionless === true ? LEGACY_KEY : r.session;

/** The id a user reads for a row: "(legacy)" for the session-less state, as the sessions pane writes it. */
export const rowLabel = (r: Pick<RowModel, 'session' | 'sessionless'>): string =>
  r.sessionless === true ? LEGACY_LABEL : r.session;

/** The MODES cell's words after the need: the modes (or the prompt), then the rate limit that holds the loop. */
export const rowModesText = (r: Pick<RowModel, 'modes' | 'prompt' | 'rateLimitedUntilMs'>): string =>
  [
    r.modes || (r.prompt ? r.prompt : 'no modes'),
    r.rateLimitedUntilMs !== undefined ? rateLimitBadge(r.rateLimitedUntilMs) : null,
  ]
    .filter(Boolean)
    .join(' · ');

/** A need as a row says it: the reason and what is waited on. */
export const needText = (n: NeedItem | null | undefined): string | null =>
  n ? truncate(n.waitingOn ? `${n.reason}: ${n.waitingOn}` : n.reason, MAX_TEXT) : null;

/**
 * The cancel signal a row counts down (`cancel 12s`, or `pause 12s` when the loops kept their state), or null: the
 * same reading as the sessions pane's (store/sessions/model.ts signalUntilMs), from the row's own fields. Nothing
 * while the row needs the user because omc-top's cancel failed half-way (its signal landed, its loop did not end):
 * no cancel is in flight to count down.
 */
export function rowSignal(
  r: Pick<RowModel, 'status' | 'cancelUntilMs'> & Partial<Pick<RowModel, 'needs' | 'cancelFlight'>>,
): { word: 'cancel' | 'pause'; untilMs: number } | null {
  if (r.needs === CANCEL_FAILED || r.cancelFlight) return null;
  if (r.cancelUntilMs === null || (r.status !== 'cancelling' && r.status !== 'paused')) return null;
  return { word: r.status === 'paused' ? 'pause' : 'cancel', untilMs: r.cancelUntilMs };
}

/**
 * A row's status as every surface says it: `cancel failed` while the row needs the user for that, the word of a
 * cancel in flight (`stopping 47s`, `ended 23s`), the settled word of one for five minutes (`stopped`, `cancelled`,
 * `ended`, `not taken`), a signal's countdown (`cancel 12s`, `pause 12s`), else the status in words. The fleet's rows
 * and the serve page say this; the sessions pane and the Cost pane say the same (panes/sessions/rows.ts).
 */
export function rowStatusText(
  r: Pick<RowModel, 'status' | 'cancelUntilMs'> & Partial<Pick<RowModel, 'needs' | 'cancelFlight' | 'cancelSettled'>>,
  now: number,
): string {
  if (r.needs === CANCEL_FAILED) return CANCEL_FAILED;
  if (r.cancelFlight) return flightText(r.cancelFlight, now);
  if (r.cancelSettled && settledShown(r.cancelSettled, now)) return settledText(r.cancelSettled);
  const sig = rowSignal(r);
  if (sig) return `${sig.word} ${Math.max(0, Math.ceil((sig.untilMs - now) / 1000))}s`;
  return statusWords(r.status);
}

/**
 * The word a row's CLAUDE cell says of its process (the fleet, the serve page), as the sessions row does: `elsewhere`
 * for a Claude whose hooks read another .omc (store/claude/join-words.ts processWord), else its status; null for none.
 */
export const rowProcessText = (r: Pick<RowModel, 'process' | 'processElsewhere'>): string | null =>
  r.process === null ? null : processWord(r.process, r.processElsewhere === true);

/** When a row's settled word leaves it (epoch ms), for a view's next repaint; null when it shows none. */
export const settledUntilMs = (r: Partial<Pick<RowModel, 'cancelSettled'>>): number | null =>
  r.cancelSettled ? r.cancelSettled.atMs + SETTLED_SHOW_MS : null;

/**
 * The row of one local session (text already cleaned by the sessions domain). `record`: omc-top's record of its
 * newest cancel of the session (store/cancel/cancel-records.ts), for the word of a cancel in flight.
 */
export function rowOf(
  s: SessionView,
  claude: ClaudeSessionView | undefined,
  now = Date.now(),
  need?: NeedItem | null,
  record?: CancelRecord,
  /** OMC's quota files (the store's quota domain): a loop the plan's limit holds says so. */
  quota?: QuotaSnapshot | null,
): RowModel {
  const p = claude?.process ?? null;
  const life = lifeOf(claude);
  const sp = s.kind === 'session' ? sessionSpend(claude, configuredPrices(), now) : null;
  const priced = (e: { priced: unknown[]; usd: number } | undefined) => (e && e.priced.length > 0 ? e.usd : null);
  const limit = quota ? sessionRateLimit(s, claude, quota, now) : null;
  return {
    session: s.id,
    sessionless: s.kind === 'legacy',
    status: s.status,
    cancelUntilMs: signalUntilMs(s),
    cancelFlight: recordedFlight(record, s, claude, now),
    cancelSettled: recordedSettled(record, s, now),
    modes: truncate(unknownModesText(s) ?? s.modes.map((m) => modeSummary(m, true)).join(' · '), MAX_TEXT),
    prompt: truncate(promptText(s), MAX_TEXT),
    updatedMs: s.updatedMs,
    rank: s.rank,
    // A session no process was ever seen for has none; one whose transcript ends with Claude Code's exit has exited.
    process: p || life.exit ? life.status : null,
    // Only when so: a row of a Claude that runs here is the same JSON as before.
    ...(p?.elsewhere ? { processElsewhere: true } : {}),
    processWhy:
      (p && truncate(processReason(p), 200)) ??
      (life.exit ? 'the transcript ends with the figures Claude Code writes at exit' : null),
    needs: needText(need),
    costUsd: priced(sp?.estimate),
    unpricedModels: sp?.estimate.unpriced.length ?? 0,
    todayUsd: priced(sp?.today),
    burnPerMin: sp?.burnPerMin ?? null,
    // Still being read (it will complete); a part never read is costUnread, which an older receiver ignores.
    costPartial: stillBeingRead(sp?.reading ?? null),
    costReading: readNow(sp?.reading ?? null),
    // Only when so: a row read whole is the same JSON as before.
    ...(sp?.unread ? { costUnread: sp.unread } : {}),
    costUnknown: s.kind === 'session' ? spendUnknown(claude) : null,
    // Only when so: a row no limit holds is the same JSON as before.
    ...(limit ? { rateLimitedUntilMs: limit.untilMs } : {}),
  };
}

/** What of the session is still being read (a row's `costReading`), null for a part never read or nothing. */
const readNow = (r: Reading): 'transcript' | 'subagents' | null => (stillBeingRead(r) ? r : null);

/**
 * A row for a Claude that needs the user but has no OMC session row (a plain `claude` in the project waiting on a
 * permission prompt the hook handed over: the attention model counts it, `permission` kind). Without it a surface
 * that draws session rows would show nothing for it: the local fleet (fleet/local.ts) and `watch --json --rows`
 * (row-feed.ts, what a `--host` fleet reads) both add these. One row per such Claude.
 */
export function waitingClaudeRows(
  open: readonly NeedItem[],
  sessions: readonly SessionView[],
  claude: ReadonlyMap<string, ClaudeSessionView>,
): RowModel[] {
  const out: RowModel[] = [];
  const seen = new Set<string>();
  // Asked only for such a need (few): a pass over the sessions then, never on a plain change.
  const hasSession = (sid: string) => sessions.some((s) => s.kind !== 'legacy' && s.id === sid);
  for (const n of open) {
    if (n.session === null || !isPermissionNeed(n) || seen.has(n.session) || hasSession(n.session)) continue;
    seen.add(n.session);
    const p = claude.get(n.session)?.process ?? null;
    out.push({
      session: n.session,
      sessionless: false,
      status: 'idle',
      cancelUntilMs: null,
      cancelFlight: null,
      cancelSettled: null,
      modes: '',
      prompt: truncate(cleanLine(`Claude with no OMC loop${p?.name ? `: ${p.name}` : ''}`), MAX_TEXT),
      updatedMs: n.since,
      // First among the project's rows: it waits on the user now.
      rank: -1,
      process: 'waiting',
      processWhy: null,
      needs: needText(n),
      noLoop: true,
    });
  }
  return out;
}

/**
 * What a `--host` row of a Claude with no OMC loop has (nothing to cancel or pause: `what`) and where its permission
 * prompt is answered; short enough for an 80-column message line.
 */
export const noLoopWords = (host: string, what?: 'cancel' | 'pause'): string =>
  `no OMC loop${what ? ` to ${what}` : ''}: answer its prompt on ${host} (omc-top there, !)`;

/** The oldest open item per session of an attention view (what a session's row says needs you). */
export function needsBySession(open: readonly NeedItem[]): Map<string, NeedItem> {
  const out = new Map<string, NeedItem>();
  for (const n of open) if (n.session !== null && !out.has(n.session)) out.set(n.session, n);
  return out;
}

/**
 * Adds to every session of a --json document (built by buildJsonReport) its status as every surface says it
 * (`status_text`: "stopping 47s", "ended 23s", "stopped", "cancel 12s", "idle"), omc-top's cancel in flight
 * (`cancel_in_flight`: the word, and when it counts from or to) and its settled verdict while the rows say it
 * (`cancel_settled`: the word, when, and what the process that followed it saw), from omc-top's record of its cancels.
 */
export function addCancelWordsToReport(
  doc: Record<string, unknown>,
  sessions: readonly SessionView[],
  claude: ReadonlyMap<string, ClaudeSessionView>,
  records: ReadonlyMap<string, CancelRecord>,
  now: number,
): void {
  const list = doc.sessions as Record<string, unknown>[];
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  sessions.forEach((s, i) => {
    const out = list[i];
    if (!out || out.id !== s.id) return;
    const rec = records.get(sessionKey(s));
    const flight = recordedFlight(rec, s, claude.get(s.id), now);
    const settled = recordedSettled(rec, s, now);
    const failed = rec !== undefined && failedNeed(rec, s) !== null;
    out.status_text = rowStatusText(
      {
        status: s.status,
        cancelUntilMs: signalUntilMs(s),
        cancelFlight: flight,
        cancelSettled: settled,
        needs: failed ? CANCEL_FAILED : null,
      },
      now,
    );
    out.cancel_in_flight = flight && {
      word: flight.word,
      text: flightText(flight, now),
      since: iso(flight.sinceMs),
      until: iso(flight.untilMs),
    };
    const set = settled && rec?.settled;
    out.cancel_settled = set
      ? {
          word: set.word,
          text: settledText(set),
          at: iso(set.atMs),
          claude_stopped_at: iso(set.stoppedMs),
          seen: set.seen,
          by_pid: set.byPid,
          why: settledWhy(set, rec.requestedMs),
        }
      : null;
  });
}
