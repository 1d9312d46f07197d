/**
 * Class 9 of the second hardening round: lock messages that tell the truth.
 * A `<file>.lock` whose holder is dead — the pid is gone, or the pid now
 * belongs to a process that started after the lock was written — is stale and
 * is taken over once OMC's rule allows (30 s); a live holder is named with how
 * long it has held the lock; the wait is bounded and the message says
 * nothing was changed (an editor adds that its draft is kept). OMC's own notepad writer then agrees the lock is gone.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { acquireStateLock } from '../../src/store/cancel/mutation-lock.js';
import { ownStartIdentity } from '../../src/io/process-start.js';
import { acquireFileLock, LockBusyError } from '../../src/io/file-lock.js';
import { FIXTURE_TREE } from '../helpers/fixtures.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';
import { scaled } from '../helpers/time-scale.js';

let omc: OmcNotepad;
beforeAll(async () => {
  omc = await loadOmcNotepad();
});

const HOUR = 3_600_000;
const lockAt = (root: string) => path.join(root, 'notepad.md.lock');
function writeLock(root: string, pid: number, writtenAt: number): void {
  fs.writeFileSync(lockAt(root), JSON.stringify({ pid, timestamp: writtenAt }), { mode: 0o600 });
  fs.utimesSync(lockAt(root), writtenAt / 1000, writtenAt / 1000);
}
/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}
async function failure(root: string, staleMs?: number): Promise<LockBusyError> {
  const e = await acquireFileLock(root, 'notepad.md', { timeoutMs: 200, staleMs }).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(LockBusyError);
  return e as LockBusyError;
}

describe('notepad.md.lock holders', () => {
  it('a fresh lock of a dead pid: named dead, with when it can be taken over; not "OMC is writing"', async ({
    emptyProject: p,
  }) => {
    const pid = deadPid();
    writeLock(p.root, pid, Date.now());
    const e = await failure(p.root);
    expect(e.message).toMatch(
      new RegExp(
        `^notepad\\.md\\.lock was left by pid ${pid}, which is no longer running; OMC's rule lets it be taken over in (29|30) s\\. Nothing was changed\\.$`,
      ),
    );
    expect(e.message).not.toMatch(/OMC is writing/);
  });

  it('a 3-hour-old lock whose pid now belongs to a newer process is taken over, and OMC agrees', async ({
    emptyProject: p,
  }) => {
    fs.copyFileSync(path.join(FIXTURE_TREE, 'notepad.md'), path.join(p.root, 'notepad.md'));
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeLock(p.root, sleeper.pid!, Date.now() - 3 * HOUR); // the sleeper started seconds ago, not 3 h
      const held = await acquireFileLock(p.root, 'notepad.md', { timeoutMs: 2_000 });
      expect(JSON.parse(fs.readFileSync(lockAt(p.root), 'utf8')).pid).toBe(process.pid);
      held.release();
      expect(fs.existsSync(lockAt(p.root))).toBe(false);
      const t0 = Date.now();
      expect(omc.addWorkingMemoryEntry(p.dir, 'after the take-over')).toBe(true);
      expect(Date.now() - t0).toBeLessThan(scaled(2_000));
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('a live holder is named with its age, and an old one with how long it has held the lock', async ({
    emptyProject: p,
  }) => {
    writeLock(p.root, process.pid, Date.now() - 2_000);
    expect((await failure(p.root)).message).toMatch(
      new RegExp(
        `held by pid ${process.pid}; OMC is writing this file right now\\. Nothing was changed\\. The lock was taken [23] s ago by a running process`,
      ),
    );
    // Our own process started before this lock was written: alive, and (past the stale age) holding it far
    // too long. The stale age is shortened so that a test worker a few seconds old can be that holder.
    const started = Date.now() - process.uptime() * 1000;
    writeLock(p.root, process.pid, Math.min(started + 2_500, Date.now() - 1_000));
    const old = (await failure(p.root, 500)).message;
    expect(old).toMatch(
      /has been held by pid \d+ \(running\) for \d+ (s|min), where OMC's writers hold it for milliseconds\. Nothing was changed\./,
    );
    expect(old).not.toMatch(/stuck|right now/);
  });

  it('the wait is bounded: 200 ms asked, well under 5 s taken', async ({ emptyProject: p }) => {
    writeLock(p.root, process.pid, Date.now());
    const t0 = Date.now();
    await failure(p.root);
    expect(Date.now() - t0).toBeLessThan(scaled(5_000));
  });
});

describe('<file>.mutation.lock holders', () => {
  it('a live holder is named with how long ago it took the lock', async ({ emptyProject: p }) => {
    const dir = path.join(p.root, 'state', 'sessions', 's1');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'ralph-state.json.mutation.lock'),
      JSON.stringify({
        version: 1,
        pid: process.pid,
        processStart: ownStartIdentity(),
        createdAt: new Date(Date.now() - 3_000).toISOString(),
        nonce: '00000000-0000-4000-8000-000000000000',
      }),
    );
    await expect(
      acquireStateLock(p.root, 'state/sessions/s1/ralph-state.json', { attempts: 2, retryMs: 1 }),
    ).rejects.toThrow(
      /held by pid \d+: OMC is changing this file right now\. Nothing was changed; try again\. The lock was taken [34] s ago by a running process\./,
    );
  });

  it('a holder that has kept it for minutes is said to have held it that long, not to be changing the file now', async ({
    emptyProject: p,
  }) => {
    const dir = path.join(p.root, 'state', 'sessions', 's1');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'ralph-state.json.mutation.lock'),
      JSON.stringify({
        version: 1,
        pid: process.pid,
        processStart: ownStartIdentity(),
        createdAt: new Date(Date.now() - 3 * 60_000).toISOString(),
        nonce: '00000000-0000-4000-8000-000000000000',
      }),
    );
    const message = await acquireStateLock(p.root, 'state/sessions/s1/ralph-state.json', {
      attempts: 2,
      retryMs: 1,
    }).then(
      () => '',
      (e: Error) => e.message,
    );
    expect(message).toMatch(
      /ralph-state\.json\.mutation\.lock has been held by pid \d+ \(running\) for 3 min\. Nothing was changed; try again once it is released\./,
    );
    expect(message).not.toMatch(/right now|stuck/);
  });
});
