/**
 * Round three, class 4: `omc-top watch --json` whose reader stopped reading
 * (a paused pager, a stalled pipe). Before the fix its output piled up in
 * memory for as long as the loops kept moving (81 MB after 30 s), and once
 * stopped by SIGTERM or SIGINT it waited for that pile to be read before
 * exiting, which never happened. Now the stream holds at most ~1 MB for the
 * reader: transitions beyond it are dropped and counted in one `lagged` line,
 * rows wait and go out as they are by then, and a signal ends the run at once.
 *
 * The real bundle, a child process whose stdout nobody reads, and loops that
 * keep moving (every session's iteration rewritten, as OMC's Stop hook does).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, type TempProject, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const SESSIONS = 300;
const sid = (i: number) => `stall-${String(i).padStart(4, '0')}`;

let p: TempProject | null = null;
let child: ChildProcessWithoutNullStreams | null = null;
let mover: NodeJS.Timeout | null = null;
afterEach(() => {
  if (mover) clearInterval(mover);
  mover = null;
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = null;
  p?.cleanup();
  p = null;
});

function writeState(root: string, i: number, iteration: number): void {
  writeLiveRalph(
    { root },
    {
      sessionId: sid(i),
      iteration,
      max: 1000,
      startedAt: Date.now() - 60_000,
      prompt: `keep going on task ${i}: ${'a long prompt that makes each row line a few hundred bytes '.repeat(3)}`,
    },
  );
}

/** Loops that keep moving: every session's next iteration, again and again. */
function keepMoving(root: string): void {
  let iteration = 2;
  rounds = 0;
  mover = setInterval(() => {
    iteration++;
    rounds++;
    for (let i = 0; i < SESSIONS; i++) writeState(root, i, iteration);
  }, 250);
}

let stderr = '';
/** A small bound (OMC_TOP_WATCH_BUFFER_BYTES) so that a few rounds of moving loops overflow it on any machine. */
const BUFFER_BYTES = 64 * 1024;
let rounds = 0;

/** The watch, read up to its "ready" line; from then on nobody reads its stdout. */
async function start(root: string, bufferBytes?: number): Promise<ChildProcessWithoutNullStreams> {
  const env = { ...process.env };
  if (bufferBytes !== undefined) env.OMC_TOP_WATCH_BUFFER_BYTES = String(bufferBytes);
  delete env.OMC_STATE_DIR;
  const c = spawn(process.execPath, [BIN, 'watch', '--json', '--snapshot', '--rows', '--root', root], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  stderr = '';
  c.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  let seen = '';
  const read = (d: Buffer) => (seen = (seen + d.toString('utf8')).slice(-4096));
  c.stdout.on('data', read);
  await waitFor(() => seen.includes('"type":"ready"'), {
    timeoutMs: 30_000,
    what: `the ready line (stderr: ${stderr})`,
  });
  // Nobody reads stdout any more: once Node's own small buffer here is full, the pipe fills and stays full.
  c.stdout.off('data', read);
  c.stdout.pause();
  return c;
}

const rssMb = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

const exitOf = (c: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((r) => {
    if (c.exitCode !== null || c.signalCode !== null) return r(c.exitCode);
    c.on('exit', (code) => r(code));
  });

/** Waits until the child has been writing into the full pipe for a while (its memory is what it buffers). */
async function stallFor(c: ChildProcessWithoutNullStreams, ms: number): Promise<number> {
  let peak = 0;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    peak = Math.max(peak, rssMb(c.pid as number));
    await new Promise((r) => setTimeout(r, 100));
  }
  return peak;
}

describe('watch --json with a reader that stopped reading', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s ends it at once, with nothing left to flush and no growing memory',
    async (signal) => {
      p = makeProject();
      for (let i = 0; i < SESSIONS; i++) writeState(p.root, i, 1);
      const c = await start(p.root);
      child = c;
      const baseline = rssMb(c.pid as number);
      keepMoving(p.root);
      // The loops move for a few seconds with the pipe full: before the fix, every line piled up.
      const peak = await stallFor(c, 6_000);
      const t0 = Date.now();
      c.kill(signal);
      const code = await Promise.race([
        exitOf(c),
        new Promise<'hung'>((r) => setTimeout(() => r('hung'), scaled(5_000))),
      ]);
      expect(code, `still running ${scaled(5_000)} ms after ${signal}; stderr: ${stderr}`).toBe(0);
      expect(Date.now() - t0).toBeLessThan(scaled(5_000));
      // Bounded: what waits for the reader is ~1 MB, not what the loops produced.
      expect(peak - baseline).toBeLessThan(80);
    },
  );

  it(
    'when the reader catches up: one "lagged" line counts what was dropped, then rows as they are now',
    async () => {
      p = makeProject();
      for (let i = 0; i < SESSIONS; i++) writeState(p.root, i, 1);
      const c = await start(p.root, BUFFER_BYTES);
      child = c;
      keepMoving(p.root);
      // Eight rounds of every session moving, while nobody reads: far more than the bound.
      await waitFor(() => rounds >= 8, { timeoutMs: 60_000, what: 'eight rounds of moving loops' });
      if (mover) clearInterval(mover);
      mover = null;
      // Read now: everything the child kept for the reader comes first, then the lagged line.
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      c.stdout.resume();
      await waitFor(() => /"type":"lagged"/.test(out), { timeoutMs: 30_000, what: 'a lagged line' });
      const before = out.slice(0, out.indexOf('"type":"lagged"'));
      // At most the stream's bound plus the pipe and Node's own buffers (and one emit's rows), not the rounds.
      expect(Buffer.byteLength(before)).toBeLessThan(BUFFER_BYTES + 512 * 1024);
      const lagged = out
        .split('\n')
        .filter((l) => l.includes('"type":"lagged"'))
        .map((l) => JSON.parse(l) as { v: number; dropped: number; project: string });
      expect(lagged[0]).toMatchObject({ v: 1, dropped: expect.any(Number) });
      expect(lagged[0]!.dropped).toBeGreaterThan(0);
      // The rows that follow are the state as it is now: the last iteration each session reached.
      const last = fs.readFileSync(path.join(p.root, 'state', 'sessions', sid(0), 'ralph-state.json'), 'utf8');
      const iteration = (JSON.parse(last) as { iteration: number }).iteration;
      await waitFor(
        () =>
          out
            .split('\n')
            .filter((l) => l.includes('"type":"row"') && l.includes(`"session":"${sid(0)}"`))
            .some((l) => l.includes(`${iteration}/1000`)),
        { timeoutMs: 30_000, what: `the row of ${sid(0)} at iteration ${iteration}` },
      );
      c.kill('SIGTERM');
      expect(await exitOf(c)).toBe(0);
    },
    scaled(120_000),
  );
});
