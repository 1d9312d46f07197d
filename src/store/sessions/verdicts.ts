/**
 * Statuses from the verdict engine: what the Stop hook of the OMC version running this
 * project's hooks will do with each mode file, in words. One mode file can matter to a session
 * other than the row it sits in (a copy in another session's directory, session-less state), so
 * each file is judged by the verdict of the session whose hook would read it.
 */
import path from 'node:path';
import { blockingInstall, type OmcInstall } from '../omc-install.js';
import type { HardMax, HookContext, HookTree, RulesVersion, SessionVerdict, StopFacts } from '../verdict/index.js';
import { GLOBAL_PREFIX, RULE_BOOKS, STOP_HOOK_OFF_RULE, stopVerdict } from '../verdict/index.js';
import type { FileRecords } from './file-records.js';
import { modeSpec } from './modes.js';
import type { ModeStatus } from './omc-rules.js';
import { isValidSessionId } from './omc-rules.js';
import { isObjectLike } from '../../io/json.js';

export interface ModeJudgement {
  status: ModeStatus;
  enforced: boolean;
  rule: string;
  detail: string;
  /** The session-wide rule that lets the agent stop although this mode's gate holds, or null. */
  pausedBy: string | null;
}

/** One book's reading of a session whose OMC version is not known, where the books disagree. */
export interface Reading {
  rules: RulesVersion[];
  decision: 'block' | 'stop';
  mode: string | null;
  rule: string;
}

/** A session's verdict plus, when its OMC version is unknown, every book's reading (worked out when asked for). */
export type BookVerdict = SessionVerdict & { readings: LaterReadings | null };

/**
 * Every book's reading of a session whose OMC version is not known, worked out on first use. Only the detail
 * view and --json show them; evaluating the two other books for every session at each publish was a third of
 * the verdicts' start-up CPU (2,000 loops of an unknown version). Asked for, all three books are evaluated
 * together on the files as they are then, at the publish's clock, so the readings agree with each other; a
 * file that changed since is already marking this session for the next publish, which brings a new view.
 * Holds the publish's hook tree and the session's inputs, not the publish's verdicts.
 */
export class LaterReadings {
  #judge: ((rules: RulesVersion) => SessionVerdict) | null;
  #value: Reading[] | null | undefined = undefined;

  constructor(judge: (rules: RulesVersion) => SessionVerdict) {
    this.#judge = judge;
  }

  /** The books' decisions, grouped; null when they all agree. */
  get value(): Reading[] | null {
    if (this.#value === undefined && this.#judge) {
      this.#value = groupReadings(RULE_BOOKS.map(this.#judge));
      this.#judge = null;
    }
    return this.#value ?? null;
  }
}

/** Each book's decision, books that agree grouped together; null when all agree. */
function groupReadings(all: readonly SessionVerdict[]): Reading[] | null {
  const out: Reading[] = [];
  for (const v of all) {
    const same = out.find((r) => r.decision === v.decision && r.mode === (v.decision === 'block' ? v.mode : null));
    if (same) same.rules.push(v.rules);
    else
      out.push({
        rules: [v.rules],
        decision: v.decision,
        mode: v.decision === 'block' ? v.mode : null,
        rule: v.rule,
      });
  }
  return out.length > 1 ? out : null;
}

/** One session's Stop under any book, from inputs fixed now (a closure of its own: it keeps no verdict alive). */
function judgeLater(tree: HookTree, ctx: Omit<HookContext, 'rules'>): (rules: RulesVersion) => SessionVerdict {
  return (rules) => stopVerdict(tree, { ...ctx, rules });
}

/**
 * `rel` without its `~/.omc/` prefix, remembered: the global paths the hooks look at are a few fixed names,
 * asked for by every session that has no state of its own (most of them, for most modes).
 */
const globalTails = new Map<string, string>();
function globalTail(rel: string): string {
  let tail = globalTails.get(rel);
  if (tail === undefined) {
    if (globalTails.size >= 256) globalTails.clear();
    globalTails.set(rel, (tail = rel.slice(GLOBAL_PREFIX.length)));
  }
  return tail;
}

