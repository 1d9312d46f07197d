/** Doctor checks about the machine rather than the project: Node.js, tmux, the terminal. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { DoctorCheck, TerminalFacts } from './doctor-types.js';

/** package.json `engines.node`; test/install checks the two agree. */
export const MIN_NODE = '20.19.0';

const parts = (v: string) =>
  v
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);
function atLeast(v: string, min: string): boolean {
  const a = parts(v);
  const b = parts(min);
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

export function nodeCheck(nodeVersion: string): DoctorCheck {
  const ok = atLeast(nodeVersion, MIN_NODE);
  return {
    id: 'node',
    title: 'Node.js',
    status: ok ? 'ok' : 'broken',
    summary: `${nodeVersion} (omc-top needs ${MIN_NODE} or newer)`,
    details: ok ? [] : ['install Node.js 20.19 or newer'],
    data: { version: nodeVersion, required: `>=${MIN_NODE}` },
  };
}

function onPath(env: NodeJS.ProcessEnv, name: string): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** Runs tmux (against the server omc-top is in, else the default server); null when it could not run. */
export type TmuxRun = (args: string[]) => { status: number | null; stdout: string; stderr: string } | null;

const defaultTmuxRun =
  (env: NodeJS.ProcessEnv): TmuxRun =>
  (args) => {
    const sock = env.TMUX?.split(',')[0];
    const r = spawnSync('tmux', [...(sock ? ['-S', sock] : []), ...args], {
      encoding: 'utf8',
      timeout: 3000,
      env: { ...env },
    });
    if (r.error) return null;
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  };

/** The line that turns passthrough on: for ~/.tmux.conf, and (with `tmux` in front) for the running server. */
export const PASSTHROUGH_FIX = 'set -g allow-passthrough on';

/**
 * tmux 3.3 and newer drop the OSC 9 / OSC 777 a program wraps for the outer terminal unless the pane allows
 * passthrough (default off): desktop notifications from inside tmux then never arrive. The pane's own
 * setting wins over the global one.
 */
function passthrough(env: NodeJS.ProcessEnv, run: TmuxRun): { value: string | null; why: string | null } {
  const pane = env.TMUX_PANE;
  if (pane) {
    const own = run(['show-options', '-pv', '-t', pane, 'allow-passthrough']);
    const v = own?.status === 0 ? own.stdout.trim() : '';
    if (v) return { value: v, why: `pane ${pane}` };
  }
  const g = run(['show-options', '-gv', 'allow-passthrough']);
  if (!g) return { value: null, why: 'tmux could not be run' };
  if (g.status !== 0) {
    const err = g.stderr.trim();
    // tmux before 3.3 has no such option: it passes the wrapped sequence on by default.
    if (/invalid option|unknown option/.test(err)) return { value: 'unsupported', why: null };
    return { value: null, why: err || `tmux exited ${g.status}` };
  }
  return { value: g.stdout.trim() || null, why: 'global' };
}

/**
 * `oscInUse`: the desktop-notification channel is on (config file): with it off, passthrough being off drops
 * nothing omc-top sends, so it is said (for when it is turned on), not warned about.
 */
export function tmuxCheck(env: NodeJS.ProcessEnv, oscInUse: boolean, run: TmuxRun = defaultTmuxRun(env)): DoctorCheck {
  const inside = typeof env.TMUX === 'string' && env.TMUX !== '';
  const bin = onPath(env, 'tmux');
  const where = inside
    ? `inside tmux${env.TMUX_PANE ? ` (pane ${env.TMUX_PANE})` : ''}`
    : `not inside tmux${bin ? `; tmux is at ${bin}` : '; tmux is not on the PATH'}`;
  // Outside tmux the default server (if one runs) is the one omc-top would be started in.
  const pt = bin || inside ? passthrough(env, run) : { value: null, why: null };
  const data = { inside, pane: env.TMUX_PANE ?? null, binary: bin, allowPassthrough: pt.value };
  if (pt.value === 'off' && !oscInUse)
    return {
      id: 'tmux',
      title: 'tmux',
      status: 'info',
      summary: `${where}; allow-passthrough is off, and desktop notifications (the osc channel) are not on: nothing is dropped`,
      details: [`to use the osc channel inside tmux, first add "${PASSTHROUGH_FIX}" to ~/.tmux.conf`],
      data,
    };
  if (pt.value === 'off') {
    // Inside tmux this loses notifications now; outside, only once omc-top runs in that server.
    return {
      id: 'tmux',
      title: 'tmux',
      status: inside ? 'warn' : 'info',
      summary: inside
        ? `${where}; allow-passthrough is off: desktop notifications (OSC 9/777) from omc-top are dropped`
        : `${where}; the running tmux server has allow-passthrough off: desktop notifications from an omc-top inside it would be dropped`,
      details: [
        `turn it on: add "${PASSTHROUGH_FIX}" to ~/.tmux.conf, and run "tmux ${PASSTHROUGH_FIX}" for the server already running`,
        'the bell and the tmux status-line message (notify channel "tmux") still arrive without it',
      ],
      data,
    };
  }
  const note =
    pt.value === 'on' || pt.value === 'all'
      ? `; allow-passthrough is ${pt.value}: desktop notifications reach the outer terminal`
      : pt.value === 'unsupported'
        ? '; this tmux predates allow-passthrough and passes desktop notifications on'
        : '';
  return { id: 'tmux', title: 'tmux', status: 'info', summary: `${where}${note}`, details: [], data };
}

export function terminalCheck(t: TerminalFacts, env: NodeJS.ProcessEnv): DoctorCheck {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const data = {
    isTTY: t.isTTY,
    columns: t.columns,
    rows: t.rows,
    colorDepth: t.colorDepth,
    term: env.TERM ?? null,
    colorterm: env.COLORTERM ?? null,
    noColor,
  };
  const colour = noColor
    ? 'no colour (NO_COLOR is set, --no-color, or a monochrome TERM)'
    : t.colorDepth === null
      ? 'colour unknown'
      : `${2 ** t.colorDepth} colours`;
  if (!t.isTTY) {
    return {
      id: 'terminal',
      title: 'terminal',
      status: 'info',
      summary: `stdout is not a terminal (the monitor needs one; --json does not); ${colour}`,
      details: [],
      data,
    };
  }
  const small = (t.columns ?? 0) < 80 || (t.rows ?? 0) < 24;
  return {
    id: 'terminal',
    title: 'terminal',
    status: small ? 'warn' : 'ok',
    summary: `${t.columns ?? '?'}x${t.rows ?? '?'}, TERM=${env.TERM ?? '(unset)'}, ${colour}`,
    details: small ? ['omc-top is laid out for 80x24 or larger'] : [],
    data,
  };
}
