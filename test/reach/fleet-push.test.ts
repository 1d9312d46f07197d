/**
 * Push for many projects (the fleet view `--all`, `serve`): each project's transitions go to a loopback ntfy
 * server once, through the notifier the monitor uses; a project whose push lease another live omc-top holds
 * sends nothing from here (that one pushes) until that omc-top is gone, then this one takes the lease.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transition } from '../../src/feeds/attention/engine.js';
import type { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { pushForRoots, type PushRoot } from '../../src/feeds/notify/push-roots.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { ownStateDir, rootFileName } from '../../src/io/state-dir.js';
import { heldBy, keepLeaseBeating } from '../helpers/lease-holder.js';
import { waitFor } from '../helpers/fixtures.js';
import { loopbackServer } from '../helpers/loopback-http.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A session of `project` starts waiting on the user. */
const waiting = (project: string, n: number): Transition => {
  const session = `${project}-sess-${n}`;
  const need = {
    id: `agent:${session}@${n}`,
    kind: 'waiting' as const,
    reason: 'waiting for you',
    text: 'waiting for you',
    since: n,
    session,
    mode: 'ralph',
    team: null,
    worker: null,
    path: null,
    waitingOn: 'permission prompt: Bash',
    name: null,
    tmux: null,
    action: 'jump' as const,
  };
  return {
    kind: 'agent',
    key: session,
    from: 'busy',
    to: 'waiting',
    needs: 'waiting for you',
    news: null,
    fact: {
      value: 'waiting',
      session,
      mode: 'ralph',
      team: null,
      worker: null,
      path: null,
      need,
      needs: need.reason,
      news: null,
    },
  } as Transition;
};

/** A project's attention monitor as push sees it: its transitions, and nothing acknowledged. */
function project(base: string, name: string) {
  const listeners = new Set<(b: Transition[]) => void>();
  const monitor = {
    onTransitions: (l: (b: Transition[]) => void) => (listeners.add(l), () => listeners.delete(l)),
    isAcked: () => false,
  } as unknown as AttentionMonitor;
  const root: PushRoot = { id: name, project: name, root: path.join(base, name, '.omc'), monitor };
  return { root, emit: (t: Transition) => listeners.forEach((l) => l([t])) };
}

