/**
 * r on a session whose Claude process is gone: what OMC would do if it were resumed (the verdict engine), then,
 * once confirmed, `claude --resume <session>` in a new tmux window in the session's directory. Resumed ✓ is said
 * when the new process registers under the session's id (the row then follows it).
 */
import { loadConfig } from '../../config/config-file.js';
import { activeLoop } from '../../store/claude/attention.js';
import { cleanLine } from '../../io/sanitize.js';
import {
  executeResume,
  planResume,
  resumeLoad,
  resumeLoadLine,
  resumeVerdict,
  resumeVerdictLine,
  type ResumeLoad,
} from '../../store/claude/resume.js';
import type { SessionView } from '../../store/sessions/model.js';
import type { OmcStore } from '../../store/store.js';
import type { AppActions } from '../../kit/pane.js';

/** How long the new process is waited for before the watch gives up. */
export const RESUME_WATCH_MS = 120_000;

/** Why r does nothing for this session now, or null. */
export function resumeUnavailable(store: OmcStore, s: SessionView): string | null {
  if (s.kind !== 'session') return 'the session-less (legacy) state has no Claude session to resume';
  const p = store.claude.getSnapshot().bySession.get(s.id)?.process ?? null;
  if (p && p.status !== 'gone') return `its Claude process (pid ${p.pid}) is ${p.status}: nothing to resume`;
  return null;
}

/** Whether r is worth offering in the footer: the loop's Claude is gone (or never registered while a loop is on). */
export function resumeOffered(store: OmcStore, s: SessionView): boolean {
  if (s.kind !== 'session') return false;
  const p = store.claude.getSnapshot().bySession.get(s.id)?.process ?? null;
  return p ? p.status === 'gone' : activeLoop(s) !== null;
}

/** How the resumed Claude would get what the session loaded (the detail and the dialog say the same). */
export function resumeLoadOf(store: OmcStore, s: SessionView, claudeCommand?: string): ResumeLoad {
  return resumeLoad(store.claude.launchOf(s.id), {
    claudeCommand,
    omcSourceTag: store.sessions.installOf(s.id).sourceTag,
  });
}

export function requestResume(
  store: OmcStore,
  app: AppActions,
  s: SessionView,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const proc = store.claude.getSnapshot().bySession.get(s.id)?.process ?? null;
  const verdict = resumeVerdict(s);
  const claudeCommand = loadConfig().config.answers?.claudeCommand;
  const launch = store.claude.launchOf(s.id);
  const plan = planResume(s, proc, { env, claudeCommand, launch });
  const load = resumeLoadOf(store, s, claudeCommand);
  const loadLine = resumeLoadLine(load, launch?.pid ?? proc?.pid ?? null);
  if (!plan.ok) {
    app.flash(`resume: ${plan.reason}`, 'error');
    return;
  }
  app.confirm({
    id: 'resume',
    title: `Resume session ${s.id.slice(0, 8)} in a new tmux window?`,
    lines: [
      proc ? `Its Claude process (pid ${proc.pid}) is gone.` : 'No Claude process is registered for it.',
      `${resumeVerdictLine(verdict, load)}.`,
      '',
      `In ${plan.cwd}, a new window runs:`,
      `  ${cleanLine(plan.command)}`,
      ...(loadLine ? [loadLine] : []),
      verdict.continues
        ? "The first prompt starts a turn; at its end OMC's Stop hook decides whether the loop goes on."
        : 'Claude answers the first prompt and stops: OMC will not keep it going (see above).',
    ],
    prompt: 'y: resume   n/Esc: not now',
    onConfirm: () => {
      const r = executeResume(plan);
      if (!r.ok) {
        app.flash(`resume: ${r.message}`, 'error');
        return;
      }
      app.flash(r.message, 'info');
      const old = proc?.pid ?? null;
      let stop: () => void = () => undefined;
      const timer = setTimeout(() => {
        stop();
        app.flash(
          `resume: no new Claude process registered for ${s.id.slice(0, 8)} within 2 min (see its window)`,
          'error',
        );
      }, RESUME_WATCH_MS);
      timer.unref?.();
      const check = () => {
        const p = store.claude.getSnapshot().bySession.get(s.id)?.process;
        if (!p || p.pid === old || p.status === 'gone') return;
        stop();
        clearTimeout(timer);
        app.flash(`resumed: pid ${p.pid} registered for session ${s.id.slice(0, 8)} (the row follows it)`, 'success');
      };
      stop = store.claude.subscribe(check);
    },
  });
}