/** What the verdicts of one publish need besides the files. */
export interface VerdictInputs {
  /** The OMC whose hooks a session runs (its Claude process's --plugin-dir, else the project's). */
  installOf(sid: string): OmcInstall;
  /** What is known of the session's next Stop payload (its transcript). */
  factsOf(sid: string): StopFacts | undefined;
  /** `~/.omc/<rel>` as the hooks read it (their global fallback), and why omc-top could not read it (or null). */
  readGlobal(rel: string): GlobalRead;
  /**
   * A file of the .omc root outside `state/` that the Stop hook reads (ultragoal/goals.json), as the hooks see it now;
   * absent: read as missing.
   */
  readOther?(rel: string): GlobalRead;
  /** flock is installed (4.15's cancel-signal check needs it). */
  flock: boolean;
  /**
   * Why the environment of session `sid`'s hooks switches OMC's persistent-mode Stop hook off (HookContext.hooksOff),
   * or null: its own Claude's, as each Claude gives its hooks its own environment.
   */
  hooksOffOf?: (sid: string) => string | null;
  /** OMC's hard max for ralph, for session `sid`'s hook started in `cwd` (store/hard-max.ts); absent: none. */
  hardMaxOf?: (cwd: string, sid: string) => HardMax;
  projectDir: string;
  now: number;
}

/** A file under `~/.omc` as the hooks see it, and why omc-top could not read it (permission, I/O), else null. */
export interface GlobalRead {
  value: unknown;
  unreadable: string | null;
}

/** A file the Stop hook reads that omc-top could not (safe-fs notReadHere): where, and the failure's words. */
export interface Unread {
  rel: string;
  why: string;
}

const NO_UNREAD: readonly Unread[] = Object.freeze([]);

/** Verdicts of one publish, computed on demand and shared by every row that needs them. */
export class VerdictBook {
  private readonly memo = new Map<string, BookVerdict>();
  /**
   * The files omc-top could not read that a session's verdict consulted (its own, the session-less `state/` ones,
   * `~/.omc`'s), by session: null to the engine, which is what a missing file is to the hook, so the verdict built
   * on them is not the hook's. Collected while `of` judges; almost always none.
   */
  private readonly unread = new Map<string, readonly Unread[]>();
  private collecting: Unread[] | null = null;
  private readonly scratch: Unread[] = [];
  readonly tree: HookTree;

  constructor(
    private readonly recs: FileRecords,
    private readonly inputs: VerdictInputs,
  ) {
    this.tree = {
      read: (rel) => {
        if (rel.startsWith(GLOBAL_PREFIX)) {
          const g = inputs.readGlobal(globalTail(rel));
          if (g.unreadable !== null) this.collecting?.push({ rel, why: g.unreadable });
          return g.value;
        }
        const rec = recs.files.get(rel);
        if (rec === undefined) {
          if (rel.startsWith('state/') || !inputs.readOther) return null;
          const o = inputs.readOther(rel);
          if (o.unreadable !== null) this.collecting?.push({ rel, why: o.unreadable });
          return o.value;
        }
        const why = rec.unreadable;
        if (why !== null) this.collecting?.push({ rel, why });
        return rec.hook;
      },
      findOwnedCopy: (file, sid) => recs.ownedCopy(file, sid),
    };
  }

  /** What the verdict of `sid` (`of`) consulted and omc-top could not read, each once, in the order read. */
  unreadIn(sid: string): readonly Unread[] {
    return this.unread.get(sid) ?? NO_UNREAD;
  }

  get now(): number {
    return this.inputs.now;
  }

  rulesOf(sid: string | null): RulesVersion {
    return this.installOf(sid).rules;
  }

