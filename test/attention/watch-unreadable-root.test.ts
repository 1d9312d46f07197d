/**
 * `watch --json` while the root becomes unreadable and readable again (a chmod by its owner; omc-top runs as another
 * user): every change is reported once, both ways. The session is not gone (it never "appears" again), its loop is
 * unknown, not stopped (no "loop stopped" news), and the root is one `unreadable-dir` fact with its item. The refusal
 * is injected as the kernel gives it (test/helpers/read-faults.ts); the bundle run as nobody is
 * test/e2e/unreadable.e2e.test.ts.
 */
import fs from 'node:fs';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { refuseReads } from '../helpers/read-faults.js';
import { watchLines, type WatchLine } from '../helpers/watch-lines.js';

const S = 'a1b2c3d4-0000-4000-8000-0000000000a1';
type Line = WatchLine;

function watch(args: string[], cwd: string, stateHome: string): Line[] {
  return watchLines(args, cwd, { ...process.env, XDG_STATE_HOME: stateHome });
}

describe('watch --json on a root that becomes unreadable', () => {
  it('reports the way into "unreadable" as it reports the way back, and no loop as stopped', async ({
    emptyProject: p,
    tempDir,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    const lines = watch(['--root', p.root], p.dir, tempDir('omc-top-watch-state-'));
    await waitFor(() => lines.some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: 'the ready line' });
    const moved = (kind: string, key: string, from: unknown, to: unknown) =>
      lines.some((l) => l.type === 'transition' && l.kind === kind && l.key === key && l.from === from && l.to === to);

    const fault = refuseReads('EACCES', (abs) => abs === p.root || abs.startsWith(`${p.root}/`));
    try {
      fs.chmodSync(p.root, 0o700); // the owner's chmod: the event that tells the watcher
      await waitFor(() => moved('unreadable-dir', '.omc', null, 'unreadable'), {
        timeoutMs: 20_000,
        what: 'the root unreadable',
      });
    } finally {
      fault.restore();
    }
    expect(moved('session', S, 'present', 'unreadable')).toBe(true);
    expect(moved('mode', `${S}/ralph`, 'active', 'unknown')).toBe(true);
    const into = lines.find((l) => l.kind === 'unreadable-dir' && l.to === 'unreadable');
    expect(into).toMatchObject({ needs: 'unreadable loop state', need: { id: 'unreadable:@.omc' } });
    expect(lines.some((l) => l.kind === 'problem' && String(l.key).startsWith('.omc\u0000') && l.to === 'error')).toBe(
      true,
    );

    fs.chmodSync(p.root, 0o755);
    await waitFor(() => moved('unreadable-dir', '.omc', 'unreadable', null), {
      timeoutMs: 20_000,
      what: 'the root readable again',
    });
    await waitFor(() => moved('session', S, 'unreadable', 'present'), { what: 'the session back' });
    expect(moved('mode', `${S}/ralph`, 'unknown', 'active')).toBe(true);
    // Each change once: the session never went away, so it never "appeared" either.
    expect(lines.filter((l) => l.type === 'transition' && l.kind === 'session').map((l) => [l.from, l.to])).toEqual([
      ['present', 'unreadable'],
      ['unreadable', 'present'],
    ]);
    expect(lines.filter((l) => l.news !== null && l.news !== undefined)).toEqual([]);
  });
});
