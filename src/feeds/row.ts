/**
 * One fleet row: what the fleet view shows of a session, as plain data that
 * is the same whether it came from a local store or from a remote
 * `omc-top watch --json --rows` stream. Remote rows are hostile input: the
 * zod schema bounds every field and every string is cleaned again here, on
 * the receiving side, whatever the sender claims to have done.
 */
import { z } from 'zod';
import type { ClaudeSessionView } from '../store/claude/model.js';
import type { NeedItem } from './attention/needs.js';
import { lifeOf } from '../store/claude/life.js';
import { cleanLine, truncate } from '../io/sanitize.js';
import type { SessionView } from '../store/sessions/model.js';
import { LEGACY_LABEL, modeSummary, promptText, unknownModesText } from '../store/sessions/summary.js';
import { LEGACY_KEY, signalUntilMs } from '../store/sessions/model.js';
import { configuredPrices } from '../store/claude/price-config.js';
import { CANCEL_FAILED } from '../store/cancel/words.js';
import { sessionSpend, spendUnknown } from '../store/cost/spend.js';

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
  /** Every mode with progress and phase, as the sessions pane writes it. */
  modes: string;
  prompt: string;
  updatedMs: number | null;
  /** Sort key: smaller needs attention sooner (the sessions pane's rank). */
  rank: number;
  /** The Claude Code process behind the session; null when no registry entry names it. */
  process: (typeof PROCESS_STATUSES)[number] | null;
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
   * Why the spend cannot be known (the transcript is there but cannot be read: store/cost/spend.ts spendUnknown):
   * the cell says "—" and the project's total counts the row as not priced, never as $0.
   */
  costUnknown?: string | null;
}

const MAX_TEXT = 400;
const epoch = z.number().finite().min(0).max(253_402_300_799_999).nullable();
const text = (max: number) => z.string().max(max * 4);

export const ROW_SCHEMA = z.object({
  session: z.string().min(1).max(200),
  sessionless: z.boolean().optional(),
  status: z.enum(SESSION_STATUSES),
  cancelUntilMs: epoch,
  modes: text(MAX_TEXT),
  prompt: text(MAX_TEXT),
  updatedMs: epoch,
  rank: z.number().finite().min(-1e6).max(1e6),
  process: z.enum(PROCESS_STATUSES).nullable(),
  processWhy: text(200).nullable(),
  // An omc-top from before the attention model sends no `needs`: nothing is known to need the user there.
  needs: text(MAX_TEXT).nullable().optional(),
  costUsd: z.number().finite().min(0).max(1e9).nullable().optional(),
  unpricedModels: z.number().int().min(0).max(1000).optional(),
  todayUsd: z.number().finite().min(0).max(1e9).nullable().optional(),
  burnPerMin: z.number().finite().min(0).max(1e12).nullable().optional(),
  costPartial: z.boolean().optional(),
  costReading: z.enum(['transcript', 'subagents']).nullable().optional(),
  costUnknown: text(MAX_TEXT).nullable().optional(),
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
  r: Pick<RowModel, 'status' | 'cancelUntilMs'> & Partial<Pick<RowModel, 'needs'>>,
): { word: 'cancel' | 'pause'; untilMs: number } | null {
  if (r.needs === CANCEL_FAILED) return null;
  if (r.cancelUntilMs === null || (r.status !== 'cancelling' && r.status !== 'paused')) return null;
  return { word: r.status === 'paused' ? 'pause' : 'cancel', untilMs: r.cancelUntilMs };
}

/** The row of one local session (text already cleaned by the sessions domain). */
export function rowOf(
  s: SessionView,
  claude: ClaudeSessionView | undefined,
  now = Date.now(),
  need?: NeedItem | null,
): RowModel {
  const p = claude?.process ?? null;
  const life = lifeOf(claude);
  const sp = s.kind === 'session' ? sessionSpend(claude, configuredPrices(), now) : null;
  const priced = (e: { priced: unknown[]; usd: number } | undefined) => (e && e.priced.length > 0 ? e.usd : null);
  return {
    session: s.id,
    sessionless: s.kind === 'legacy',
    status: s.status,
    cancelUntilMs: signalUntilMs(s),
    modes: truncate(unknownModesText(s) ?? s.modes.map((m) => modeSummary(m, true)).join(' · '), MAX_TEXT),
    prompt: truncate(promptText(s), MAX_TEXT),
    updatedMs: s.updatedMs,
    rank: s.rank,
    // A session no process was ever seen for has none; one whose transcript ends with Claude Code's exit has exited.
    process: p || life.exit ? life.status : null,
    processWhy: p?.reason ?? (life.exit ? 'the transcript ends with the figures Claude Code writes at exit' : null),
    needs: needText(need),
    costUsd: priced(sp?.estimate),
    unpricedModels: sp?.estimate.unpriced.length ?? 0,
    todayUsd: priced(sp?.today),
    burnPerMin: sp?.burnPerMin ?? null,
    costPartial: sp?.partial ?? false,
    costReading: sp?.reading ?? null,
    costUnknown: s.kind === 'session' ? spendUnknown(claude) : null,
  };
}

/** The oldest open item per session of an attention view (what a session's row says needs you). */
export function needsBySession(open: readonly NeedItem[]): Map<string, NeedItem> {
  const out = new Map<string, NeedItem>();
  for (const n of open) if (n.session !== null && !out.has(n.session)) out.set(n.session, n);
  return out;
}
