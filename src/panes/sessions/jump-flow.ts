/**
 * J: switch the tmux client to the pane of the Claude process behind a
 * session (or a team worker). The plan (src/store/claude/jump.ts) checks the
 * registry's tmux field against the pane's terminal, else finds the pane by
 * the process's terminal; when it cannot work the message says why.
 */
import { executeJump, planJump } from '../../store/claude/jump.js';
import type { ProcessView } from '../../store/claude/model.js';
import { answeredPid } from '../../store/claude/join-words.js';
import type { AppActions } from '../../kit/pane.js';

export function jumpTo(
  app: AppActions,
  what: string,
  p: ProcessView | null,
  env: NodeJS.ProcessEnv = process.env,
): void {
  if (!p) {
    app.flash(`jump: no Claude process is registered for ${what} (older CLI, SDK session, or it exited)`, 'error');
    return;
  }
  const plan = planJump(p, env);
  if (!plan.ok) {
    app.flash(`jump: ${plan.reason}`, 'error');
    return;
  }
  const err = executeJump(plan);
  if (err) app.flash(`jump: ${err}`, 'error');
  else if (plan.via === 'pane-left')
    app.flash(
      `jumped to tmux pane ${plan.pane} (${what}): its Claude process (pid ${p.pid}) ${p.status === 'gone' ? 'is gone' : 'exited'}; the pane is where it ran`,
      'success',
    );
  else app.flash(`jumped to tmux pane ${plan.pane} (${what}, ${answeredPid(p)}, found via ${plan.via})`, 'success');
}
