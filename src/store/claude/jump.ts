/**
 * Jump: switch the user's tmux client to the pane running a session's Claude
 * process. The pane comes from the registry's tmux field (verified against
 * the pane's terminal), or from the process's terminal matched to a pane.
 * When it cannot work the answer says why (not in tmux, another server).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { ProcessView } from './model.js';
import { splitTmuxField } from './tmux-names.js';
import { paneTakenText } from './join-words.js';
import { SYNC_KILL } from '../../io/child-end.js';

export type JumpPlan =
  { ok: true; pane: string; via: 'registry' | 'tty' | 'pane-left'; argv: string[] } | { ok: false; reason: string };

type Run = (args: string[]) => { status: number | null; stdout: string };
const tmuxRunner =
  (socket: string): Run =>
  (args) => {
    const r = spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', timeout: 3000, killSignal: SYNC_KILL });
    return { status: r.status, stdout: r.stdout ?? '' };
  };

/** The terminal a process has on stdin (what tmux reports as #{pane_tty}). */
export function ttyOf(pid: number): string | null {
  for (const fd of [0, 1, 2]) {
    try {
      const t = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (t.startsWith('/dev/pts/') || t.startsWith('/dev/tty')) return t;
    } catch {
      /* no such fd, or not ours to read */
    }
  }
  return null;
}

/**
 * A process that is gone (killed) or exited has no terminal to match, but the pane it ran in may still be
 * open: that is where the user resumes the session. The registry's pane is trusted only when it still sits
 * in the window and session the registry names (pane ids repeat across tmux servers and are reused).
 */
function planLeftPane(p: ProcessView, socket: string, tmux: Run): JumpPlan {
  const dead = p.status === 'gone' ? `pid ${p.pid} is gone` : `pid ${p.pid} exited`;
  const f = p.tmux ? splitTmuxField(p.tmux) : null;
  if (!f) return { ok: false, reason: `${dead} and the registry names no tmux pane: there is no pane to jump to` };
  const r = tmux(['display-message', '-p', '-t', f.pane, '#{session_name}\t#{window_id}']);
  const [session, window] = r.stdout.trim().split('\t');
  if (r.status !== 0 || session !== f.session || window !== f.window)
    return {
      ok: false,
      reason: `${dead} and its pane ${f.pane} (${f.session}:${f.window}) is closed or not on tmux server ${socket}`,
    };
  return { ok: true, pane: f.pane, via: 'pane-left', argv: ['tmux', '-S', socket, 'switch-client', '-t', f.pane] };
}

export function planJump(p: ProcessView, env: NodeJS.ProcessEnv = process.env, run?: Run): JumpPlan {
  // An ended process's pane that another live Claude runs now: jumping there would land in that Claude's prompt.
  const taken = p.status === 'gone' || p.status === 'exited' ? paneTakenText(p) : null;
  if (taken) return { ok: false, reason: taken };
  const tmuxEnv = env.TMUX;
  if (!tmuxEnv) return { ok: false, reason: 'not in tmux: run omc-top inside tmux to jump to a pane' };
  const socket = tmuxEnv.split(',')[0] as string;
  const tmux = run ?? tmuxRunner(socket);
  if (p.status === 'gone' || p.status === 'exited') return planLeftPane(p, socket, tmux);
  const tty = ttyOf(p.pid);
  const argv = (pane: string) => ['tmux', '-S', socket, 'switch-client', '-t', pane];
  const paneId = p.tmux ? (/%\d+$/.exec(p.tmux)?.[0] ?? null) : null;
  if (paneId) {
    const r = tmux(['display-message', '-p', '-t', paneId, '#{pane_tty}']);
    const paneTty = r.stdout.trim();
    if (r.status === 0 && paneTty !== '' && (tty === null || paneTty === tty))
      return { ok: true, pane: paneId, via: 'registry', argv: argv(paneId) };
    // Fall through: the registry's pane belongs to another tmux server (same ids, different panes).
  }
  if (tty === null)
    return {
      ok: false,
      reason: paneId
        ? `pane ${paneId} is on another tmux server (not ${socket})`
        : `pid ${p.pid} has no terminal omc-top can see`,
    };
  const list = tmux(['list-panes', '-a', '-F', '#{pane_id} #{pane_tty}']);
  if (list.status !== 0) return { ok: false, reason: `cannot list the panes of tmux server ${socket}` };
  const hit = list.stdout
    .split('\n')
    .map((l) => l.trim().split(' '))
    .find((f) => f[1] === tty);
  if (hit?.[0]) return { ok: true, pane: hit[0], via: 'tty', argv: argv(hit[0]) };
  return { ok: false, reason: `no pane of tmux server ${socket} shows ${tty}: the session runs in another server` };
}

/** Runs a plan; resolves to an error message or null. */
export function executeJump(plan: JumpPlan): string | null {
  if (!plan.ok) return plan.reason;
  const [cmd, ...args] = plan.argv as [string, ...string[]];
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 3000, killSignal: SYNC_KILL });
  return r.status === 0 ? null : `tmux said: ${(r.stderr ?? '').trim() || `exit ${r.status}`}`;
}
