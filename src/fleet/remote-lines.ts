/**
 * A remote `omc-top watch --json --rows` stream, read as hostile input: lines
 * are capped in bytes (a longer one is skipped up to its newline, never
 * buffered whole), each is parsed and checked with zod, every string is
 * cleaned on this side, and anything that does not fit is one problem line,
 * never an exception. Line types this version does not know are skipped (the
 * stream is documented as extensible).
 */
import { z } from 'zod';
import { cleanLine, truncate } from '../io/sanitize.js';
import { isValidSessionId } from '../store/sessions/omc-rules.js';
import { LEGACY_KEY } from '../store/sessions/model.js';
import { cleanRow, ROW_SCHEMA, type RowModel } from '../feeds/row.js';
import type { NeedItem, NeedKind } from '../feeds/attention/needs.js';

/**
 * A row line is well under 2 KB, but an attention line lists every item that holds there (a few hundred bytes
 * each, MAX_REMOTE_ITEMS of them kept): a line past this is not one of ours.
 */
export const MAX_LINE_BYTES = 1024 * 1024;

/** The longest `alive` period a ready line may announce (a longer one is not one of ours: a bad line). */
export const MAX_ALIVE_MS = 60_000;

const READY = z.object({
  v: z.literal(1),
  type: z.literal('ready'),
  project: z.string().max(1000),
  version: z.string().max(64).optional(),
  // How often a quiet stream there writes `alive` (null: never; absent from an omc-top whose ready line did not say).
  aliveMs: z.number().int().positive().max(MAX_ALIVE_MS).nullable().optional(),
});
const ROW = z.object({
  v: z.literal(1),
  type: z.literal('row'),
  project: z.string().max(1000),
  session: z.string().max(200),
  // Absent from an older omc-top, which sent the session-less state and a directory named legacy alike.
  sessionless: z.boolean().optional(),
  row: ROW_SCHEMA.nullable(),
});
/** Items kept from one attention line; a remote naming more is cut there (the count still says how many). */
export const MAX_REMOTE_ITEMS = 500;
const NEED_KINDS: readonly NeedKind[] = [
  'waiting',
  'orphaned',
  'idle-loop',
  'cancel-not-taken',
  'team-stalled',
  'team-failed',
  'worker-dead',
  'unreadable',
  'gate',
];
const opt = (max: number) => z.string().max(max).nullable();
const ITEM = z.object({
  id: z.string().min(1).max(600),
  kind: z.string().max(40),
  reason: z.string().max(200),
  text: z.string().max(2000),
  since: opt(40),
  session: opt(200),
  /** The session-less state (true) rather than a directory named legacy; not sent by older omc-top. */
  sessionless: z.boolean().optional(),
  name: opt(400),
  tmux: opt(400),
  mode: opt(100),
  team: opt(200),
  worker: opt(200),
  path: opt(1000),
  waiting_on: opt(2000),
  action: z.enum(['jump', 'cancel', 'detail']),
  acknowledged: z.boolean(),
});
const ATTENTION = z.object({
  v: z.literal(1),
  type: z.literal('attention'),
  project: z.string().max(1000),
  needsYou: z.number().int().min(0).max(1e9),
  items: z.array(ITEM),
});
const PUSH_LEASE = z.object({
  v: z.literal(1),
  type: z.literal('push-lease'),
  project: z.string().max(1000),
  pusher: z.enum(['fleet', 'other']),
});
const QUOTA = z.object({
  v: z.literal(1),
  type: z.literal('quota'),
  project: z.string().max(1000),
  quota: z.object({ short: z.string().max(400), limited_until: z.string().max(40).nullable().optional() }).nullable(),
});
/** Where the watch there reads OMC's state, and whether it is there yet (`present: false`: waiting for it). */
const ROOT = z.object({
  v: z.literal(1),
  type: z.literal('root'),
  project: z.string().max(1000),
  root: z.object({
    path: z.string().max(4000),
    present: z.boolean(),
    problem: z.object({ message: z.string().max(16_000) }).nullable(),
  }),
});
/** A problem line of the project there (`kind` `problem`: a snapshot's `value`, a transition's `to`; null: gone). */
const SEVERITY = z.enum(['error', 'warning', 'info']).nullable();
const PROBLEM = z.object({
  v: z.literal(1),
  type: z.enum(['snapshot', 'transition']),
  project: z.string().max(1000),
  kind: z.literal('problem'),
  /** `path\u0000message`, the monitor's problem line there. */
  key: z.string().min(1).max(8000),
  value: SEVERITY.optional(),
  to: SEVERITY.optional(),
});
const ANY = z.object({ v: z.number(), type: z.string().max(40), kind: z.string().max(40).optional() });