  /**
   * The OMC that judges `sid`: its own, or, where several OMC plugins are enabled (OmcInstall.alongside), the first
   * whose Stop hook blocks (Claude Code runs them all, and one block holds the agent), else the first named.
   */
  installOf(sid: string | null): OmcInstall {
    const base = this.inputs.installOf(sid ?? '');
    if (sid === null || !base.alongside || base.alongside.length === 0) return base;
    let picked = this.picked.get(sid);
    if (picked === undefined) this.picked.set(sid, (picked = this.pickBlocking(sid, base, base.alongside)));
    return picked;
  }

  private readonly picked = new Map<string, OmcInstall>();

  private pickBlocking(sid: string, base: OmcInstall, others: readonly OmcInstall[]): OmcInstall {
    if (this.judgeOf(sid, base)(base.rules).decision === 'block') return base;
    const other = others.find((o) => o.rules !== base.rules && this.judgeOf(sid, o)(o.rules).decision === 'block');
    return other ? blockingInstall(other, base) : base;
  }

  /**
   * `sid`'s Stop under any book, from the publish's inputs; `install`'s version's known gaps applied (its book's
   * other readings are asked only when no version is known, with none).
   */
  private judgeOf(sid: string, install: OmcInstall): (rules: RulesVersion) => SessionVerdict {
    const cwd = this.cwdOf(sid);
    const hardMax = this.inputs.hardMaxOf?.(cwd, sid);
    const hooksOff = this.inputs.hooksOffOf?.(sid) ?? null;
    return judgeLater(this.tree, {
      sessionId: sid,
      cwd,
      now: this.inputs.now,
      stop: this.inputs.factsOf(sid),
      flock: this.inputs.flock,
      ...(hardMax ? { hardMax } : {}),
      ...(hooksOff ? { hooksOff } : {}),
      ...(install.book.lacks?.length ? { lacks: install.book.lacks } : {}),
    });
  }

  /** The hook runs in the session's cwd (session-started.json), else the project directory. */
  cwdOf(sid: string): string {
    const started = this.recs.files.get(`state/sessions/${sid}/session-started.json`)?.hook as
      Record<string, unknown> | null | undefined;
    const cwd = started?.cwd;
    return typeof cwd === 'string' && path.isAbsolute(cwd) ? cwd : this.inputs.projectDir;
  }

  /**
   * Which copy of `file` session `owner`'s row shows: its own, else the first copy another session's directory holds
   * for it (FileRecords.ownedElsewhere, the rows' rule); null when none.
   */
  ownerRowCopy(file: string, owner: string): string | null {
    const own = `state/sessions/${owner}/${file}`;
    if (this.recs.files.has(own)) return own;
    return this.recs.ownedElsewhere(owner).find((r) => r.place.file === file)?.rel ?? null;
  }

  of(sid: string): BookVerdict {
    let v = this.memo.get(sid);
    if (!v) {
      const install = this.installOf(sid);
      const judge = this.judgeOf(sid, install);
      // The verdict is this call's own: it takes the readings in place of a copy with them. Only this book's
      // reading collects what could not be read: it is the verdict shown (the others are alternatives to it).
      // One scratch list for every session (kept only when something was not read), not one per session.
      const reads = this.scratch;
      reads.length = 0;
      this.collecting = reads;
      let own: BookVerdict;
      try {
        own = judge(install.rules) as BookVerdict;
      } finally {
        this.collecting = null;
      }
      if (reads.length > 0)
        this.unread.set(
          sid,
          reads.filter((r, i) => reads.findIndex((x) => x.rel === r.rel) === i),
        );
      own.readings = install.assumed ? new LaterReadings(judge) : null;
      this.memo.set(sid, (v = own));
    }
    return v;
  }
}

/** The rule of a status omc-top cannot give: a file it depends on could not be read here (--json, scripts). */
export const CANNOT_READ_RULE = 'omc-top-cannot-read';

/** A mode file omc-top could not read (`problem`: why): what the Stop hook, run as its owner, makes of it is unknown. */
export function cannotReadJudgement(problem: string): ModeJudgement {
  return {
    status: 'unreadable',
    enforced: false,
    rule: CANNOT_READ_RULE,
    detail: `omc-top cannot read this file: ${problem}; whether OMC's Stop hook, run as its owner, holds the agent for it is unknown`,
    pausedBy: null,
  };
}

