/** Doctor checks about the machine rather than the project: Node.js, tmux, the terminal. */
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

export function tmuxCheck(env: NodeJS.ProcessEnv): DoctorCheck {
  const inside = typeof env.TMUX === 'string' && env.TMUX !== '';
  const bin = onPath(env, 'tmux');
  return {
    id: 'tmux',
    title: 'tmux',
    status: 'info',
    summary: inside
      ? `inside tmux${env.TMUX_PANE ? ` (pane ${env.TMUX_PANE})` : ''}`
      : `not inside tmux${bin ? `; tmux is at ${bin}` : '; tmux is not on the PATH'}`,
    details: [],
    data: { inside, pane: env.TMUX_PANE ?? null, binary: bin },
  };
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
    ? 'no colour (NO_COLOR is set)'
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
