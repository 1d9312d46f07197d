/**
 * The kernel runs out of inotify for real (not an injected error event, as
 * test/store/sessions-live.test.ts does): the real bundle runs in a pty inside
 * a user namespace whose inotify budget we set, so chokidar meets the actual
 * ENOSPC (watch limit) or EMFILE (no inotify instance). omc-top must say it
 * is polling (footer POLLING and a problem line naming the limit) and changes
 * must keep reaching the screen within ~2 s (polling every second).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { omcTopCommand, PtyRun } from '../helpers/fault-pty.js';
import { inUserNs, nsExec, userNsSupport } from '../helpers/fault-userns.js';
import { makeProject, type TempProject, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const support = userNsSupport().inotify;
if (!support.ok) console.warn(`watch-exhausted: skipped, ${support.why}`);

let run: PtyRun | null = null;
let p: TempProject | null = null;
afterEach(() => {
  run?.dispose();
  run = null;
  p?.cleanup();
  p = null;
});

/** inotify watches the process holds (from /proc/<pid>/fdinfo). */
function inotifyWatches(pid: number): number {
  let n = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fdinfo`)) {
    try {
      n += (fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm) ?? []).length;
    } catch {
      /* closed meanwhile */
    }
  }
  return n;
}

/** The inodes of `root`, its parent and everything below it: the tree watcher's share of a process's watches. */
function treeInodes(root: string): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string) => {
    out.add(fs.statSync(dir).ino.toString(16));
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else out.add(fs.statSync(f).ino.toString(16));
    }
  };
  walk(root);
  out.add(fs.statSync(path.dirname(root)).ino.toString(16));
  return out;
}

/**
 * The process's inotify watches on the .omc tree (and its parent), by inode: other domains watch files outside
 * the tree (Claude Code's config dir, omc-top's own state dir), and those stay when the tree falls back to polling.
 */
function treeWatches(pid: number, root: string): number {
  const inodes = treeInodes(root);
  let n = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fdinfo`)) {
    try {
      for (const m of fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8').matchAll(/^inotify wd:\S+ ino:(\S+)/gm))
        if (inodes.has(m[1] as string)) n += 1;
    } catch {
      /* closed meanwhile */
    }
  }
  return n;
}

function start(limits: string): PtyRun {
  p = makeProject({ withFixture: true });
  const { file, args } = inUserNs(`${limits} exec ${omcTopCommand(['--root', p.root])}`);
  run = new PtyRun({ file, args, cols: 100, rows: 30 });
  return run;
}

const SID = 'f0000000-0000-4000-8000-00000000000a';

/** An OMC-style rewrite of a new session's state; resolves with how long until the screen shows it. */
async function changeReachesScreen(r: PtyRun, iteration: number, sid = SID): Promise<number> {
  const t0 = Date.now();
  writeLiveRalph(p!, { sessionId: sid, iteration, max: 10 });
  await r.waitForText(new RegExp(`${sid.slice(0, 8)} ralph ${iteration}/10`), 5_000);
  return Date.now() - t0;
}

describe.skipIf(!support.ok)('inotify exhausted for real (user namespace limits)', () => {
  it('watch limit already reached at start (ENOSPC): POLLING, the limit named, changes on screen within 2 s', async () => {
    const r = start('echo 2 > /proc/sys/user/max_inotify_watches &&');
    await r.waitForText(/POLLING\s*$/m);
    expect(r.text()).toMatch(
      /⚠ \.omc: inotify watch limit reached \(ENOSPC\): polling every 1 s; raise fs\.inotify\.max_user_watches/,
    );
    // The healthy sessions are all still there.
    expect(r.text()).toContain('ralph 3/10');
    for (const i of [1, 2, 3]) expect(await changeReachesScreen(r, i)).toBeLessThan(scaled(2_000));
  });

  it('limit reached while running (new session directories need more watches): live → POLLING, watches released, changes keep coming', async () => {
    const r = start('');
    await r.waitForText(/ live\s*$/m);
    const pid = r.pid;
    const watches = inotifyWatches(pid);
    expect(watches).toBeGreaterThan(3);
    // Only two more watches from now on; a burst of new sessions needs six.
    nsExec(pid, `echo ${watches + 2} > /proc/sys/user/max_inotify_watches`);
    for (let i = 0; i < 6; i++)
      fs.mkdirSync(path.join(p!.root, 'state', 'sessions', `f0000000-0000-4000-8000-00000000010${i}`));
    await r.waitForText(/POLLING\s*$/m);
    expect(r.text()).toContain('inotify watch limit reached (ENOSPC)');
    // The tree's watches are given back (only the parent-directory watch for a deleted root stays).
    await waitFor(() => treeWatches(pid, p!.root) <= 1, { what: 'watches on the .omc tree released' });
    for (const i of [4, 5])
      expect(await changeReachesScreen(r, i, 'f0000000-0000-4000-8000-000000000105')).toBeLessThan(scaled(2_000));
  });

  it('no inotify instance at all (EMFILE): POLLING, changes on screen within 2 s', async () => {
    const r = start('echo 0 > /proc/sys/user/max_inotify_instances &&');
    await r.waitForText(/POLLING\s*$/m);
    expect(r.text()).toMatch(/⚠ \.omc: file watching failed \(EMFILE\): polling every 1 s/);
    expect(inotifyWatches(r.pid)).toBe(0);
    for (const i of [6, 7]) expect(await changeReachesScreen(r, i)).toBeLessThan(scaled(2_000));
  });
});
