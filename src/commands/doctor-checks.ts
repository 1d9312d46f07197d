/**
 * `omc-top doctor`: what a user (or a bug report) needs to know when the
 * monitor shows nothing, shows the wrong project, or polls. Each check reads
 * only (every file through fsx.ts) and says ok / warn / broken / info;
 * "broken" means omc-top cannot work as set up, and makes doctor exit 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { findClaudeConfigDir } from '../store/claude/config-dir.js';
import { listDirSync, readTextSync } from '../store/fsx.js';
import { detectOmcInstall } from '../store/omc-install.js';
import { resolveOmcRoot, type RootResolution } from '../store/root.js';
import { watchProbe, type WatchProbe } from './doctor-watch.js';

export type CheckStatus = 'ok' | 'warn' | 'broken' | 'info';

export interface DoctorCheck {
  id: 'node' | 'root' | 'omc' | 'claude' | 'watch' | 'tmux' | 'terminal';
  title: string;
  status: CheckStatus;
  /** One line: the answer. */
  summary: string;
  /** Further lines: candidates, limits, what to do. */
  details: string[];
  data: Record<string, unknown>;
}

export interface DoctorReport {
  ok: boolean;
  omcTop: string;
  checks: DoctorCheck[];
}

export interface TerminalFacts {
  isTTY: boolean;
  columns: number | null;
  rows: number | null;
  colorDepth: number | null;
}

export interface DoctorOptions {
  cwd: string;
  rootOverride?: string;
  env: NodeJS.ProcessEnv;
  poll: boolean;
  version: string;
  nodeVersion: string;
  terminal: TerminalFacts;
  /** Where the kernel's limits are read (/proc); tests point it at a copy. */
  procRoot?: string;
  /** How long to wait for the watcher to settle on a mode. */
  watchTimeoutMs?: number;
}

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

