// The Claude Code side of the demo: a session registry entry (sessions/<pid>.json) and a
// growing transcript (projects/<enc-cwd>/<sid>.jsonl) for the OMC sessions the other modules
// play, in the shapes Claude Code 2.1.332 writes. Each "CLI" is a real idle child process, so
// pid + procStart checks hold; one loop of its own has its CLI killed (the entry stays: a gone
// process, an orphaned loop), one session never gets an entry (unknown), and statuses rotate
// through busy, waiting and idle. A CLI whose loop has finished sits idle a while and then exits
// the way Claude Code does (its registry entry removed), and a loop that went stale never gets
// one, so a demo left running keeps a handful of children, not one per session ever started.
// Writes only inside the demo's own config dir ($CLAUDE_CONFIG_DIR).
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { every } from '../lib.mjs';

export const name = 'claude';

/** The config dir the demo points omc-top at (demo/run.mjs sets CLAUDE_CONFIG_DIR to it). */
export const demoConfigDir = (projectDir) => path.join(projectDir, '.claude-demo');

/** Ticks (~2 s each) a CLI stays idle after its loop ends before the user "closes" it. */
export const IDLE_TICKS_BEFORE_EXIT = 15;
/** OMC's rule: a mode state untouched for 2 h is stale (the laptop slept; nobody is there). */
const STALE_MS = 2 * 3600_000;
const isStale = (state) => {
  const at = Date.parse(state?.last_checked_at ?? state?.started_at ?? '');
  return Number.isFinite(at) && Date.now() - at > STALE_MS;
};

const startTicks = (pid) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
};
const pidDomain = () => {
  try {
    const ns = /\[(\d+)\]/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1];
    return `linux:${fs.readFileSync('/etc/machine-id', 'utf8').trim()}:pid:[${ns}]`;
  } catch {
    return null;
  }
};

