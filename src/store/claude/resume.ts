/**
 * Resuming an orphaned loop: its Claude process is gone, OMC's state still says the loop is on. What OMC would
 * do if Claude came back (the verdict engine's answer for the session's next Stop: continue the loop, or let
 * Claude stop because it is stale, at its max, cancelled…), and `claude --resume <session>` in a new tmux window
 * in the session's directory, with a first prompt so a turn starts and the Stop hook gets its say. The resumed
 * CLI registers a new pid under the same session id; the row follows it (the claude domain prefers the live one).
 * The command carries the flags the session's process ran with (launch-flags.ts: `--plugin-dir` first of all,
 * else a session that loaded OMC from a checkout comes back without it); when omc-top never read that process's
 * command line, every surface says the resumed Claude may not load OMC instead of promising the loop goes on.
 */
import { execFile, spawnSync } from 'node:child_process';
import path from 'node:path';
import { statSync } from '../../io/safe-fs/index.js';
import { cleanLine } from '../../io/sanitize.js';
import type { SessionView } from '../sessions/model.js';
import type { LaunchRecord } from './launch-flags.js';
import type { ProcessView } from './model.js';
import { tmuxLiteral } from '../../io/tmux-literal.js';
import { SYNC_KILL } from '../../io/child-end.js';

/** The first prompt of the resumed session: plain words (a mode's name would be OMC's keyword and restart it). */
export const RESUME_PROMPT = 'Continue where you left off.';

export interface ResumeVerdict {
  continues: boolean;
  text: string;
}

/** What OMC's Stop hook would do at the resumed session's first Stop. */
export function resumeVerdict(s: SessionView): ResumeVerdict {
  const v = s.verdict;
  if (!v) return { continues: false, text: 'no OMC loop state: resuming gives a plain Claude session' };
  if (v.decision === 'block') {
    const m = s.modes.find((x) => x.mode === v.mode);
    const at =
      m?.iteration !== null && m?.iteration !== undefined
        ? ` (iteration ${m.iteration}${m.max ? `/${m.max}` : ''})`
        : '';
    return { continues: true, text: `OMC would continue ${v.mode ?? 'the loop'}${at} at its next Stop` };
  }
  // Not known here: resuming may well continue a loop omc-top cannot see, so it is not offered as a plain session.
  if (v.decision === 'unknown')
    return { continues: true, text: `what OMC would do is unknown: ${cleanLine(v.detail)}` };
  return { continues: false, text: `OMC would let Claude stop: ${cleanLine(v.detail)}` };
}

/**
 * What omc-top knows of how the session loaded OMC: the flags it read off its process while it lived (recorded);
 * none read, but OMC is an enabled plugin that Claude Code loads on its own (plugin); none read and nothing says
 * OMC loads without them (unknown). `config`: `answers.claudeCommand` runs instead of claude, flags and all.
 */
export type ResumeLoad = ({ kind: 'recorded'; flags: readonly string[] } | { kind: 'plugin' } | { kind: 'unknown' }) & {
  config: boolean;
};

export function resumeLoad(
  launch: LaunchRecord | null,
  opts: { claudeCommand?: string; omcSourceTag?: string } = {},
): ResumeLoad {
  const config = Boolean(opts.claudeCommand?.trim());
  if (launch) return { kind: 'recorded', flags: launch.flags, config };
  return { kind: opts.omcSourceTag === 'plugin' ? 'plugin' : 'unknown', config };
}

/** "If resumed: <what OMC would do>", qualified when OMC may not load at all (the same words on every surface). */
export function resumeVerdictLine(v: ResumeVerdict, load: ResumeLoad): string {
  return `${load.kind === 'unknown' ? 'If resumed, and only if OMC loads' : 'If resumed'}: ${v.text}`;
}

