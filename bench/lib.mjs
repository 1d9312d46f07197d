// Shared pieces of the benchmarks: trees, a monitor in a real pty, /proc readings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { spawn } from '@lydell/node-pty';
import xterm from '@xterm/headless';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(REPO, 'dist', 'omc-top.mjs');
export const now = () => performance.timeOrigin + performance.now();
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * omc-top keeps its own samples of live loops (and the permission bridge) in $XDG_STATE_HOME/omc-top. A bench's
 * starts are not the user's: every bench that loads this file gives them a state directory of its own, removed at
 * exit, unless the caller set one (a bench used to leave hundreds of sample files, and the temp files of starts it
 * killed mid-write, in the user's ~/.local/state/omc-top).
 */
if (!process.env.XDG_STATE_HOME) {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bench-state-'));
  process.env.XDG_STATE_HOME = state;
  process.on('exit', () => fs.rmSync(state, { recursive: true, force: true }));
}
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** A copy of `xs` in a random order (Fisher–Yates): the arms take their changes in a shuffled turn. */
export function shuffled(xs) {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

export function pct(values, p) {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function machine() {
  const cpus = os.cpus();
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpu: `${cpus.length} × ${cpus[0]?.model ?? 'unknown'}`,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    kernel: os.release(),
    loadavg: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}

/** OMC's write: temp file in the same dir, then rename over the target. */
export function omcWrite(file, value) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp.${randomUUID()}`);
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * OMC's write for a latency clock: the temp file written and fsynced first, then the rename. Returns when the
 * rename returned (`landed`, the moment a watcher can see the new file) and how long the rename took, so a bench's
 * own disk time stays out of what it measures.
 */
export function omcWriteLanded(file, value, tag = randomUUID()) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp.${tag}`);
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify(value, null, 2));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const before = now();
  fs.renameSync(tmp, file);
  const landed = now();
  return { landed, renameMs: landed - before };
}