describe('push for several projects (the fleet view, serve)', () => {
  it("records its lease in omc-top's state directory even when nothing else made that directory yet", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-fleet-push-'));
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const env = { XDG_STATE_HOME: path.join(base, 'fresh-state') };
    const ntfy = await loopbackServer(200);
    cleanups.push(() => ntfy.close());
    const shop = project(base, 'shop');
    const stop = pushForRoots({
      roots: () => [shop.root],
      subscribe: () => () => undefined,
      config: { push: { channels: [{ type: 'ntfy', url: `${ntfy.base}/topic` }], retries: 0 } },
      readonly: false,
      env,
      onProblem: () => undefined,
    });
    cleanups.push(stop);
    // Without it another omc-top on shop finds no holder, takes the lease and pushes beside this one.
    const lease = path.join(ownStateDir(env), rootFileName('push-lease', shop.root.root));
    expect(JSON.parse(fs.readFileSync(lease, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('one message per entering item; none for a project another live omc-top pushes for, until it is gone', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-fleet-push-'));
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const env = { XDG_STATE_HOME: path.join(base, 'state') };
    const ntfy = await loopbackServer(200);
    cleanups.push(() => ntfy.close());
    const shop = project(base, 'shop');
    const blog = project(base, 'blog');
    // Another omc-top (a live process) pushes for blog: it holds blog's lease.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    cleanups.push(() => void other.kill('SIGKILL'));
    const otherStart = await waitFor(() => {
      const s = processStartIdentity(other.pid as number);
      return typeof s === 'string' && s !== 'absent' ? s : null;
    });
    const dir = ownStateDir(env);
    fs.mkdirSync(dir, { recursive: true });
    const blogLease = path.join(dir, rootFileName('push-lease', blog.root.root));
    fs.writeFileSync(blogLease, JSON.stringify({ pid: other.pid, start: otherStart, at: Date.now() }));
    // It beats as a live holder does: past the silence bound (a slow run) it would lose the lease to this process.
    const stopBeating = keepLeaseBeating(blogLease);
    cleanups.push(stopBeating);

    const problems: string[] = [];
    const stop = pushForRoots({
      roots: () => [shop.root, blog.root],
      subscribe: () => () => undefined,
      config: {
        notify: { debounceMs: 0 },
        push: { channels: [{ type: 'ntfy', url: `${ntfy.base}/topic` }], retries: 0 },
      },
      readonly: false,
      env,
      onProblem: (l) => problems.push(l),
    });
    cleanups.push(stop);
    // shop's lease was free: taken at start; blog's stays with its holder.
    expect(
      JSON.parse(fs.readFileSync(path.join(dir, rootFileName('push-lease', shop.root.root)), 'utf8')),
    ).toMatchObject({ pid: process.pid });

    blog.emit(waiting('blog', 1));
    shop.emit(waiting('shop', 1));
    await waitFor(() => ntfy.received.length >= 1, { what: 'the push for shop' });
    // Both were handled in the same turn; the sender sends in order: blog's would be first.
    shop.emit(waiting('shop', 2));
    await waitFor(() => ntfy.received.length >= 2, { what: 'the second push for shop' });
    expect(ntfy.received.map((r) => /blog|shop/.exec(r.body)?.[0])).toEqual(['shop', 'shop']);

    // The other omc-top is gone: blog's next item is pushed from here, which now holds blog's lease.
    stopBeating();
    other.kill('SIGKILL');
    await waitFor(() => processStartIdentity(other.pid as number) === 'absent', { what: 'the holder gone' });
    blog.emit(waiting('blog', 2));
    await waitFor(() => ntfy.received.length >= 3, { what: 'the push for blog' });
    expect(ntfy.received[2]?.body).toContain('blog');
    expect(JSON.parse(fs.readFileSync(blogLease, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(problems).toEqual([]);
    // At exit the lease is given up, so another omc-top pushes at once (what was pushed stays recorded in it).
    stop();
    expect(heldBy(blogLease)).toBe(null);
  });

  it("follows a project the fleet opens again under a new name (a new monitor), and lets a closed one's lease go", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-fleet-push-'));
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
    const env = { XDG_STATE_HOME: path.join(base, 'state') };
    const ntfy = await loopbackServer(200);
    cleanups.push(() => ntfy.close());
    const shop = project(base, 'shop');
    let roots: PushRoot[] = [shop.root];
    let changed = () => undefined as void;
    const stop = pushForRoots({
      roots: () => roots,
      subscribe: (l) => ((changed = l), () => undefined),
      config: {
        notify: { debounceMs: 0 },
        push: { channels: [{ type: 'ntfy', url: `${ntfy.base}/topic` }], retries: 0 },
      },
      readonly: false,
      env,
      onProblem: () => undefined,
    });
    cleanups.push(stop);
    const leaseOf = (r: PushRoot) => path.join(ownStateDir(env), rootFileName('push-lease', r.root));
    expect(fs.existsSync(leaseOf(shop.root))).toBe(true);

    // Its directory renamed: the same root id, opened again at the new path with a new monitor.
    const renamed = project(base, 'shop-renamed');
    roots = [{ ...renamed.root, id: shop.root.id }];
    changed();
    expect(fs.existsSync(leaseOf(shop.root)), "the old path's lease").toBe(false);
    expect(JSON.parse(fs.readFileSync(leaseOf(renamed.root), 'utf8'))).toMatchObject({ pid: process.pid });
    renamed.emit(waiting('shop-renamed', 1));
    await waitFor(() => ntfy.received.length >= 1, { what: 'the push from the new monitor' });
    expect(ntfy.received[0]?.body).toContain('shop-renamed');

    // Gone: the fleet closed it; its lease is given up at once, not at exit.
    roots = [];
    changed();
    expect(heldBy(leaseOf(renamed.root))).toBe(null);
  });
});
