/**
 * The push lease's holder vouches for it while it runs (io/heartbeat.ts): a holder that beats keeps it however
 * long; one that is still running but showed no life past the bound (stuck), or that is stopped (kill -STOP, as
 * Ctrl-Z does), no longer keeps another omc-top on the project from pushing. Resumed, the old holder finds the
 * lease named for another: its beat stops without touching that lease, and it may not push (no item twice).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEARTBEAT_MS, SILENT_AFTER_MS } from '../../src/io/heartbeat.js';
import { processStopped, runningStartIdentity } from '../../src/io/process-start.js';
import { PushLease } from '../../src/feeds/notify/push/lease.js';
import { rootFileName } from '../../src/io/state-dir.js';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';

const LEASE_MODULE = fileURLToPath(new URL('../../src/feeds/notify/push/lease.ts', import.meta.url));
const ROOT = '/srv/shop/.omc';
const NAME = rootFileName('push-lease', ROOT);

const leaseIn = (dir: string) => {
  const file = path.join(dir, NAME);
  const st = fs.statSync(file);
  return {
    ...(JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number; at: number }),
    ino: st.ino,
    // Set from a float of seconds: a microsecond off either way.
    mtimeMs: Math.round(st.mtimeMs),
  };
};

/** A live process that is not omc-top, stopped (SIGKILL) after the test. */
async function liveProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  onTestFinished(() => void child.kill('SIGKILL'));
  const pid = child.pid as number;
  await waitFor(() => typeof runningStartIdentity(pid) === 'string' && runningStartIdentity(pid) !== 'absent', {
    what: 'the sleep process running',
  });
  return child as ChildProcess & { pid: number };
}

describe('the push lease held only while its holder shows life', () => {
  it('a running holder that beats keeps it past the bound; stuck past the bound, it is taken; resumed, it is quiet', async ({
    tempDir,
  }) => {
    const dir = tempDir('lease-beat-');
    const clock = { now: Date.now() };
    // The holder: a live process (sleep) by its pid, this test doing its beats.
    const sleeper = await liveProcess();
    const holder = new PushLease(dir, ROOT, { pid: sleeper.pid, clock: () => clock.now });
    const another = await liveProcess();
    const other = new PushLease(dir, ROOT, { pid: another.pid, clock: () => clock.now });
    onTestFinished(() => (holder.release(), other.release()));
    expect(leaseIn(dir).pid).toBe(sleeper.pid);
    expect(other.mayPush()).toBe(false);

    // Beating, it keeps the lease however long: each beat sets the file's time only (no rewrite: one system call).
    const written = leaseIn(dir);
    for (let t = 0; t <= 2 * SILENT_AFTER_MS; t += HEARTBEAT_MS) {
      clock.now += HEARTBEAT_MS;
      expect(holder.beat()).toBe(true);
      expect(other.mayPush()).toBe(false);
    }
    expect(leaseIn(dir)).toMatchObject({ pid: sleeper.pid, at: written.at, ino: written.ino, mtimeMs: clock.now });

    // Its event loop stuck (no beat): still its own up to the bound, another's past it.
    const lastBeat = clock.now;
    clock.now = lastBeat + SILENT_AFTER_MS;
    expect(other.mayPush()).toBe(false);
    clock.now = lastBeat + SILENT_AFTER_MS + 1000;
    expect(other.mayPush()).toBe(true);
    const taken = leaseIn(dir);
    expect(taken).toMatchObject({ pid: another.pid, at: clock.now });

    // Resumed: its beat finds the lease another's and leaves it as it is; it sends nothing.
    clock.now += 1000;
    expect(holder.beat()).toBe(false);
    expect(holder.mayPush()).toBe(false);
    expect(leaseIn(dir)).toEqual(taken);
    // The new holder beats on; the old one stays quiet.
    clock.now += HEARTBEAT_MS;
    expect(other.beat()).toBe(true);
    expect(holder.mayPush()).toBe(false);
  });

  it('a lease naming a running process that showed no life past the bound (a stuck holder) is taken', async ({
    tempDir,
  }) => {
    const dir = tempDir('lease-stuck-');
    const sleeper = await liveProcess();
    const at = Date.now();
    fs.writeFileSync(
      path.join(dir, NAME),
      JSON.stringify({ pid: sleeper.pid, start: runningStartIdentity(sleeper.pid), at }),
    );
    fs.utimesSync(path.join(dir, NAME), new Date(at), new Date(at));
    const clock = { now: at + SILENT_AFTER_MS };
    const other = new PushLease(dir, ROOT, { pid: process.pid, clock: () => clock.now });
    onTestFinished(() => other.release());
    expect(other.mayPush()).toBe(false);
    expect(leaseIn(dir).pid).toBe(sleeper.pid);
    clock.now += 1000;
    expect(other.mayPush()).toBe(true);
    expect(leaseIn(dir).pid).toBe(process.pid);
  });

  it('a lease dated after now (the clock moved back) is written anew by its holder, not only touched', async ({
    tempDir,
  }) => {
    const dir = tempDir('lease-back-');
    const clock = { now: Date.now() };
    const sleeper = await liveProcess();
    const holder = new PushLease(dir, ROOT, { pid: sleeper.pid, clock: () => clock.now });
    const another = await liveProcess();
    const other = new PushLease(dir, ROOT, { pid: another.pid, clock: () => clock.now });
    onTestFinished(() => (holder.release(), other.release()));
    clock.now -= 3_600_000;
    expect(holder.beat()).toBe(true);
    expect(leaseIn(dir)).toMatchObject({ pid: sleeper.pid, at: clock.now });
    expect(other.mayPush()).toBe(false);
  });

  it('a holder stopped by kill -STOP is taken at once; continued, it finds another named and may not push', async ({
    tempDir,
  }) => {
    const base = tempDir('lease-stop-');
    const dir = path.join(base, 'state');
    const script = path.join(base, 'holder.mjs');
    // Takes the lease, says so, then answers each line on stdin with its beat's and mayPush's results (what its
    // timer and its next message would ask on resume).
    fs.writeFileSync(
      script,
      `const [, , mod, dir, root] = process.argv;
const { PushLease } = await import(mod);
const lease = new PushLease(dir, root);
process.stdout.write('held=' + lease.mayPush() + '\\n');
process.stdin.setEncoding('utf8');
process.stdin.on('data', () => process.stdout.write('beat=' + lease.beat() + ' push=' + lease.mayPush() + '\\n'));
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script, LEASE_MODULE, dir, ROOT], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    const pid = child.pid as number;
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    await waitFor(() => out.includes('held=true'), { what: 'the child holding the lease', timeoutMs: 60_000 });
    expect(leaseIn(dir).pid).toBe(pid);

    // The other omc-top, by the pid of a live process: the resumed holder must see it running.
    const another = await liveProcess();
    const other = new PushLease(dir, ROOT, { pid: another.pid });
    onTestFinished(() => other.release());
    expect(other.mayPush()).toBe(false);

    child.kill('SIGSTOP');
    await waitFor(() => processStopped(pid), { what: 'the holder stopped' });
    // Its beat is fresh (it wrote the lease a moment ago): only its state says it cannot push.
    expect(other.mayPush()).toBe(true);
    expect(leaseIn(dir).pid).toBe(another.pid);

    child.kill('SIGCONT');
    child.stdin.write('\n');
    await waitFor(() => out.includes('beat='), { what: 'the resumed holder answering', timeoutMs: 30_000 });
    expect(out).toContain('beat=false push=false');
    expect(leaseIn(dir).pid).toBe(another.pid);
  });
});