const FINISHED_RULES = new Set(['inactive', 'terminal', 'tombstoned', 'absent']);

function statusOf(enforced: boolean, rule: string, pausedBy: string | null = null): ModeStatus {
  if (enforced) return 'enforced';
  if (pausedBy !== null && pausedBy !== 'not-reached' && pausedBy !== STOP_HOOK_OFF_RULE) return 'paused';
  if (rule === 'awaiting-confirmation') return 'pending';
  if (rule === 'stale') return 'stale';
  if (FINISHED_RULES.has(rule)) return 'finished';
  return 'not-enforced';
}

const judged = (enforced: boolean, rule: string, detail: string, pausedBy: string | null = null): ModeJudgement => ({
  status: statusOf(enforced, rule, pausedBy),
  enforced,
  rule,
  detail,
  pausedBy,
});

/**
 * @param rowKey the session directory the file sits in, or null for session-less state
 * @param value the file as the hook sees it (null when unreadable)
 */
export function judgeMode(
  book: VerdictBook,
  rowKey: string | null,
  mode: string,
  rel: string,
  value: unknown,
): ModeJudgement {
  const spec = modeSpec(mode);
  const obj = isObjectLike(value) ? value : null;
  if (!obj) return judged(false, 'unreadable', 'OMC cannot parse this file: to its hooks it does not exist');
  const named = typeof obj.session_id === 'string' && isValidSessionId(obj.session_id) ? obj.session_id : null;
  const owner = rowKey === null ? named : named !== null && named !== rowKey ? named : rowKey;
  // Another session's file in this session's directory: this session's Stop hook ignores it, and the owner's row
  // judges it. Here it is said plainly whose it is and where it is shown, never the owner's status word.
  if (rowKey !== null && owner !== null && owner !== rowKey) return strandedHere(book, owner, rel);
  const rules = book.rulesOf(owner);
  if (!spec.readBy[rules]) {
    if (!obj.active) return judged(false, 'inactive', 'not active');
    return spec.retiredIn !== null && rules >= spec.retiredIn
      ? judged(false, 'retired', `retired in ${spec.retiredIn}: the Stop hook does not read it`)
      : judged(false, 'not-read', `OMC ${rules}'s Stop hook does not enforce ${mode}`);
  }
  if (owner === null) {
    return judged(
      false,
      'session-less',
      rules === '4.4.4'
        ? "session-less state: 4.4.4's Stop hook never reads it when Claude Code passes a session id"
        : 'session-less state without a session_id: the Stop hook reads it for no session',
    );
  }
  const v = book.of(owner);
  const mv = v.modes.find((m) => m.mode === mode && m.path === rel);
  const forOther = owner !== rowKey ? `for session ${owner}: ` : '';
  if (!mv) {
    const used = v.modes.find((m) => m.mode === mode);
    return judged(
      false,
      'not-this-copy',
      used
        ? `${forOther}the Stop hook reads ${used.path} instead`
        : `${forOther}the Stop hook does not read this copy (${rules === '4.4.4' ? "4.4.4 reads only the session's own directory" : 'the session has its own file'})`,
    );
  }
  return judged(mv.enforced, mv.rule, forOther + mv.detail, mv.pausedBy);
}

/** A file in one session's directory that names another session, `owner`, as the row of the directory shows it. */
function strandedHere(book: VerdictBook, owner: string, rel: string): ModeJudgement {
  const shownAt = book.ownerRowCopy(path.posix.basename(rel), owner);
  const where =
    shownAt === rel
      ? "it is shown, and judged, on that session's row"
      : shownAt !== null
        ? `that session's row shows ${shownAt} instead`
        : "that session's row does not show it";
  return judged(
    false,
    'stranded',
    `this file belongs to session ${owner}: ${where}; this session's Stop hook ignores it`,
  );
}