export type RemoteLine =
  /** `aliveMs`: the stream there writes `alive` after that long with nothing else (null: it did not say). */
  | { kind: 'ready'; project: string; version: string | null; aliveMs: number | null }
  /** The stream there is quiet, not stalled (written after a period with nothing else). */
  | { kind: 'alive' }
  | {
      kind: 'row';
      project: string;
      session: string;
      /** The session-less state (true), a session directory (false), or not said (null: an older sender). */
      sessionless: boolean | null;
      row: RowModel | null;
    }
  /** What needs the user there: open items first, then the acknowledged ones (the attention view). */
  | { kind: 'attention'; project: string; open: NeedItem[]; acked: NeedItem[] }
  /** Who pushes for the project there (`--push-lease`). */
  | { kind: 'push-lease'; project: string; pusher: 'fleet' | 'other' }
  /** That machine's plan quota, in its header's narrow words (null: OMC keeps no usage cache there). */
  | { kind: 'quota'; project: string; short: string | null; limitedUntilMs: number | null }
  /**
   * One of the project's problem lines there (the monitor's), as a snapshot lists it or a transition changes it:
   * `severity` null when it is gone.
   */
  | {
      kind: 'problem';
      snapshot: boolean;
      key: string;
      path: string;
      message: string;
      severity: 'error' | 'warning' | 'info' | null;
    }
  /** The `.omc` the watch there reads: `waiting` says why it is not there yet (or no longer); null while it is. */
  | { kind: 'root'; project: string; waiting: string | null }
  | { kind: 'skip' }
  | { kind: 'bad'; problem: string };

