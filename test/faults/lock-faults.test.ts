/**
 * OMC's `<file>.lock` (src/store/file-lock.ts) when the disk is full or the
 * quota is exhausted: the lock file is created (an empty inode still fits)
 * but its `{"pid","timestamp"}` record cannot be written. An empty lock reads
 * as "held by someone unknown" until it is 30 s old, so leaving it there
 * would block our next save and every OMC writer of that file for 30 s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { acquireFileLock } from '../../src/io/file-lock.js';
import { NotepadDomain } from '../../src/store/notepad/domain.js';
import { injectFault, type InjectedFault } from '../helpers/fault-fs.js';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { FIXTURE_TREE, SESSION } from '../helpers/fixtures.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';
import { scaled } from '../helpers/time-scale.js';

let omc: OmcNotepad;
beforeAll(async () => {
  omc = await loadOmcNotepad();
});

let fault: InjectedFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

describe.each(['ENOSPC', 'EDQUOT'] as const)('%s while the lock record is written', (code) => {
  it('acquireFileLock throws the errno and leaves no lock file behind', async ({ emptyProject: p }) => {
    fault = injectFault({ code, step: 'write', path: /notepad\.md\.lock$/ });
    await expect(acquireFileLock(p.root, 'notepad.md', { timeoutMs: 200 })).rejects.toMatchObject({ code });
    expect(fault.hits).toEqual([path.join(p.root, 'notepad.md.lock')]);
    expect(fs.existsSync(path.join(p.root, 'notepad.md.lock'))).toBe(false);
  });

  it("a failed notepad save does not block OMC's own writer, which gets the lock at once", async ({
    emptyProject: p,
  }) => {
    fs.copyFileSync(path.join(FIXTURE_TREE, 'notepad.md'), path.join(p.root, 'notepad.md'));
    const d = new NotepadDomain({ root: p.root });
    d.scan();
    const before = fs.readFileSync(path.join(p.root, 'notepad.md'), 'utf8');
    fault = injectFault({ code, step: 'write', path: /\.lock$/, times: 1 });
    await expect(d.save({ kind: 'add', section: 'working', body: 'never written' }, null)).rejects.toMatchObject({
      code,
    });
    expect(fs.readFileSync(path.join(p.root, 'notepad.md'), 'utf8')).toBe(before);
    // OMC waits up to 5 s for a held lock; with nothing left behind it does not wait at all.
    const t0 = Date.now();
    expect(omc.addWorkingMemoryEntry(p.dir, 'OMC right after the failed save')).toBe(true);
    expect(Date.now() - t0).toBeLessThan(scaled(1_000));
    expect(omc.getWorkingMemory(p.dir)).toMatch(/OMC right after the failed save$/);
    // And our own next save goes through.
    expect((await d.save({ kind: 'add', section: 'working', body: 'space is back' }, null)).kind).toBe('saved');
  });
});

describe('a cancel step that fails holds no mutation lock afterwards (round three, class 1)', () => {
  const locksUnder = (dir: string): string[] =>
    fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((n) => n.endsWith('.mutation.lock'))
      .sort();

  it.for(['rename', 'create', 'write'] as const)(
    'the autopilot set-inactive write fails at %s: the step says why, its lock is released',
    async (step, { project: p }) => {
      const planned = planCancel(p.root, { sessionId: SESSION.autopilot, mode: null, pauseOnly: false }, Date.now());
      if (!planned.ok) throw new Error(planned.message);
      fault = injectFault({ code: 'ENOSPC', step, path: /autopilot-state\.json$|\.autopilot-state\.json\.tmp\./ });
      const out = await executeCancel(p.root, planned.plan, { now: Date.now });
      fault.restore();
      fault = null;
      expect(out.kind).toBe('done');
      const done = out as Extract<typeof out, { kind: 'done' }>;
      const ap = done.steps.find((s) => s.rel.endsWith('autopilot-state.json'));
      expect(ap).toMatchObject({ ok: false, word: 'FAILED', detail: expect.stringMatching(/disk full \(ENOSPC\)/) });
      expect(done.ok).toBe(false);
      expect(locksUnder(path.join(p.root, 'state'))).toEqual([]);
    },
  );
});
