/**
 * r on a session whose Claude process is gone: what OMC would do if it were resumed (the verdict engine), then,
 * once confirmed, `claude --resume <session>` in a new tmux window in the session's directory. Resumed ✓ is said
 * when the new process registers under the session's id (the row then follows it); a window that closes before that
 * (claude not found, a session it cannot resume) is said at once, with its exit status and last line.
 */
import { processStateWords } from './process-words.js';
import { loadConfig } from '../../config/config-file.js';
import { activeLoop } from '../../store/claude/attention.js';
import { cleanLine } from '../../io/sanitize.js';
import {
  executeResume,
  exitWords,
  planResume,
  releaseResumeWindow,
  resumeWindowEnd,
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
/** How often the window is looked at meanwhile (one tmux call, not blocking). */
export const RESUME_LOOK_MS = 1_000;

/** Why r does nothing for this session now, or null. */
export function resumeUnavailable(store: OmcStore, s: SessionView): string | null {
  if (s.kind !== 'session') return 'the session-less (legacy) state has no Claude session to resume';
  const p = store.claude.getSnapshot().bySession.get(s.id)?.process ?? null;
  if (p && p.status !== 'gone')
    return `its Claude process (pid ${p.pid}) ${processStateWords(p.status)}: nothing to resume`;
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
      watchResume(store, app, s.id, proc?.pid ?? null, { socket: plan.socket, command: plan.command, ...r });
    },
  });
}

/**
 * Follows a resume until its Claude registers (✓), its window closes first (✗ at once, with its exit status and the
 * last line it wrote: the window is gone, so it is not pointed to), or RESUME_WATCH_MS pass with the window open and
 * no registration (✗, pointing to that window, which is still there).
 */
function watchResume(
  store: OmcStore,
  app: AppActions,
  sid: string,
  old: number | null,
  w: { socket: string; command: string; window: string | null; pane: string | null },
): void {
  const short = sid.slice(0, 8);
  let done = false;
  let unsubscribe: () => void = () => undefined;
  const finish = (text: string, tone: 'success' | 'error') => {
    if (done) return;
    done = true;
    unsubscribe();
    clearTimeout(limit);
    clearInterval(looks);
    app.flash(text, tone);
  };
  const registered = (): boolean => {
    const p = store.claude.getSnapshot().bySession.get(sid)?.process;
    if (!p || p.pid === old || p.status === 'gone') return false;
    finish(`resumed: pid ${p.pid} registered for session ${short} (the row follows it)`, 'success');
    if (w.pane !== null) releaseResumeWindow(w.socket, w.pane);
    return true;
  };
  const closed = (end: { status: number | null; lastLine: string | null }) => {
    // A Claude that registered and then ended is a resume that worked: the registry says so first.
    if (done || registered()) return;
    const said = end.lastLine ? `; it said: ${end.lastLine}` : '';
    finish(
      `resume: the window closed (${exitWords(end.status, w.command)}) before a Claude process registered for ${short}; it ran: ${cleanLine(w.command)}${said}`,
      'error',
    );
  };
  // Past the limit, the next look that finds the window open says so: a window that closed meanwhile is said as
  // closed, never pointed to.
  let expired = false;
  let looking = false;
  const seen = { lookedAgain: false };
  const look = () => {
    if (looking || done) return;
    if (w.pane === null) {
      if (expired) finish(timedOut(short, null), 'error');
      return;
    }
    looking = true;
    const leftBefore = seen.lookedAgain;
    resumeWindowEnd(w.socket, w.pane, seen, (end) => {
      looking = false;
      if (end) closed(end);
      // A dead pane left for one more look is not a window to point to: the next look says how it ended.
      else if (expired && seen.lookedAgain === leftBefore) finish(timedOut(short, w.window), 'error');
    });
  };
  const looks = setInterval(look, RESUME_LOOK_MS);
  looks.unref?.();
  const limit = setTimeout(() => {
    expired = true;
    look();
  }, RESUME_WATCH_MS);
  limit.unref?.();
  unsubscribe = store.claude.subscribe(() => void registered());
}

/** The words of a resume whose window is still open at the limit, pointing to that window. */
const timedOut = (short: string, window: string | null): string =>
  `resume: no new Claude process registered for ${short} within 2 min (see its window${window ? ` ${window}` : ''})`;
