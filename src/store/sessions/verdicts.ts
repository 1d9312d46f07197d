/**
 * Statuses from the verdict engine: what the Stop hook of the OMC version running this
 * project's hooks will do with each mode file, in words. One mode file can matter to a session
 * other than the row it sits in (a copy in another session's directory, session-less state), so
 * each file is judged by the verdict of the session whose hook would read it.
 */
import path from 'node:path';
import type { RulesVersion } from '../omc-install.js';
import type { HookTree, SessionVerdict } from '../verdict/index.js';
import { stopVerdict } from '../verdict/index.js';
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
}

/** Verdicts of one publish, computed on demand and shared by every row that needs them. */
export class VerdictBook {
  private readonly memo = new Map<string, SessionVerdict>();
  readonly tree: HookTree;

  constructor(
    private readonly recs: FileRecords,
    readonly rules: RulesVersion,
    private readonly projectDir: string,
    private readonly now: number,
  ) {
    this.tree = {
      read: (rel) => recs.files.get(rel)?.hook ?? null,
      findOwnedCopy: (file, sid) => recs.ownedCopy(file, sid),
    };
  }

  /** The hook runs in the session's cwd (session-started.json), else the project directory. */
  cwdOf(sid: string): string {
    const started = this.recs.files.get(`state/sessions/${sid}/session-started.json`)?.hook as
      Record<string, unknown> | null | undefined;
    const cwd = started?.cwd;
    return typeof cwd === 'string' && path.isAbsolute(cwd) ? cwd : this.projectDir;
  }

  of(sid: string): SessionVerdict {
    let v = this.memo.get(sid);
    if (!v) {
      v = stopVerdict(this.tree, { rules: this.rules, sessionId: sid, cwd: this.cwdOf(sid), now: this.now });
      this.memo.set(sid, v);
    }
    return v;
  }
}

const FINISHED_RULES = new Set(['inactive', 'terminal', 'tombstoned', 'absent']);

function statusOf(enforced: boolean, rule: string): ModeStatus {
  if (enforced) return 'enforced';
  if (rule === 'awaiting-confirmation') return 'pending';
  if (rule === 'stale') return 'stale';
  if (FINISHED_RULES.has(rule)) return 'finished';
  return 'not-enforced';
}

const judged = (enforced: boolean, rule: string, detail: string): ModeJudgement => ({
  status: statusOf(enforced, rule),
  enforced,
  rule,
  detail,
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
  if (!spec.readBy[book.rules]) {
    if (!obj.active) return judged(false, 'inactive', 'not active');
    return spec.retiredIn !== null && book.rules >= spec.retiredIn
      ? judged(false, 'retired', `retired in ${spec.retiredIn}: the Stop hook does not read it`)
      : judged(false, 'not-read', `OMC ${book.rules}'s Stop hook does not enforce ${mode}`);
  }
  const named = typeof obj.session_id === 'string' && isValidSessionId(obj.session_id) ? obj.session_id : null;
  const owner = rowKey === null ? named : named !== null && named !== rowKey ? named : rowKey;
  if (owner === null) {
    return judged(
      false,
      'session-less',
      book.rules === '4.4.4'
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
        : `${forOther}the Stop hook does not read this copy (${book.rules === '4.4.4' ? "4.4.4 reads only the session's own directory" : 'the session has its own file'})`,
    );
  }
  return judged(mv.enforced, mv.rule, forOther + mv.detail);
}