export function start(ctx) {
  const cfg = demoConfigDir(ctx.projectDir);
  const enc = ctx.projectDir.replace(/[^a-zA-Z0-9]/g, '-');
  fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
  fs.mkdirSync(path.join(cfg, 'projects', enc), { recursive: true });
  const children = new Set();
  const clis = new Map(); // sid → { pid, status, n, iteration }
  const domain = pidDomain();
  let skipped = false;

  const writeEntry = (sid, c) => {
    const file = path.join(cfg, 'sessions', `${c.pid}.json`);
    const now = Date.now();
    const entry = {
      pid: c.pid,
      sessionId: sid,
      cwd: ctx.projectDir,
      startedAt: c.startedAt,
      procStart: c.procStart,
      version: '2.1.332',
      kind: 'interactive',
      entrypoint: 'cli',
      pidDomain: domain,
      name: `demo-${sid.slice(0, 4)}`,
      status: c.status,
      ...(c.status === 'waiting' ? { waitingFor: 'permission prompt' } : {}),
      updatedAt: now,
      statusUpdatedAt: now,
    };
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(entry));
    fs.renameSync(tmp, file);
  };
  const line = (sid, v) =>
    fs.appendFileSync(
      path.join(cfg, 'projects', enc, `${sid}.jsonl`),
      JSON.stringify({ ...v, sessionId: sid, timestamp: new Date().toISOString(), cwd: ctx.projectDir }) + '\n',
    );
  const turn = (sid, c) => {
    c.n += 1;
    const id = `msg_demo_${sid.slice(0, 6)}_${c.n}`;
    const usage = {
      input_tokens: 900 + c.n * 7,
      output_tokens: 120 + c.n,
      cache_read_input_tokens: 12000 * c.n,
      cache_creation_input_tokens: 300,
    };
    const file = `src/feature-${c.n % 5}.ts`;
    const msg = (content) => ({ id, role: 'assistant', model: 'claude-opus-5-5', content, usage });
    line(sid, { type: 'assistant', message: msg([{ type: 'text', text: `Working on step ${c.n}.` }]) });
    line(sid, {
      type: 'assistant',
      message: msg([
        {
          type: 'tool_use',
          name: c.n % 3 === 0 ? 'Bash' : 'Edit',
          input: c.n % 3 === 0 ? { command: 'npm test' } : { file_path: file },
        },
      ]),
    });
    const failed = c.n % 3 === 0 && c.n % 2 === 0;
    line(sid, {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', content: failed ? 'Exit code 1: 2 tests failed' : 'ok', is_error: failed }],
      },
    });
  };

  const adopt = (sid, state) => {
    if (clis.has(sid) || isStale(state)) return;
    if (!skipped) {
      skipped = true; // one session stays without a CLI entry: "unknown", never a guess
      clis.set(sid, null);
      return;
    }
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    children.add(child);
    const c = {
      child,
      idleTicks: 0,
      pid: child.pid,
      status: 'busy',
      n: 0,
      iteration: state.iteration ?? 1,
      startedAt: Date.now(),
      procStart: null,
    };
    clis.set(sid, c);
    line(sid, { type: 'user', message: { role: 'user', content: state.prompt ?? 'ralph: go' } });
    c.procStart = startTicks(c.pid);
    writeEntry(sid, c);
  };

  // The user closes a finished session (or nobody is there any more): Claude Code exits and
  // removes its own registry entry. The sid stays in `clis` so the session is not adopted again.
  const exit = (sid, c) => {
    c.child.kill('SIGTERM');
    children.delete(c.child);
    fs.rmSync(path.join(cfg, 'sessions', `${c.pid}.json`), { force: true });
    clis.set(sid, { ...c, dead: true, exited: true });
  };

  // An orphaned loop of its own: ralph active in OMC's state, its CLI SIGKILLed (the registry
  // entry stays behind, as Claude Code leaves it). Nothing advances it, as in real life.
  const orphan = () => {
    const sid = ctx.uuid();
    const t = Date.now();
    ctx.writeJson(`state/sessions/${sid}/ralph-state.json`, {
      active: true,
      iteration: 3,
      max_iterations: 10,
      started_at: ctx.iso(t - 600_000),
      last_checked_at: ctx.iso(t),
      prompt: 'ralph: port the billing jobs to the new queue',
      session_id: sid,
      project_path: ctx.projectDir,
    });
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    const c = {
      pid: child.pid,
      status: 'busy',
      n: 0,
      iteration: 3,
      startedAt: t,
      procStart: startTicks(child.pid),
      dead: true,
    };
    clis.set(sid, c);
    line(sid, { type: 'user', message: { role: 'user', content: 'ralph: port the billing jobs to the new queue' } });
    turn(sid, c);
    writeEntry(sid, c);
    child.kill('SIGKILL');
  };

  const tick = () => {
    let dirs = [];
    try {
      dirs = fs.readdirSync(path.join(ctx.root, 'state', 'sessions'));
    } catch {
      return;
    }
    for (const sid of dirs) {
      const ralph = ctx.readJson(`state/sessions/${sid}/ralph-state.json`);
      if (ralph?.active === true) adopt(sid, ralph);
      const c = clis.get(sid);
      if (!c || c.dead || c.procStart === null) continue;
      if (ralph && isStale(ralph)) {
        exit(sid, c);
        continue;
      }
      if (ralph && ralph.iteration !== c.iteration && typeof ralph.iteration === 'number') {
        c.iteration = ralph.iteration;
        line(sid, {
          type: 'attachment',
          attachment: {
            type: 'hook_blocking_error',
            hookName: 'Stop',
            blockingError: {
              blockingError: `[RALPH LOOP - ITERATION ${ralph.iteration}/${ralph.max_iterations ?? 10}] Work is NOT done. Continue working.`,
            },
          },
        });
      }
      if (!ralph || ralph.active !== true) {
        if (c.status !== 'idle') {
          c.status = 'idle';
          line(sid, { type: 'system', subtype: 'turn_duration', durationMs: 4000 + c.n * 100 });
          writeEntry(sid, c);
        } else if (++c.idleTicks >= IDLE_TICKS_BEFORE_EXIT) exit(sid, c);
        continue;
      }
      c.idleTicks = 0;
      turn(sid, c);
      const next = c.n % 7 === 0 ? 'waiting' : 'busy';
      if (next !== c.status) {
        c.status = next;
        writeEntry(sid, c);
      }
    }
  };
  orphan();
  tick();
  const stop = every(ctx, 2000, tick);
  return () => {
    stop();
    for (const ch of children) ch.kill('SIGKILL');
  };
}