/** The real-OMC 200-session load tree from the fixtures. */
export function tree200() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bench-200-'));
  execFileSync('tar', ['-xzf', path.join(REPO, 'test', 'fixtures', 'real-omc', 'large-tree.tar.gz'), '-C', dir]);
  return { root: path.join(dir, '.omc'), cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A generated tree of `n` sessions, each with OMC-shaped ralph + ultrawork state (≈1 KB each). */
// `spacingMs`: how far apart the sessions' timestamps are (1 s by default: at 10,000 sessions the oldest are past
// OMC's 2 h stale line and one crosses it every second; idle.mjs --no-crossing packs them closer).
export function generatedTree(n, { spacingMs = 1000 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `omc-top-bench-${n}-`));
  const root = path.join(dir, '.omc');
  const t = Date.now() - 10 * 60_000; // fresh for OMC's 2 h rule, but ages already minute-granular
  for (let i = 0; i < n; i++) {
    const sid = randomUUID();
    const sd = path.join(root, 'state', 'sessions', sid);
    fs.mkdirSync(sd, { recursive: true });
    const iso = new Date(t - i * spacingMs).toISOString();
    fs.writeFileSync(
      path.join(sd, 'ralph-state.json'),
      JSON.stringify(
        {
          active: true,
          iteration: 1 + (i % 9),
          max_iterations: 10,
          started_at: iso,
          last_checked_at: iso,
          prompt:
            `ralph: benchmark task number ${i} — make the checkout flow e2e tests pass and keep the bundle under budget`.padEnd(
              230,
              '.',
            ),
          session_id: sid,
          project_path: dir,
          linked_ultrawork: true,
        },
        null,
        2,
      ),
    );
    fs.writeFileSync(
      path.join(sd, 'ultrawork-state.json'),
      JSON.stringify(
        {
          active: true,
          started_at: iso,
          original_prompt: 'ulw',
          session_id: sid,
          project_path: dir,
          reinforcement_count: i % 7,
          last_checked_at: iso,
        },
        null,
        2,
      ),
    );
  }
  return { root, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * CPU time of a process in ms, to the nanosecond: the sum of its threads' time on a CPU (/proc/<pid>/task/<tid>/
 * schedstat). /proc/<pid>/stat counts in 10 ms ticks, too coarse for an idle process (5 ticks a minute); a thread
 * that ended within the window takes its time with it, which in an idle window is none.
 */
export function cpuMs(pid) {
  let ns = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return ns / 1e6;
}

export function procStats(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) / CLK_TCK) * 1000;
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  let watches = 0;
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fdinfo`)) {
      try {
        watches += (fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8').match(/inotify wd:/g) ?? []).length;
      } catch {
        /* fd closed meanwhile */
      }
    }
  } catch {
    /* no fdinfo */
  }
  return { cpuMs, rssMb: rssKb / 1024, watches };
}

/**
 * omc-top (the bundle) in a real pseudo-terminal. Every output chunk is kept
 * with its arrival time, and a headless xterm keeps the screen.
 */
/**
 * The arrival of the output (chunks `{ t, d }` in arrival order, `t` stamped in the pty's data event) from chunk
 * `fromChunk` on that first contains `needle`: that chunk's stamp, the index after it and the bytes read; null after
 * `timeoutMs`.
 */
export async function outputArrival(chunks, needle, fromChunk, timeoutMs = 10_000) {
  const deadline = now() + timeoutMs;
  let acc = '';
  let i = fromChunk;
  for (;;) {
    for (; i < chunks.length; i++) {
      acc += chunks[i].d;
      if (acc.includes(needle)) return { t: chunks[i].t, index: i + 1, bytes: acc.length };
    }
    if (now() > deadline) return null;
    await sleep(1);
  }
}

export function startMonitor({ args, cols, rows, env = {}, nodeArgs = [], wrap = [], bin = BIN, cwd = REPO }) {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
  const childEnv = { ...process.env, TERM: 'xterm-256color', ...env };
  delete childEnv.CI;
  const spawnedAt = now();
  // `wrap`: a command that execs node (e.g. nsenter into a network namespace), so the pid stays omc-top's.
  const argv = [...nodeArgs, bin, ...args];
  const pty = spawn(wrap[0] ?? process.execPath, wrap.length ? [...wrap.slice(1), process.execPath, ...argv] : argv, {
    name: 'xterm-256color',
    cols,
    rows,
    // omc-top takes the project directory (where Claude Code's transcripts are looked for) from its cwd.
    cwd,
    env: childEnv,
  });
  const chunks = [];
  let pending = Promise.resolve();
  pty.onData((d) => {
    chunks.push({ t: now(), d });
    pending = pending.then(() => new Promise((r) => term.write(d, r)));
  });
  let exited = false;
  pty.onExit(() => {
    exited = true;
  });
  const screen = () => {
    const b = term.buffer.active;
    const out = [];
    for (let i = 0; i < rows; i++) out.push(b.getLine(i)?.translateToString(true) ?? '');
    return out.join('\n');
  };
  return {
    pty,
    pid: pty.pid,
    spawnedAt,
    chunks,
    screen,
    settle: () => pending,
    get exited() {
      return exited;
    },
    /** First time (ms since `from`) the output after index `fromChunk` contains `needle`. */
    waitOutput: (needle, fromChunk, timeoutMs = 10_000) => outputArrival(chunks, needle, fromChunk, timeoutMs),
    /**
     * When the bytes that made the screen match `re` arrived: the chunks so far replayed into a fresh terminal of
     * the same size, one at a time, the first whose screen matches giving its arrival stamp. waitScreen's own time
     * also counts this process's polling (every 5 ms) and its terminal's parsing of the frame (more cells at
     * 200x60), which are the measuring side's costs, not the monitor's. Null when no chunk so far matches.
     */
    async arrivedWhen(re) {
      const replay = new xterm.Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
      const shown = () => {
        const b = replay.buffer.active;
        const out = [];
        for (let i = 0; i < rows; i++) out.push(b.getLine(i)?.translateToString(true) ?? '');
        return out.join('\n');
      };
      try {
        for (const c of [...chunks]) {
          await new Promise((r) => replay.write(c.d, r));
          if (re.test(shown())) return c.t;
        }
        return null;
      } finally {
        replay.dispose();
      }
    },
    async waitScreen(re, timeoutMs = 15_000) {
      const deadline = now() + timeoutMs;
      for (;;) {
        await pending;
        if (re.test(screen())) return now();
        if (now() > deadline) throw new Error(`screen never matched ${re}\n${screen()}`);
        await sleep(5);
      }
    },
    kill() {
      try {
        pty.kill('SIGTERM');
      } catch {
        /* gone */
      }
      term.dispose();
    },
  };
}
