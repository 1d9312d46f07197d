// Shared helpers for the demo simulator: write files the way OMC does.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';

export function makeContext(root, projectDir) {
  const abs = (rel) => path.join(root, rel);
  /** OMC's atomicWriteFileSync: `.<name>.tmp.<uuid>` in the same dir, 0600, fsync, rename. */
  const writeText = (rel, text) => {
    const file = abs(rel);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp.${randomUUID()}`);
    const fd = fs.openSync(tmp, 'wx', 0o600);
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  };
  return {
    root,
    projectDir,
    abs,
    /** Pretty JSON, 2-space indent, no trailing newline: OMC's atomicWriteJsonSync. */
    writeJson: (rel, value) => writeText(rel, JSON.stringify(value, null, 2)),
    writeText,
    /** One JSON line appended, as OMC 5.6 appends to its run ledger (state/runs/ledger.jsonl). */
    appendJsonLine: (rel, value) => {
      const file = abs(rel);
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.appendFileSync(file, JSON.stringify(value) + '\n', { mode: 0o600 });
    },
    readJson: (rel) => {
      try {
        return JSON.parse(fs.readFileSync(abs(rel), 'utf8'));
      } catch {
        return null;
      }
    },
    exists: (rel) => fs.existsSync(abs(rel)),
    remove: (rel) => fs.rmSync(abs(rel), { recursive: true, force: true }),
    iso: (ms = Date.now()) => new Date(ms).toISOString(),
    uuid: () => randomUUID(),
    /** Deterministic-enough jitter so the demo does not tick in lockstep. */
    jitter: (ms) => Math.round(ms * (0.75 + Math.random() * 0.5)),
  };
}

/** Repeats `fn` with jittered delays until stopped. */
export function every(ctx, ms, fn) {
  let timer = null;
  let stopped = false;
  const loop = () => {
    if (stopped) return;
    try {
      fn();
    } catch (e) {
      // The simulator must never take the demo down; the monitor shows whatever is on disk.
      process.stderr.write(`[demo] ${e?.message ?? e}\n`);
    }
    timer = setTimeout(loop, ctx.jitter(ms));
  };
  timer = setTimeout(loop, ctx.jitter(ms));
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/**
 * True when a fresh cancel signal for the session is in force by OMC's Stop
 * hook rules (the simulated Stop hook then lets the agent stop instead of
 * looping): while the session's autopilot is live only the digest-bound
 * autopilot form counts, otherwise only the generic form does.
 */
export function cancelInForce(ctx, sid) {
  const sig = ctx.readJson(`state/sessions/${sid}/cancel-signal-state.json`);
  if (!sig || sig.active !== true || typeof sig.requested_at !== 'string') return false;
  const req = Date.parse(sig.requested_at);
  const exp = typeof sig.expires_at === 'string' ? Date.parse(sig.expires_at) : req + 30_000;
  const now = Date.now();
  if (!(now - req <= 30_000 && req <= now + 5_000 && exp > now && exp - req <= 30_000)) return false;
  const ap = ctx.readJson(`state/sessions/${sid}/autopilot-state.json`);
  const apLive = ap && ap.active === true && ap.session_id === sid && (ap.phase ?? ap.current_phase) !== 'complete';
  if (apLive) {
    const digest = createHash('sha256').update(JSON.stringify(ap)).digest('hex');
    return sig.mode === 'autopilot' && sig.target_state_sha256 === digest;
  }
  return sig.mode !== 'autopilot' && !('target_state_sha256' in sig) && !('target_workflow_run_id' in sig);
}

/**
 * OMC's advisory lock (src/lib/file-lock.ts): `<file>.lock` created O_EXCL
 * mode 0600 holding {"pid","timestamp"}; retries every 50 ms for up to 5 s,
 * as OMC's notepad, project-memory and wiki writers do.
 */
export function withOmcLock(ctx, rel, fn) {
  const lock = ctx.abs(`${rel}.lock`);
  const deadline = Date.now() + 5_000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      const fd = fs.openSync(lock, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, timestamp: Date.now() }));
      fs.closeSync(fd);
      break;
    } catch (e) {
      if (e?.code !== 'EEXIST' || Date.now() > deadline) throw e;
      Atomics.wait(pause, 0, 0, 50);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