function nodeCheck(nodeVersion: string): DoctorCheck {
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

/**
 * Every place a .omc could be for this user and directory: what the resolution
 * looked at, plus the ones other rules or releases use (./.omc as OMC 4.x did,
 * the project's, $HOME/.omc), so a second tree somewhere else is visible.
 */
function rootCandidates(res: RootResolution, cwd: string, env: NodeJS.ProcessEnv) {
  const extra = [path.join(path.resolve(cwd), '.omc'), path.join(res.projectDir, '.omc')];
  if (env.HOME) extra.push(path.join(env.HOME, '.omc'));
  const all = [...new Set([res.root, ...res.looked, ...extra])];
  return all.map((p) => ({
    path: p,
    exists: isDir(p),
    chosen: p === res.root,
    considered: p === res.root || res.looked.includes(p),
  }));
}

function rootCheck(res: RootResolution, cwd: string, env: NodeJS.ProcessEnv): DoctorCheck {
  const candidates = rootCandidates(res, cwd, env);
  const details = [
    ...candidates
      .filter((c) => !c.chosen && (c.considered || c.exists))
      .map((c) =>
        c.considered ? `also looked at: ${c.path}${c.exists ? ' (exists)' : ''}` : `also exists, not used: ${c.path}`,
      ),
    ...res.notices.map((n) => `note: ${n}`),
  ];
  if (!res.exists)
    details.push('start OMC in this project first, or point omc-top at one with --cwd DIR or --root DIR');
  return {
    id: 'root',
    title: '.omc root',
    status: res.exists ? 'ok' : 'broken',
    summary: `${res.root} (${res.explain})${res.exists ? '' : ': does not exist'}`,
    details,
    data: {
      root: res.root,
      rule: res.rule,
      explain: res.explain,
      exists: res.exists,
      projectDir: res.projectDir,
      candidates,
      notices: res.notices,
    },
  };
}

function omcCheck(env: NodeJS.ProcessEnv, projectDir: string | null): DoctorCheck {
  const omc = detectOmcInstall({ env, projectDir });
  return {
    id: 'omc',
    title: 'OMC install',
    status: omc.assumed ? 'warn' : 'ok',
    summary: omc.version
      ? `oh-my-claudecode ${omc.version} (${omc.source}); reading state with ${omc.rules} rules`
      : `${omc.source}; assuming OMC ${omc.rules} rules`,
    details: omc.candidates.map((c) => `found: ${c.version ?? 'unknown version'} at ${c.path} (${c.source})`),
    data: { ...omc, candidates: [...omc.candidates] },
  };
}

function claudeCheck(env: NodeJS.ProcessEnv): DoctorCheck {
  const cfg = findClaudeConfigDir(env);
  const base = { id: 'claude' as const, title: 'Claude Code config' };
  const data: Record<string, unknown> = { dir: cfg.dir, rule: cfg.rule };
  const top = listDirSync(cfg.dir, '.');
  if (!top.ok) {
    data.error = top.code;
    if (top.code === 'missing') {
      return {
        ...base,
        status: 'warn',
        summary: `${cfg.dir} (${cfg.rule}) does not exist`,
        details: ['Claude Code has not run as this user, or CLAUDE_CONFIG_DIR points somewhere else'],
        data,
      };
    }
    return {
      ...base,
      status: 'broken',
      summary: `${cfg.dir} (${cfg.rule}) cannot be read: ${top.message}`,
      details: ['omc-top cannot see which Claude Code sessions are running'],
      data,
    };
  }
  const reg = listDirSync(cfg.dir, 'sessions');
  if (!reg.ok) {
    data.sessions = { readable: false, error: reg.code };
    const missing = reg.code === 'missing';
    return {
      ...base,
      status: missing ? 'warn' : 'broken',
      summary: `${cfg.dir} (${cfg.rule}); session registry sessions/ ${missing ? 'does not exist' : `cannot be read: ${reg.message}`}`,
      details: missing
        ? ['Claude Code writes sessions/ once a session runs (older releases do not write it)']
        : ['omc-top cannot see which Claude Code sessions are running'],
      data,
    };
  }
  const entries = reg.entries.filter((e) => e.kind === 'file' && e.name.endsWith('.json')).length;
  data.sessions = { readable: true, entries };
  return {
    ...base,
    status: 'ok',
    summary: `${cfg.dir} (${cfg.rule}); session registry readable, ${entries} ${entries === 1 ? 'entry' : 'entries'}`,
    details: [],
    data,
  };
}

/** A /proc/sys number, or null where there is none (not Linux, no such limit). */
function procNumber(procRoot: string, rel: string): number | null {
  const r = readTextSync(procRoot, rel, 64);
  if (!r.ok) return null;
  const n = Number.parseInt(r.text.trim(), 10);
  return Number.isFinite(n) ? n : null;
}

/** The smaller of the global limit and the user namespace's own (Linux ≥ 5.11), where present. */
function limit(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}

function watchCheck(probe: WatchProbe | null, poll: boolean, procRoot: string): DoctorCheck {
  const watches = limit(
    procNumber(procRoot, 'sys/fs/inotify/max_user_watches'),
    procNumber(procRoot, 'sys/user/max_inotify_watches'),
  );
  const instances = limit(
    procNumber(procRoot, 'sys/fs/inotify/max_user_instances'),
    procNumber(procRoot, 'sys/user/max_inotify_instances'),
  );
  const data: Record<string, unknown> = {
    requested: poll ? 'poll' : 'auto',
    mode: probe?.mode ?? null,
    detail: probe?.detail ?? null,
    directories: probe?.directories ?? null,
    maxUserWatches: watches,
    maxUserInstances: instances,
  };
  const details: string[] = [];
  if (watches !== null || instances !== null) {
    details.push(
      `inotify limits (per user, all processes): max_user_watches ${watches ?? 'unknown'}, ` +
        `max_user_instances ${instances ?? 'unknown'}`,
    );
  }
  if (probe) {
    details.push(
      `this tree needs about ${probe.directories} watch${probe.directories === 1 ? '' : 'es'} (one per directory) and 1 instance`,
    );
  }
  if (!probe) {
    return { id: 'watch', title: 'watching', status: 'info', summary: 'no .omc root to watch', details, data };
  }
  let status: CheckStatus = 'ok';
  let summary: string;
  if (probe.mode === 'events') summary = 'file events (inotify)';
  else if (probe.mode === 'polling' && poll) summary = 'polling every second, as --poll asks';
  else if (probe.mode === 'polling') {
    status = 'warn';
    summary = `polling every second: ${probe.detail}`;
  } else {
    status = 'warn';
    summary = `watcher did not settle (${probe.mode}: ${probe.detail})`;
  }
  const tight = watches !== null && probe.directories * 2 > watches;
  if (tight) {
    if (status === 'ok' && !poll) status = 'warn';
    details.push(
      `raise the limit (sudo sysctl fs.inotify.max_user_watches=${Math.max(524288, probe.directories * 4)}) ` +
        'or use --poll',
    );
  }
  return { id: 'watch', title: 'watching', status, summary, details, data };
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

function tmuxCheck(env: NodeJS.ProcessEnv): DoctorCheck {
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

function terminalCheck(t: TerminalFacts, env: NodeJS.ProcessEnv): DoctorCheck {
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

const isDir = (p: string) => {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
};

export async function collectDoctorReport(opts: DoctorOptions): Promise<DoctorReport> {
  const res = resolveOmcRoot({ cwd: opts.cwd, env: opts.env, rootOverride: opts.rootOverride });
  const probe = res.exists ? await watchProbe(res, opts.poll, opts.watchTimeoutMs ?? 30_000) : null;
  const checks = [
    nodeCheck(opts.nodeVersion),
    rootCheck(res, opts.cwd, opts.env),
    omcCheck(opts.env, res.projectDir),
    claudeCheck(opts.env),
    watchCheck(probe, opts.poll, opts.procRoot ?? '/proc'),
    tmuxCheck(opts.env),
    terminalCheck(opts.terminal, opts.env),
  ];
  return { ok: checks.every((c) => c.status !== 'broken'), omcTop: opts.version, checks };
}