/** What the resume carries of the way the session ran, in a line (null: nothing worth saying). */
export function resumeLoadLine(load: ResumeLoad, pid: number | null): string | null {
  const whose = pid !== null ? `its Claude process (pid ${pid})` : 'its Claude process';
  if (load.config)
    return 'answers.claudeCommand (your config) runs instead of claude, without added flags: it decides what the resumed Claude loads.';
  switch (load.kind) {
    case 'recorded':
      if (load.flags.length === 0) return null;
      return `With the flags ${whose} ran with, as omc-top read them while it lived.`;
    case 'plugin':
      return `omc-top never saw the command line of ${whose}: resumed without its flags; OMC loads as an enabled plugin.`;
    case 'unknown':
      return `omc-top never saw the command line of ${whose}: if it loaded OMC with --plugin-dir (or ran with other flags), the resumed Claude runs without them and may not load OMC.`;
  }
}

/** POSIX shell quoting for the window's command line. */
const q = (s: string) => (/^[A-Za-z0-9_/.,:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export type ResumePlan =
  { ok: true; socket: string; cwd: string; command: string; argv: string[] } | { ok: false; reason: string };

export function planResume(
  s: SessionView,
  proc: ProcessView | null,
  opts: { env?: NodeJS.ProcessEnv; claudeCommand?: string; prompt?: string; launch?: LaunchRecord | null } = {},
): ResumePlan {
  if (s.kind !== 'session')
    return { ok: false, reason: 'the session-less (legacy) state has no Claude session to resume' };
  if (proc && proc.status !== 'gone' && proc.status !== 'unknown')
    return { ok: false, reason: `its Claude process (pid ${proc.pid}) is running: nothing to resume` };
  const cwd = proc?.cwd ?? s.cwd;
  if (!cwd || !path.isAbsolute(cwd)) return { ok: false, reason: 'the session records no directory to resume it in' };
  if (!statSync('/', cwd.slice(1))?.isDirectory()) return { ok: false, reason: `its directory ${cwd} is gone` };
  const env = opts.env ?? process.env;
  if (!env.TMUX) return { ok: false, reason: 'not in tmux: run omc-top inside tmux to resume in a new window' };
  const socket = env.TMUX.split(',')[0] as string;
  const own = opts.claudeCommand?.trim();
  // The carried flags go before --resume: a list option (--allowedTools a b) would take the prompt for a value.
  const claude = own || ['claude', ...(opts.launch?.flags ?? []).map(q)].join(' ');
  const command = `${claude} --resume ${q(s.id)} ${q(opts.prompt ?? RESUME_PROMPT)}`;
  const name = `resume-${s.id.slice(0, 8)}`;
  return {
    ok: true,
    socket,
    cwd,
    command,
    // -c and -n are formats to tmux (a `#(…)` in a directory name would run): given as literal text.
    argv: [
      '-S',
      socket,
      'new-window',
      '-P',
      '-F',
      '#{window_id} #{pane_id}',
      '-c',
      tmuxLiteral(cwd),
      '-n',
      tmuxLiteral(name),
      command,
      // In the same command list, so before the command can end: a command that fails (claude not found, a session
      // it cannot resume) leaves its pane dead instead of closing the window, and its exit status and last words can
      // be read (resumeWindowEnd). One that ends well closes its window as any other.
      ';',
      'set-option',
      '-w',
      'remain-on-exit',
      'failed',
    ],
  };
}

export function executeResume(plan: ResumePlan): {
  ok: boolean;
  message: string;
  window: string | null;
  pane: string | null;
} {
  if (!plan.ok) return { ok: false, message: plan.reason, window: null, pane: null };
  const r = spawnSync('tmux', plan.argv, { encoding: 'utf8', timeout: 5000, killSignal: SYNC_KILL });
  const [win, pane] = (r.stdout ?? '').trim().split(' ');
  // The window's ids printed: it opened, even if a tmux too old for remain-on-exit "failed" refused the option.
  if (!win?.startsWith('@') || !pane?.startsWith('%'))
    return {
      ok: false,
      message: `tmux said: ${cleanLine((r.stderr ?? '').trim()) || `exit ${r.status}`}`,
      window: null,
      pane: null,
    };
  return {
    ok: true,
    message: `resuming in tmux window ${win} (${cleanLine(plan.command)}); the row follows the new process`,
    window: win,
    pane,
  };
}

/** How a resume's window ended: the command's exit status (null: not known) and the last line it wrote. */
export interface ResumeWindowEnd {
  status: number | null;
  lastLine: string | null;
}

/** How long one look at the window may take (tmux answers in milliseconds; a stuck server is not waited for). */
const LOOK_MS = 3000;

/** One tmux command on the resume's server, without blocking, bounded; `done(null)` when it failed or timed out. */
function tmuxOnce(socket: string, args: string[], done: (out: string | null, err: string) => void): void {
  try {
    execFile(
      'tmux',
      ['-S', socket, ...args],
      { encoding: 'utf8', timeout: LOOK_MS, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 },
      (e, stdout, stderr) => done(e ? null : stdout, `${stderr ?? ''}`),
    );
  } catch (e) {
    done(null, String(e));
  }
}

/**
 * Looks once at the resume's pane: `done(null)` while its command runs (or when tmux could not be asked); its end
 * otherwise. A failed command's pane stays (remain-on-exit failed): its status and last line are read, then its
 * window is closed, so nothing points the user to a window that only says "Pane is dead". A pane tmux no longer
 * knows (its command ended well, or the user closed it; the server gone) ended with a status not known. tmux can
 * mark a pane dead before it has read the command's last words from the pty, or before its exit status is known: a
 * dead pane missing either is left for the next look (`seen`), once, before it is taken as it is.
 */
export function resumeWindowEnd(
  socket: string,
  pane: string,
  /** The watch's own memory across its looks: whether this dead pane was already left for one more look. */
  seen: { lookedAgain: boolean },
  done: (end: ResumeWindowEnd | null) => void,
): void {
  tmuxOnce(socket, ['list-panes', '-t', pane, '-F', '#{pane_dead} #{pane_dead_status}'], (out, err) => {
    if (out === null) {
      done(/can't find|no server running|error connecting/i.test(err) ? { status: null, lastLine: null } : null);
      return;
    }
    const [dead, status] = out.trim().split(' ');
    if (dead !== '1') {
      done(null);
      return;
    }
    // From the history's start too: a new window is resized as it opens, and its first lines may be above the screen.
    tmuxOnce(socket, ['capture-pane', '-p', '-J', '-S', '-200', '-t', pane], (text) => {
      const lines = (text ?? '').split('\n').map((l) => cleanLine(l).trim());
      const said = lines.filter((l) => l !== '' && !/^Pane is dead/.test(l));
      // Dead before tmux has it all: no words yet, or no exit status yet (both seen in runs on a loaded machine).
      const whole = said.length > 0 && status !== undefined && /^\d+$/.test(status);
      if (!whole && !seen.lookedAgain) {
        seen.lookedAgain = true;
        done(null);
        return;
      }
      tmuxOnce(socket, ['kill-window', '-t', pane], () =>
        done({ status: status && /^\d+$/.test(status) ? Number(status) : null, lastLine: said.at(-1) ?? null }),
      );
    });
  });
}

/**
 * Once its Claude registered, the resume's window is one like any other: its pane closes when the command ends,
 * however it ends (remain-on-exit was only there to read a failed start). Not waited for; a failure changes nothing.
 */
export function releaseResumeWindow(socket: string, pane: string): void {
  tmuxOnce(socket, ['set-option', '-w', '-u', '-t', pane, 'remain-on-exit'], () => undefined);
}

/** "exit 127: claude not found?": the status in words, with what a shell's own codes usually mean. */
export function exitWords(status: number | null, command: string): string {
  if (status === null) return 'it ended';
  const program = command.trim().split(/\s+/)[0] ?? 'the command';
  if (status === 127) return `exit 127: ${program} not found?`;
  if (status === 126) return `exit 126: ${program} not executable?`;
  return `exit ${status}`;
}
