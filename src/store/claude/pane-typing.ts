/**
 * The second choice when a session has no inbox socket: type the note into the tmux pane running Claude, as a
 * user would, then Enter. Only after looking at the pane's prompt line (capture-pane): a half-typed draft there
 * is the user's, and typing after it would send both, so it is refused. The result says "typed into pane":
 * Claude's transcript records it as a typed prompt, not a peer note.
 */
import { spawnSync } from 'node:child_process';
import { cleanLine } from '../../io/sanitize.js';
import { planJump } from './jump.js';
import type { ProcessView } from './model.js';

type Run = (args: string[]) => { status: number | null; stdout: string };

const RULE = /^\s*─{10,}/;
const PROMPT = /^\s*[❯>]\u00a0?\s?(.*)$/;

/**
 * Claude Code's input box as tmux shows it (2.1.332): a rule line, `❯ <text>` (more lines when the draft wraps),
 * a rule line. Returns the draft (empty when nothing is typed), or why the box cannot be seen (a dialog is open).
 */
export function readPromptDraft(screen: string): { ok: true; draft: string } | { ok: false; reason: string } {
  const lines = screen.replace(/\s+$/, '').split('\n');
  for (let end = lines.length - 1; end > 0; end--) {
    if (!RULE.test(lines[end] as string)) continue;
    let start = end - 1;
    while (start >= 0 && !RULE.test(lines[start] as string)) start--;
    if (start < 0) break;
    const box = lines.slice(start + 1, end);
    const first = PROMPT.exec(box[0] ?? '');
    if (!first) break;
    const draft = [first[1] ?? '', ...box.slice(1)]
      .map((l) => l.trim())
      .join(' ')
      .trim();
    return { ok: true, draft };
  }
  return { ok: false, reason: "Claude's prompt line is not on screen in that pane (a dialog may be open)" };
}

export type PanePlan = { ok: true; pane: string; tmux: string[] } | { ok: false; reason: string };

const tmuxRunner =
  (socket: string): Run =>
  (args) => {
    const r = spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', timeout: 3000 });
    return { status: r.status, stdout: r.stdout ?? '' };
  };

export function planPaneTyping(p: ProcessView, env: NodeJS.ProcessEnv = process.env, run?: Run): PanePlan {
  // The real reason first: with its Claude gone, the pane it ran in holds a shell (or nothing), not Claude's prompt.
  if (p.status === 'gone' || p.status === 'exited')
    return {
      ok: false,
      reason: `its Claude process (pid ${p.pid}) ${p.status === 'gone' ? 'is gone' : 'exited'}: there is no Claude to type the note into (r in omc-top resumes the session)`,
    };
  const jump = planJump(p, env, run);
  if (!jump.ok) return { ok: false, reason: jump.reason };
  const socket = (env.TMUX ?? '').split(',')[0] as string;
  const tmux = run ?? tmuxRunner(socket);
  const cap = tmux(['capture-pane', '-p', '-t', jump.pane]);
  if (cap.status !== 0) return { ok: false, reason: `cannot read pane ${jump.pane}` };
  const d = readPromptDraft(cap.stdout);
  if (!d.ok) return { ok: false, reason: d.reason };
  if (d.draft !== '')
    return {
      ok: false,
      reason: `pane ${jump.pane} holds a half-typed draft ("${cleanLine(d.draft).slice(0, 60)}"): not typed, so it is not sent with it`,
    };
  return { ok: true, pane: jump.pane, tmux: ['-S', socket] };
}

/** Types one line (newlines become spaces: Enter would send early) and presses Enter. */
export function typeIntoPane(plan: PanePlan, text: string, run?: Run): { ok: boolean; message: string } {
  if (!plan.ok) return { ok: false, message: plan.reason };
  const socket = plan.tmux[1] as string;
  const tmux = run ?? tmuxRunner(socket);
  const line = cleanLine(text).trim();
  if (line === '') return { ok: false, message: 'the note is empty' };
  const typed = tmux(['send-keys', '-t', plan.pane, '-l', '--', line]);
  if (typed.status !== 0) return { ok: false, message: `tmux could not type into pane ${plan.pane}` };
  const enter = tmux(['send-keys', '-t', plan.pane, 'Enter']);
  if (enter.status !== 0) return { ok: false, message: `typed into pane ${plan.pane}, but Enter could not be sent` };
  return { ok: true, message: `typed into pane ${plan.pane} (as a prompt: Claude's transcript shows it as typed)` };
}
