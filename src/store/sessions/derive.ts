/**
 * One session's files → its immutable SessionView: modes with their status
 * and progress, the cancel signal that applies, problems, and when the view
 * next changes on its own. Pure apart from one stat (is the directory still there).
 */
import { statSync } from '../../io/safe-fs/index.js';
import { FUTURE_SLACK_MS, isFuture } from '../../io/time-ahead.js';
import { cleanDeep, cleanLine, truncate } from '../../io/sanitize.js';
import type { Problem } from '../types.js';
import type { OmcInstall } from '../omc-install.js';
import type { SessionVerdict } from '../verdict/types.js';
import type { FileRec } from './file-records.js';
import { wrongTypedFields } from './field-types.js';
import { modeSpec, promptOf } from './modes.js';
import {
  KNOWN_MODES,
  MODE_ORDER,
  RETIRED_IN_55,
  SIGNAL_FILE,
  genericCancelVerdict,
  isoOrNull,
  lastUpdateMs,
  linkedModes,
  modeProgress,
  modeStatus,
  stateOwner,
  timeMs,
} from './omc-rules.js';
import { isObjectLike, str } from '../../io/json.js';
import { GLOBAL_PREFIX } from '../verdict/types.js';
import { holdsAgent, type CancelView, type ModeView, type SessionStatus, type SessionView } from './model.js';
import { LEGACY, STATE_FILE_RE, isHookInput } from './paths.js';
import { CANNOT_READ_RULE, cannotReadJudgement, judgeMode, type Unread, type VerdictBook } from './verdicts.js';
import { VerdictView } from './verdict-view.js';

function modeSortKey(mode: string): number {
  const i = (MODE_ORDER as readonly string[]).indexOf(mode);
  return i === -1 ? MODE_ORDER.length : i;
}

export const STATUS_RANK: Record<SessionStatus, number> = {
  cancelling: 0,
  pending: 1,
  // The Stop hook may hold the agent (or not): the user must look (run omc-top as the files' owner). A session
  // with it always has a problem line too, which ranks it here anyway.
  unreadable: 1,
  enforced: 2,
  // A loop whose gate holds while something else lets this Stop through: it keeps its place (a ralph
  // flips between the two every turn under Claude Code's stop_hook_active).
  paused: 2,
  // Looks like a loop but nothing holds the agent: worth a look before stale leftovers.
  'not-enforced': 3,
  stale: 4,
  finished: 5,
  idle: 6,
};

/**
 * A ModeView whose `fields` (every field of the file, sanitised) is built on first read: only the session a
 * user opens needs it. A prototype getter over a private field, not a per-object defineProperty: that turned
 * every mode view into a dictionary-mode object (~1.6 KB each) and its closure kept deriveSession's whole
 * scope alive (the verdict book of that publish, every file record), ~3 KB a session at 10,000 sessions.
 */
class LazyFieldsMode implements ModeView {
  readonly mode: ModeView['mode'];
  readonly path: ModeView['path'];
  readonly active: ModeView['active'];
  readonly status: ModeView['status'];
  readonly enforced: ModeView['enforced'];
  readonly pausedBy: ModeView['pausedBy'];
  readonly verdict: ModeView['verdict'];
  readonly reason: ModeView['reason'];
  readonly iteration: ModeView['iteration'];
  readonly max: ModeView['max'];
  readonly phase: ModeView['phase'];
  readonly extras: ModeView['extras'];
  readonly startedMs: ModeView['startedMs'];
  readonly updatedMs: ModeView['updatedMs'];
  readonly writtenMs: ModeView['writtenMs'];
  readonly owner: ModeView['owner'];
  readonly stranded: ModeView['stranded'];
  readonly linked: ModeView['linked'];
  readonly retired: ModeView['retired'];
  readonly retiredForItsBook: ModeView['retiredForItsBook'];
  readonly prompt: ModeView['prompt'];
  readonly problem: ModeView['problem'];
  readonly fieldProblem: ModeView['fieldProblem'];
  readonly #raw: Record<string, unknown>;
  #fields: Record<string, unknown> | null = null;

