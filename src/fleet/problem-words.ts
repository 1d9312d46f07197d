/**
 * What a project's group header says of its problem lines (the lines its own monitor shows under its header: a
 * state file that is not JSON, one omc-top may not read): how many, and the first on a line of its own, so the
 * fleet never shows a project as clean while `omc-top` there lists problems.
 */
import type { Problem } from '../store/types.js';

export interface FleetProblem extends Problem {
  /** The worktree (root label) whose store has it; named when the group has several. */
  root: string;
}

export interface ProblemWords {
  /** The header's note: `2 problems`. */
  note: string;
  /** The line under the header: the first problem as the monitor says it, and where the rest are. */
  detail: string;
  /** error when any is an error (the monitor draws those red), else warn. */
  tone: 'error' | 'warn';
}

export function problemWords(problems: readonly FleetProblem[], nameRoot: boolean): ProblemWords | null {
  const first = problems[0];
  if (first === undefined) return null;
  const n = problems.length;
  const where = nameRoot ? `${first.root}: ` : '';
  const more = n > 1 ? `  (+${n - 1} more: Enter, then ! lists them)` : '';
  return {
    note: `${n} problem${n === 1 ? '' : 's'}`,
    detail: `⚠ ${where}${first.path}: ${first.message}${more}`,
    tone: problems.some((p) => p.severity === 'error') ? 'error' : 'warn',
  };
}
