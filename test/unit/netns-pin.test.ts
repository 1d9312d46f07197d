/**
 * The test suites' namespace sweep (test/helpers/netns.ts) must never reach another test's processes:
 * a namespace's number is only its own while the namespace lives, so the helper pins it with an open
 * descriptor until the sweep is done. These tests hold that: the namespace outlives its last process
 * while pinned (it can still be entered, under the same number), the sweep ends a process forked
 * inside, and a released namespace refuses to be swept by number; the test's own namespace is never pinned.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { inOwnNamespace, pinNamespace } from '../helpers/netns.js';
import { waitFor } from '../helpers/fixtures.js';

const canUnshare = process.platform === 'linux' && spawnSync('unshare', ['--net', '--', 'true']).status === 0;

function holder(script: string) {
  const child = spawn('unshare', ['--net', '--', 'sh', '-c', script], { stdio: 'ignore' });
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  return { child, pid: child.pid as number, ended };
}

describe.skipIf(!canUnshare)('a pinned test namespace', () => {
  it('outlives its last process under the same number until released', async () => {
    const h = holder('exec sleep 600');
    await waitFor(() => inOwnNamespace(h.pid), { what: 'the holder in its own namespace' });
    const ns = pinNamespace(h.pid);
    try {
      expect(ns.members()).toEqual([h.pid]);
      ns.killAll();
      await waitFor(() => h.ended() && ns.members().length === 0, { what: 'the holder to end' });
      // No process is left in it, yet it is still there to enter, and it is still the same namespace.
      const inside = spawnSync('nsenter', [`--net=${ns.file}`, '--', 'readlink', '/proc/self/ns/net'], {
        encoding: 'utf8',
      });
      expect(inside.status).toBe(0);
      expect(inside.stdout.trim()).toBe(ns.id);
    } finally {
      ns.release();
    }
    expect(() => ns.members()).toThrow(/released/);
  });

  it("refuses to pin the caller's own namespace (a holder not yet through unshare)", () => {
    expect(() => pinNamespace(process.pid)).toThrow(/still in this process's network namespace/);
  });

  it('ends a process forked inside (not only the holder) and none outside', async () => {
    // The holder starts a background child of its own, as OMC's session-end workers are started.
    const h = holder('sleep 600 & exec sleep 601');
    const outside = spawn('sleep', ['602'], { stdio: 'ignore' });
    try {
      await waitFor(() => inOwnNamespace(h.pid) && spawnSync('pgrep', ['-P', String(h.pid)]).status === 0, {
        what: 'the forked child',
      });
      const ns = pinNamespace(h.pid);
      await waitFor(() => ns.members().length === 2, { what: 'two processes in the namespace' });
      expect(ns.members()).not.toContain(outside.pid);
      await waitFor(
        () => {
          ns.killAll();
          return ns.members().length === 0 && h.ended();
        },
        { what: 'the namespace to empty' },
      );
      ns.release();
      expect(outside.exitCode).toBeNull();
      expect(outside.signalCode).toBeNull();
    } finally {
      outside.kill('SIGKILL');
      h.child.kill('SIGKILL');
    }
  });
});