const why = (e: z.ZodError) =>
  truncate(cleanLine(e.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ')), 160);

export function parseRemoteLine(text: string): RemoteLine {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { kind: 'bad', problem: `not JSON: ${truncate(cleanLine(text), 60)}` };
  }
  const head = ANY.safeParse(raw);
  if (!head.success) return { kind: 'bad', problem: `not a watch line (${why(head.error)})` };
  if (head.data.v !== 1) return { kind: 'bad', problem: `line schema v${head.data.v}: this omc-top reads v1` };
  if (head.data.type === 'ready') {
    const r = READY.safeParse(raw);
    if (!r.success) return { kind: 'bad', problem: `bad ready line (${why(r.error)})` };
    return {
      kind: 'ready',
      project: truncate(cleanLine(r.data.project), 120),
      version: r.data.version === undefined ? null : truncate(cleanLine(r.data.version), 40),
      aliveMs: r.data.aliveMs ?? null,
    };
  }
  if (head.data.type === 'alive') return { kind: 'alive' };
  if (head.data.type === 'attention') return attentionOf(raw);
  if (head.data.type === 'push-lease') {
    const r = PUSH_LEASE.safeParse(raw);
    if (!r.success) return { kind: 'bad', problem: `bad push-lease line (${why(r.error)})` };
    return { kind: 'push-lease', project: truncate(cleanLine(r.data.project), 120), pusher: r.data.pusher };
  }
  if (head.data.type === 'quota') {
    const r = QUOTA.safeParse(raw);
    if (!r.success) return { kind: 'bad', problem: `bad quota line (${why(r.error)})` };
    const short = r.data.quota === null ? null : truncate(cleanLine(r.data.quota.short), 120) || null;
    // When the plan's limit ends there (an older sender, or one not limited: null); a time that is not one is no time.
    const until = Date.parse(r.data.quota?.limited_until ?? '');
    const limitedUntilMs = short !== null && Number.isFinite(until) ? until : null;
    return { kind: 'quota', project: truncate(cleanLine(r.data.project), 120), short, limitedUntilMs };
  }
  if (head.data.type === 'root') {
    const r = ROOT.safeParse(raw);
    if (!r.success) return { kind: 'bad', problem: `bad root line (${why(r.error)})` };
    const { path: at, present, problem } = r.data.root;
    const waiting = present ? null : truncate(cleanLine(problem?.message || `${at} is not there`), 300);
    return { kind: 'root', project: truncate(cleanLine(r.data.project), 120), waiting };
  }
  if ((head.data.type === 'snapshot' || head.data.type === 'transition') && head.data.kind === 'problem') {
    const r = PROBLEM.safeParse(raw);
    if (!r.success) return { kind: 'bad', problem: `bad problem line (${why(r.error)})` };
    const cut = r.data.key.indexOf('\u0000');
    const [path, message] = cut === -1 ? ['', r.data.key] : [r.data.key.slice(0, cut), r.data.key.slice(cut + 1)];
    const snapshot = r.data.type === 'snapshot';
    return {
      kind: 'problem',
      snapshot,
      key: r.data.key,
      path: truncate(cleanLine(path), 300),
      message: truncate(cleanLine(message), 600),
      severity: (snapshot ? r.data.value : r.data.to) ?? null,
    };
  }
  if (head.data.type !== 'row') return { kind: 'skip' };
  const r = ROW.safeParse(raw);
  if (!r.success) return { kind: 'bad', problem: `bad row line (${why(r.error)})` };
  // The id goes into `ssh box omc-top cancel <id>`: only a real session id is ever accepted.
  if (!isValidSessionId(r.data.session) || (r.data.row !== null && r.data.row.session !== r.data.session))
    return { kind: 'bad', problem: 'bad row line (session: not a valid session id)' };
  const said = [r.data.sessionless, r.data.row?.sessionless].filter((x): x is boolean => x !== undefined);
  const sessionless = said[0] ?? null;
  // The session-less state is "legacy" on the wire; the line and its row must say the same.
  if (said.some((x) => x !== sessionless) || (sessionless === true && r.data.session !== 'legacy'))
    return { kind: 'bad', problem: 'bad row line (sessionless: does not match the session)' };
  const row = r.data.row === null ? null : cleanRow(r.data.row);
  return {
    kind: 'row',
    project: truncate(cleanLine(r.data.project), 120),
    session: r.data.session,
    sessionless,
    row: row && sessionless !== null ? { ...row, sessionless } : row,
  };
}

const cleanOpt = (s: string | null, max: number) => (s === null ? null : truncate(cleanLine(s), max));

/** An attention line's items as need items, every string cleaned here; an item kind not known here is skipped. */
function attentionOf(raw: unknown): RemoteLine {
  const items = (raw as { items?: unknown }).items;
  // Cut before the check, so a remote naming more than MAX_REMOTE_ITEMS still shows the first ones.
  const r = ATTENTION.safeParse(
    Array.isArray(items) && items.length > MAX_REMOTE_ITEMS
      ? { ...(raw as object), items: items.slice(0, MAX_REMOTE_ITEMS) }
      : raw,
  );
  if (!r.success) return { kind: 'bad', problem: `bad attention line (${why(r.error)})` };
  const open: NeedItem[] = [];
  const acked: NeedItem[] = [];
  for (const i of r.data.items) {
    const kind = NEED_KINDS.find((k) => k === i.kind);
    if (!kind) continue;
    // A session id may reach `ssh box omc-top cancel <id>`: anything else is no session.
    // The session-less state is the sessions domain's key for it, as for a local item.
    const session =
      i.session === null
        ? null
        : i.sessionless === true
          ? LEGACY_KEY
          : i.session === 'legacy' || isValidSessionId(i.session)
            ? i.session
            : null;
    const since = i.since === null ? null : Date.parse(i.since);
    const item: NeedItem = {
      id: truncate(cleanLine(i.id), 600),
      kind,
      reason: truncate(cleanLine(i.reason), 120),
      text: truncate(cleanLine(i.text), 400),
      since: since !== null && Number.isFinite(since) ? since : null,
      session,
      name: cleanOpt(i.name, 120),
      tmux: cleanOpt(i.tmux, 120),
      mode: cleanOpt(i.mode, 60),
      team: cleanOpt(i.team, 120),
      worker: cleanOpt(i.worker, 120),
      path: cleanOpt(i.path, 400),
      waitingOn: cleanOpt(i.waiting_on, 400),
      action: i.action,
    };
    (i.acknowledged ? acked : open).push(item);
  }
  return { kind: 'attention', project: truncate(cleanLine(r.data.project), 120), open, acked };
}

/** Splits a byte stream into lines of at most `max` bytes; a longer line is reported once and skipped. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOversize: () => void,
    private readonly max = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.skipping) {
        const piece = chunk.subarray(start, end);
        if (this.size + piece.length > this.max) {
          this.skipping = true;
          this.parts = [];
          this.size = 0;
          this.onOversize();
        } else if (piece.length > 0) {
          this.parts.push(piece);
          this.size += piece.length;
        }
      }
      if (nl === -1) return;
      if (!this.skipping) {
        const line = Buffer.concat(this.parts).toString('utf8');
        if (line.trim() !== '') this.onLine(line);
      }
      this.parts = [];
      this.size = 0;
      this.skipping = false;
      start = nl + 1;
    }
  }
}