  constructor(parts: Omit<ModeView, 'fields'>, raw: Record<string, unknown>) {
    this.#raw = raw;
    // One by one, not Object.assign: V8 then sizes the object for these properties (no out-of-object array).
    this.mode = parts.mode;
    this.path = parts.path;
    this.active = parts.active;
    this.status = parts.status;
    this.enforced = parts.enforced;
    this.pausedBy = parts.pausedBy;
    this.verdict = parts.verdict;
    this.reason = parts.reason;
    this.iteration = parts.iteration;
    this.max = parts.max;
    this.phase = parts.phase;
    this.extras = parts.extras;
    this.startedMs = parts.startedMs;
    this.updatedMs = parts.updatedMs;
    this.writtenMs = parts.writtenMs;
    this.owner = parts.owner;
    this.stranded = parts.stranded;
    this.linked = parts.linked;
    this.retired = parts.retired;
    this.retiredForItsBook = parts.retiredForItsBook;
    this.prompt = parts.prompt;
    this.problem = parts.problem;
    this.fieldProblem = parts.fieldProblem;
  }

  get fields(): Record<string, unknown> {
    return (this.#fields ??= cleanDeep(this.#raw) as Record<string, unknown>);
  }
}

/** Retired for the OMC that runs the session: 5.5.0's book no longer reads it (4.x and 4.15 still do). */
const retiredUnder = (mode: string, rules: string) => {
  const r = modeSpec(mode).retiredIn;
  return r !== null && !modeSpec(mode).readBy[rules as '5.5.0'];
};

/** The soonest moment after `now` at which something shown changes by itself (a deadline, an expiry). */
class NextChange {
  at: number | null = null;
  constructor(private readonly now: number) {}
  see(t: number | null): void {
    if (t !== null && t > this.now && (this.at === null || t < this.at)) this.at = t;
  }
}

interface SortedRecords {
  problems: Problem[];
  skillActive: Record<string, unknown> | null;
  started: Record<string, unknown> | null;
  ended: Record<string, unknown> | null;
  cancels: { rec: FileRec; value: unknown }[];
  modeRecs: { mode: string; rec: FileRec }[];
  /**
   * Files the Stop hook reads that omc-top could not (FileRec.unreadable): `any` can change any verdict (a mode
   * file, the session's start record with its cwd); `stopOnly` can only let the agent stop (a cancel signal, the
   * skill ledger's tombstones, pending async work), so they matter only to a verdict that blocks.
   */
  cannotRead: { any: Unread[]; stopOnly: Unread[] };
}

export function deriveSession(
  root: string,
  key: string,
  recs: FileRec[],
  now: number,
  book: VerdictBook,
  /** This session's state files that sit in other sessions' directories (FileRecords.ownedElsewhere). */
  borrowed: readonly FileRec[] = [],
  /** Why the session's directory could not be listed (permission denied, an I/O error), or null. */
  unlisted: string | null = null,
  /**
   * A directory above the session omc-top may no longer list, and why (SessionView.unreadableAbove), or null.
   * `away`: the root itself is gone, nothing was read: each mode is what was last seen of it, unknown now.
   */
  above: { dir: string; why: string; away?: boolean } | null = null,
): SessionView | null {
  const kind: 'session' | 'legacy' = key === LEGACY ? 'legacy' : 'session';
  const dir = kind === 'legacy' ? 'state' : `state/sessions/${key}`;
  const files = sortRecords(borrowed.length > 0 ? [...recs, ...borrowed] : recs);
  const { problems, started } = files;

  // Only ended-session markers and nothing else: not a row of its own.
  const hasDir = recs.some((r) => r.place.scope !== 'ended');
  // A session whose only state sits in another session's directory still has a hook that reads it. One seen before
  // under a directory omc-top may no longer list is not gone: it cannot be looked at.
  if (!hasDir && kind === 'session' && borrowed.length === 0 && above === null) {
    const st = statSync(root, dir);
    // A symlinked session directory omc-top would not list (out of the root): OMC's Stop hook reads through it.
    if (!st || (!st.isDirectory() && !(st.isSymbolicLink() && unlisted !== null))) return null;
  }
  if (kind === 'legacy' && files.modeRecs.length === 0 && files.cancels.length === 0 && problems.length === 0)
    return null;

  const next = new NextChange(now);
  const tombstone = tombstones(files.skillActive);
  // The session's verdict: what its Stop hook does next, and which signal (if any) pauses it.
  const sv = kind === 'session' ? book.of(key) : null;
  const modes: ModeView[] = files.modeRecs
    .map(({ mode, rec }) =>
      modeView(kind, key, mode, rec, now, book, tombstone(mode), problems, next, above?.away ? above.why : null),
    )
    .concat(sv === null ? [] : homeCopies(key, sv, book, now, tombstone, problems, next))
    .sort((a, b) => modeSortKey(a.mode) - modeSortKey(b.mode) || a.path.localeCompare(b.path));
  if (sv) next.see(sv.nextChangeAt);
  const cancel = cancelView(kind, key, files.cancels, sv, book, now, next);
  if (sv) sortShared(files.cannotRead, book.unreadIn(key), dir);
  const own = cannotReadPaths(files.cannotRead, dir, unlisted, sv?.decision === 'block');
  // The directory above says it first: the domain's problem line names it, and it is why the files are refused.
  const unread = above === null ? own : [above.dir, ...own];
  if (unlisted !== null) problems.push({ path: dir, message: unlisted, severity: 'error' });
  const unreadWhy = unread.length > 0 ? (above?.why ?? firstWhy(unread, files.cannotRead, unlisted)) : undefined;
  const status = unread.length > 0 ? 'unreadable' : sessionStatus(modes, cancel, now);
  const rank = problems.length > 0 ? Math.min(STATUS_RANK[status], 1) : STATUS_RANK[status];
  const ended = files.ended;

  return {
    id: kind === 'legacy' ? 'legacy' : cleanLine(key),
    kind,
    dir,
    modes,
    cancel,
    status,
    rank,
    startedMs:
      timeMs(started?.started_at) ??
      modes.reduce<number | null>(
        (acc, m) => (m.startedMs !== null && (acc === null || m.startedMs < acc) ? m.startedMs : acc),
        null,
      ),
    updatedMs: modes.reduce<number | null>(
      (acc, m) => (m.updatedMs !== null && (acc === null || m.updatedMs > acc) ? m.updatedMs : acc),
      null,
    ),
    ended: ended
      ? {
          endedAt: str(ended.ended_at) === null ? null : cleanLine(ended.ended_at),
          reason: str(ended.reason) === null ? null : cleanLine(ended.reason),
        }
      : null,
    cwd: str(started?.cwd) === null ? null : cleanLine(started?.cwd),
    problems,
    verdict:
      sv &&
      (unread.length > 0
        ? new VerdictView(
            sv.rules,
            'unknown',
            modes.find((m) => m.status === 'unreadable')?.mode ?? (sv.decision === 'block' ? sv.mode : null),
            CANNOT_READ_RULE,
            cannotReadDetail(unread, unreadWhy ?? 'not readable'),
            [],
            null,
          )
        : new VerdictView(sv.rules, sv.decision, sv.mode, sv.rule, cleanLine(sv.detail), sv.unless, sv.readings)),
    unreadable: unread,
    ...(unreadWhy === undefined ? {} : { unreadableWhy: unreadWhy }),
    ...(above === null ? {} : { unreadableAbove: above.dir }),
    omc: kind === 'legacy' ? null : sessionOmc(book, key),
    nextChangeAt: next.at,
  };
}

const NOTHING: readonly string[] = Object.freeze([]);

/**
 * The files outside the session's directory that its verdict consulted and omc-top could not read (VerdictBook
 * unreadIn: the session-less `state/` files every session's hook reads, `~/.omc`'s fallback copies), sorted as its
 * own are: a cancel signal or pending async work can only let the agent stop; a mode's state can change anything.
 */
function sortShared(cannot: SortedRecords['cannotRead'], shared: readonly Unread[], dir: string): void {
  for (let i = 0; i < shared.length; i++) {
    const u = shared[i]!;
    if (u.rel.startsWith(`${dir}/`)) continue; // its own files: sorted with the records
    const file = u.rel.slice(u.rel.lastIndexOf('/') + 1);
    (file === SIGNAL_FILE || isHookInput('state', file) ? cannot.stopOnly : cannot.any).push(u);
  }
}

/**
 * What omc-top could not read of the files a session's verdict depends on: its directory when it cannot be listed,
 * every file that can change any verdict, and those that can only let the agent stop when the verdict blocks.
 */
function cannotReadPaths(
  cannot: SortedRecords['cannotRead'],
  dir: string,
  unlisted: string | null,
  blocks: boolean,
): readonly string[] {
  // Nearly always nothing: one shared empty list, not one kept by each of 10,000 views.
  if (unlisted === null && cannot.any.length === 0 && (!blocks || cannot.stopOnly.length === 0)) return NOTHING;
  const out: string[] = unlisted === null ? [] : [dir];
  for (const r of cannot.any) out.push(r.rel);
  if (blocks) for (const r of cannot.stopOnly) out.push(r.rel);
  return out;
}

/** Why the first of `paths` could not be read: the directory's listing failure, else that file's read failure. */
function firstWhy(paths: readonly string[], cannot: SortedRecords['cannotRead'], unlisted: string | null): string {
  const first = paths[0] ?? '';
  return unlisted ?? [...cannot.any, ...cannot.stopOnly].find((r) => r.rel === first)?.why ?? 'not readable';
}

/** The unknown verdict in words: what could not be read, and why (the first one's failure). */
function cannotReadDetail(paths: readonly string[], why: string): string {
  const first = paths[0] ?? '';
  const more = paths.length > 1 ? ` and ${paths.length - 1} more` : '';
  return `omc-top cannot read ${cleanLine(first)}${more}: ${why}; what OMC's Stop hook, run as the owner, does at the next Stop is unknown`;
}

/** The OMC that runs a session's hooks (its own Claude process's, else the project's), and where it was found. */
function sessionOmc(book: VerdictBook, key: string): SessionView['omc'] {
  return omcViewOf(book.installOf(key));
}

/** An OMC install as the views show it: version, where it was found (cleaned for a terminal) and its rules. */
export function omcViewOf(i: OmcInstall): NonNullable<SessionView['omc']> {
  return {
    version: i.version,
    source: cleanLine(i.source),
    sourceTag: i.sourceTag,
    rules: i.rules,
    exact: i.book.exact,
    assumed: i.assumed,
    differences: i.book.differences,
  };
}

/** The OMCs the sessions' own Claudes run, each version and source kind once (SessionsSnapshot.omcSeen). */
export function omcSeenOf(installs: Iterable<OmcInstall>): NonNullable<SessionView['omc']>[] {
  const seen = new Map<string, NonNullable<SessionView['omc']>>();
  for (const i of installs) {
    const k = `${i.version}\u0000${i.sourceTag}`;
    if (!seen.has(k)) seen.set(k, omcViewOf(i));
  }
  return [...seen.values()];
}

const unreadOf = (rec: FileRec): Unread => ({ rel: rec.rel, why: rec.unreadable ?? 'not readable' });

/** A session's files by what they are: modes, cancel signals, its start and end markers, read problems. */
function sortRecords(recs: FileRec[]): SortedRecords {
  const out: SortedRecords = {
    problems: [],
    skillActive: null,
    started: null,
    ended: null,
    cancels: [],
    modeRecs: [],
    cannotRead: { any: [], stopOnly: [] },
  };
  for (let i = 0; i < recs.length; i++) {
    const rec = recs[i]!;
    const k = rec.place;
    const unread = rec.unreadable !== null && k.scope !== 'ended';
    // Read for the verdict only: not modes, and their troubles are not the user's (unless they hide the verdict).
    if (isHookInput(k.scope, k.file)) {
      if (unread) out.cannotRead.stopOnly.push(unreadOf(rec));
      continue;
    }
    if (rec.problem)
      out.problems.push({
        path: rec.rel,
        message: rec.problem,
        // The file as it is on disk, the same fact for every reader: a process that saw it good before (the monitor,
        // `watch --json`) still shows its last good values, but the file is as broken as a fresh `--json` finds it.
        severity: 'error',
      });
    if (k.scope === 'ended') {
      out.ended = rec.value ?? null;
      continue;
    }
    if (k.file === 'session-started.json') {
      out.started = rec.value ?? null;
      if (unread) out.cannotRead.any.push(unreadOf(rec));
      continue;
    }
    const name = (STATE_FILE_RE.exec(k.file)?.[1] ?? '') as string;
    if (name === 'skill-active') {
      if (k.scope !== 'root') out.skillActive = rec.value ?? null;
      if (unread && k.scope !== 'root') out.cannotRead.stopOnly.push(unreadOf(rec));
      continue;
    }
    if (name === 'cancel-signal') {
      if (rec.value !== undefined) out.cancels.push({ rec, value: rec.value });
      if (unread) out.cannotRead.stopOnly.push(unreadOf(rec));
      continue;
    }
    // A known mode's file omc-top cannot read is still that mode (its row says so), never left out as absent.
    if (rec.value === undefined && !(unread && KNOWN_MODES.has(name))) continue;
    // Unknown *-state.json: a mode only if it looks like one.
    if (!KNOWN_MODES.has(name) && typeof rec.value?.active !== 'boolean') continue;
    out.modeRecs.push({ mode: name, rec });
    if (unread) out.cannotRead.any.push(unreadOf(rec));
  }
  return out;
}

/** When each mode's workflow slot was completed (the skill-active ledger's tombstones). */
function tombstones(skillActive: Record<string, unknown> | null): (mode: string) => number | null {
  const slots = (skillActive?.active_skills ?? null) as Record<string, unknown> | null;
  return (mode) => {
    const slot = slots && typeof slots === 'object' ? (slots[mode] as Record<string, unknown> | undefined) : undefined;
    return slot ? timeMs(slot.completed_at) : null;
  };
}

/**
 * The modes the session's Stop hook reads from the user's `~/.omc/state` copy (OMC 4.15 and 5.5 fall back to it for a
 * loop the session owns when the project holds none): each is a mode of the row like its own files, with that path,
 * so the row, the counts and the status say what the verdict says. Only the files the verdict itself loaded: a
 * session that does not fall back costs a look at its few verdict modes, and nothing is read again.
 */
function homeCopies(
  key: string,
  sv: SessionVerdict,
  book: VerdictBook,
  now: number,
  tombstone: (mode: string) => number | null,
  problems: Problem[],
  next: NextChange,
): ModeView[] {
  let out: ModeView[] | null = null;
  for (const m of sv.modes) {
    if (!m.path.startsWith(GLOBAL_PREFIX)) continue;
    const hook = book.tree.read(m.path);
    const copy: ModeSource = {
      rel: m.path,
      value: isObjectLike(hook) ? hook : undefined,
      hook,
      unreadable: null,
      valueMtimeMs: -1,
      problem: null,
    };
    (out ??= []).push(modeView('session', key, m.mode, copy, now, book, tombstone(m.mode), problems, next));
  }
  return out ?? [];
}

/** What a mode's row is built from: a tracked file of the project, or the `~/.omc` copy the verdict read. */
type ModeSource = Pick<FileRec, 'rel' | 'value' | 'hook' | 'unreadable' | 'valueMtimeMs' | 'problem'>;

/** One mode's row: its registry status, the Stop hook's judgement, progress, owner and prompt. */
function modeView(
  kind: 'session' | 'legacy',
  key: string,
  mode: string,
  rec: ModeSource,
  now: number,
  book: VerdictBook,
  tombstoneAt: number | null,
  problems: Problem[],
  next: NextChange,
  /** The root is away (its words): the file was not read, its last good value is all there is (as if refused). */
  away: string | null = null,
): ModeView {
  // Unreadable here: the last good value's fields, if there ever was one (LastGood's rule), else none.
  const s = rec.value ?? {};
  const unread = rec.unreadable ?? away;
  const rules = book.rulesOf(kind === 'legacy' ? null : (stateOwner(s) ?? key));
  const verdict = modeStatus(mode, s, now, tombstoneAt, rules);
  next.see(verdict.nextChangeAt);
  const judgement =
    unread !== null
      ? cannotReadJudgement(unread)
      : judgeMode(book, kind === 'legacy' ? null : key, mode, rec.rel, rec.hook);
  const typeProblem = wrongTypedFields(mode, s);
  if (typeProblem) problems.push({ path: rec.rel, message: typeProblem, severity: 'warning' });
  const updatedMs = lastUpdateMs(s, rec.valueMtimeMs > 0 ? rec.valueMtimeMs : null);
  if (isFuture(updatedMs, now)) {
    // Shown, not judged: OMC's hooks count a time ahead of the clock as fresh, and so does the verdict. The line
    // goes when the clock reaches it (nextChangeAt); it names the time, not a span that would go out of date.
    problems.push({
      path: rec.rel,
      message: `last update ${isoOrNull(updatedMs) ?? '?'} is in the future, ahead of this clock: clock skew? OMC's Stop hook counts it as fresh`,
      severity: 'warning',
    });
    next.see((updatedMs as number) - FUTURE_SLACK_MS);
  }
  const p = modeProgress(mode, s);
  const owner = stateOwner(s);
  const promptRaw = promptOf(mode, s);
  const parts: Omit<ModeView, 'fields'> = {
    mode: cleanLine(mode),
    path: rec.rel,
    // OMC's registry rule of the version in use: 5.5.0 dropped the retired modes from its registry,
    // so state_list_active no longer lists them.
    active: unread === null && verdict.registryActive && !retiredUnder(mode, rules),
    status: judgement.status,
    enforced: judgement.enforced,
    pausedBy: judgement.pausedBy,
    // The rule's words may quote a session id from the file.
    verdict: { rule: judgement.rule, detail: cleanLine(judgement.detail) },
    // Reasons quote values from the file ("active is …", "phase … is terminal"). A mode retired by the session's
    // release is out of its registry however live the file looks: the reason is the retirement, as the verdict's
    // rule is (a file that says inactive keeps that reason, as its rule `inactive` does).
    reason:
      unread !== null
        ? 'unknown: omc-top cannot read the file'
        : verdict.registryActive && retiredUnder(mode, rules)
          ? retiredReason(mode)
          : cleanLine(verdict.reason),
    iteration: p.iteration,
    max: p.max,
    phase: p.phase === null ? null : truncate(cleanLine(p.phase), 60),
    extras: p.extras.map((e) => truncate(cleanLine(e), 60)),
    startedMs: timeMs(s.started_at),
    updatedMs,
    writtenMs: rec.valueMtimeMs > 0 ? rec.valueMtimeMs : null,
    owner: owner === null ? null : cleanLine(owner),
    stranded: kind === 'session' && owner !== null && owner !== key,
    linked: linkedModes(s),
    retired: RETIRED_IN_55.has(mode),
    retiredForItsBook: retiredUnder(mode, rules),
    prompt: promptRaw === null ? null : truncate(cleanLine(promptRaw), 500),
    problem: rec.problem,
    fieldProblem: typeProblem ?? null,
  };
  return new LazyFieldsMode(parts, s);
}

/** The registry's reason for a mode its release retired (the verdict's rule is then `retired`). */
const retiredReason = (mode: string) =>
  `retired in OMC ${modeSpec(mode).retiredIn ?? '?'}: its registry no longer lists ${mode}`;

/** The signal the hook honours for this session, else the session's own, else the legacy one. */
function cancelView(
  kind: 'session' | 'legacy',
  key: string,
  cancels: SortedRecords['cancels'],
  sv: SessionVerdict | null,
  book: VerdictBook,
  now: number,
  next: NextChange,
): CancelView | null {
  const inForce = sv?.rule === 'cancel-signal' ? (sv.cancels.find((c) => c.inForce) ?? null) : null;
  const shown =
    (inForce && { rel: inForce.path, value: book.tree.read(inForce.path) }) ??
    cancels
      .map(({ rec, value }) => ({ rel: rec.rel, value }))
      .sort((a, b) => (a.rel.includes('/sessions/') ? -1 : 1) - (b.rel.includes('/sessions/') ? -1 : 1))[0] ??
    null;
  if (!shown) return null;
  const v = genericCancelVerdict(shown.value, now);
  const raw = (shown.value ?? {}) as Record<string, unknown>;
  const checked = sv?.cancels.find((c) => c.path === shown.rel) ?? null;
  // The legacy row: the generic rule is what every session's 5.5.0 / 4.15 hook applies to it.
  const rowRules = book.rulesOf(kind === 'legacy' ? null : key);
  const legacyInForce = kind === 'legacy' && rowRules !== '4.4.4' && v.inForce;
  const cancel: CancelView = {
    path: shown.rel,
    mode: str(raw.mode) === null ? null : cleanLine(raw.mode),
    source: str(raw.source) === null ? null : cleanLine(raw.source),
    requestedMs: v.requestedMs,
    expiresMs: v.expiresMs,
    // Not checked by the verdict (the Stop hook lets the agent stop before it reads signals: a payload escape,
    // async work): the signal is still in force for its own 30 s, never "expired" while it is fresh.
    inForce: checked?.inForce ?? (kind === 'legacy' ? legacyInForce : rowRules !== '4.4.4' && v.inForce),
    untilMs:
      checked?.until ??
      (legacyInForce || (kind === 'session' && rowRules !== '4.4.4' && v.inForce) ? v.expiresMs : null),
    targeted: v.targeted,
    reason:
      rowRules === '4.4.4'
        ? "OMC 4.4.4's Stop hook does not read cancel signals: only removing the mode's files ends it"
        : checked
          ? checked.inForce
            ? 'in force: the Stop hook lets the agent stop'
            : checked.reason
          : kind === 'legacy'
            ? `${v.reason} (read by the Stop hook of every session)`
            : sv?.rule === 'async-work' || sv?.rule === 'named-workflow'
              ? `not checked: ${sv.detail}`
              : v.reason,
  };
  if (v.expiresMs !== null) next.see(v.expiresMs);
  if (v.requestedMs !== null) next.see(v.requestedMs + 30_000 + 1);
  return cancel;
}

/**
 * The session's status: its most urgent mode's, or, while a signal it honours is in force, what that signal is
 * doing, read from the disk alone so that every process (this monitor, another one, --json, watch) says the same
 * word. A signal over loops that kept their state is a pause (omc-top's `p`, `cancel --signal-only`: only the
 * signal is written, and the loop goes on once it lapses): paused. A signal whose loops are gone or ended is a
 * cancel's window (OMC's /cancel and omc-top's `c` write the signal first, then remove or deactivate the files
 * beside it): cancelling. Which monitor wrote the signal, and whether it remembers, plays no part.
 */
function sessionStatus(modes: ModeView[], cancel: CancelView | null, now: number): SessionStatus {
  let status: SessionStatus = 'idle';
  // A stranded file is judged for its owner, whose row shows it: this session's hook ignores it.
  for (const m of modes) if (!m.stranded && STATUS_RANK[m.status] < STATUS_RANK[status]) status = m.status;
  // The session-less signal is read by every session's Stop hook: it pauses a session only while the session has a
  // loop its hook would hold (a finished or stale row stays what it is, and in the header's counts).
  const shared = cancel !== null && !cancel.path.startsWith('state/sessions/');
  if (cancel?.inForce && cancel.untilMs !== null && cancel.untilMs > now && (!shared || modes.some(holdsAgent)))
    // Kept: a mode file of this session still there and not ended (a cancel removes it or sets it inactive, which
    // reads finished), whether or not the hook enforces it (a loop without session_id is paused all the same).
    status = modes.some((m) => !m.stranded && m.status !== 'finished') ? 'paused' : 'cancelling';
  return status;
}

/** Attention first, then newest session first, then id: rows only move when their status changes. */
/**
 * What one session adds to the header's counts: running = a loop still running (the Stop hook holds
 * the agent, or will once a pending loop is armed), else stale. A cancelled session whose modes are
 * all gone is not running, even while its cancel signal is still in force.
 */
export function sessionCountOf(s: SessionView): { running: number; stale: number } {
  if (s.modes.some(holdsAgent)) return { running: 1, stale: 0 };
  return { running: 0, stale: s.status === 'stale' ? 1 : 0 };
}

/** How many running loops one session has (the status line's count: feeds/status-line.ts). */
export function loopCountOf(s: SessionView): number {
  let n = 0;
  for (const m of s.modes) if (holdsAgent(m)) n += 1;
  return n;
}

export function compareSessions(a: SessionView, b: SessionView): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.kind !== b.kind) return a.kind === 'legacy' ? 1 : -1;
  const as = a.startedMs ?? -Infinity;
  const bs = b.startedMs ?? -Infinity;
  if (as !== bs) return bs - as;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
