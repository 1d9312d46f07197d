/**
 * The sessions domain fed by the real watcher on a real directory: every
 * change ends up on screen, bursts included, and bad files become problem
 * lines while the last good value stays.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from '../helpers/it.js';
import { OmcStore, type OmcStoreOptions } from '../../src/store/store.js';
import { firstStepRows } from '../../src/store/sessions/domain.js';
import { liveRalph, type TempProject, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { writeLiveLoops } from '../helpers/sessions-gen.js';

const SID = 'a1b2c3d4-0000-4000-8000-000000000001';
const ralph = (iteration: number) => liveRalph({ sessionId: SID, iteration, max: 10 });

function open(p: TempProject, newStore: (o: OmcStoreOptions) => OmcStore, mode: 'auto' | 'poll' = 'auto'): OmcStore {
  const store = newStore({ root: p.root, watch: mode });
  store.start();
  return store;
}

const iterationOf = (s: OmcStore, sid = SID) =>
  s.sessions.getSnapshot().sessions.find((x) => x.id === sid)?.modes[0]?.iteration;
const ready = (s: OmcStore) =>
  waitFor(() => s.status.getSnapshot().watchMode === 'events' || s.status.getSnapshot().watchMode === 'polling', {
    what: 'watcher ready',
  });

describe('live sessions', () => {
  it('picks up a new session directory and its state file', async ({ emptyProject: p, newStore }) => {
    const s = open(p, newStore);
    await ready(s);
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(1));
    await waitFor(() => iterationOf(s) === 1, { what: 'new session' });
  });

  it('shows the final value of two writes 5 ms apart (chokidar drops the second; the trailing re-read catches it)', async ({
    emptyProject: p,
    newStore,
  }) => {
    const s = open(p, newStore);
    const file = path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json');
    writeOmcJson(file, ralph(1));
    await ready(s);
    await waitFor(() => iterationOf(s) === 1);
    for (let round = 2; round < 12; round += 2) {
      writeOmcJson(file, ralph(round));
      const t = Date.now();
      while (Date.now() - t < 5) {
        /* busy-wait: the second write must land inside chokidar's 50 ms window */
      }
      writeOmcJson(file, ralph(round + 1));
      await waitFor(() => iterationOf(s) === round + 1, { what: `iteration ${round + 1}`, timeoutMs: 2000 });
    }
  });

  it('removes a session whose directory is deleted', async ({ emptyProject: p, newStore }) => {
    const s = open(p, newStore);
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(1));
    await ready(s);
    await waitFor(() => iterationOf(s) === 1);
    fs.rmSync(path.join(p.root, 'state', 'sessions', SID), { recursive: true });
    await waitFor(() => !s.sessions.getSnapshot().sessions.some((x) => x.id === SID), { what: 'session gone' });
  });

  it('keeps the last good value and shows a problem only when a broken file stays broken', async ({
    emptyProject: p,
    newStore,
  }) => {
    const s = open(p, newStore);
    const file = path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json');
    writeOmcJson(file, ralph(3));
    await ready(s);
    await waitFor(() => iterationOf(s) === 3);
    fs.writeFileSync(file, '{"active": true, "iteration": 4, "max_it');
    const problem = await waitFor(
      () => s.sessions.getSnapshot().problems.find((x) => x.path.endsWith('ralph-state.json')),
      { what: 'problem line' },
    );
    expect(problem.message).toMatch(/truncated JSON/);
    expect(iterationOf(s)).toBe(3);
    writeOmcJson(file, ralph(5));
    await waitFor(() => iterationOf(s) === 5 && s.sessions.getSnapshot().problems.length === 0, { what: 'recovered' });
  });

  it('a rescan that finds nothing new publishes nothing (idle polling costs no re-render)', ({
    project: p,
    newStore,
  }) => {
    const store = newStore({ root: p.root, watch: 'none' });
    store.start();
    const before = store.sessions.getSnapshot();
    store.sessions.scan();
    store.sessions.scan();
    expect(store.sessions.getSnapshot()).toBe(before);
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(1));
    store.sessions.scan();
    expect(store.sessions.getSnapshot().version).toBe(before.version + 1);
  });

  it('polls when asked to, and says so', async ({ emptyProject: p, newStore }) => {
    const s = open(p, newStore, 'poll');
    expect(s.status.getSnapshot().watchMode).toBe('polling');
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(7));
    await waitFor(() => iterationOf(s) === 7, { what: 'polled change', timeoutMs: 3000 });
  });

  it('falls back to polling and announces it when the kernel refuses watches (ENOSPC)', async ({ emptyProject: p }) => {
    const fake = () => {
      const em = new EventEmitter() as EventEmitter & { close(): Promise<void> };
      em.close = async () => undefined;
      setImmediate(() => em.emit('error', Object.assign(new Error('watch limit'), { code: 'ENOSPC' })));
      return em;
    };
    // Reach into the watcher through the store's options by constructing the watcher directly.
    const { startTreeWatcher } = await import('../../src/io/watch/tree-watcher.js');
    const modes: string[] = [];
    const w = startTreeWatcher({
      root: p.root,
      wants: () => true,
      onEvents: () => undefined,
      onRescan: () => undefined,
      onMode: (m, detail) => modes.push(`${m}: ${detail}`),
      watchImpl: fake as never,
    });
    await waitFor(() => modes.some((m) => m.startsWith('polling')), { what: 'polling fallback' });
    expect(modes.find((m) => m.startsWith('polling'))).toMatch(/inotify watch limit reached \(ENOSPC\)/);
    await w.close();
  });
});

describe('hostile session trees', () => {
  it('names bad session directories, files-as-directories and binary files without losing healthy sessions', ({
    emptyProject: p,
    newStore,
  }) => {
    const sessions = path.join(p.root, 'state', 'sessions');
    writeOmcJson(path.join(sessions, SID, 'ralph-state.json'), ralph(2));
    fs.mkdirSync(path.join(sessions, 'bad id with spaces'));
    fs.mkdirSync(path.join(sessions, '-leading-dash'));
    fs.mkdirSync(path.join(sessions, 'esc\u001b[31m'));
    fs.mkdirSync(path.join(sessions, 'b0000000-0000-4000-8000-000000000002', 'ultrawork-state.json'), {
      recursive: true,
    });
    fs.mkdirSync(path.join(sessions, 'c0000000-0000-4000-8000-000000000003'));
    fs.writeFileSync(
      path.join(sessions, 'c0000000-0000-4000-8000-000000000003', 'ralph-state.json'),
      Buffer.from([0x7b, 0, 0x7d]),
    );
    fs.writeFileSync(path.join(sessions, 'd0000000-0000-4000-8000-000000000004'), 'not a dir');
    const store = newStore({ root: p.root, watch: 'none' });
    store.start();
    const snap = store.sessions.getSnapshot();
    expect(iterationOf(store)).toBe(2);
    const msgs = snap.problems.map((x) => `${x.path}: ${x.message}`);
    expect(msgs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/bad id with spaces: directory name is not a valid OMC session id/),
        expect.stringMatching(/-leading-dash: directory name is not a valid OMC session id/),
        expect.stringMatching(/ultrawork-state\.json: is a directory where a state file was expected/),
        expect.stringMatching(/c0000000.*ralph-state\.json: contains NUL bytes/),
        expect.stringMatching(/d0000000.*: a file where a session directory was expected/),
      ]),
    );
    // The escape sequence in a directory name never reaches a problem line.
    expect(msgs.join('\n')).not.toMatch(/\u001b/);
    expect(snap.sessions.some((s) => s.id.includes('bad id'))).toBe(false);
  });

  it('reads wrong types defensively: string numbers coerced, objects ignored, never a crash', ({
    emptyProject: p,
    newStore,
  }) => {
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), {
      active: true,
      iteration: '4',
      max_iterations: { nested: true },
      current_phase: ['not', 'a', 'string'],
      started_at: 12345,
      prompt: '\u001b]52;c;cHduZWQ=\u0007steal clipboard',
    });
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'autopilot-state.json'), null);
    const store = newStore({ root: p.root, watch: 'none' });
    store.start();
    const s = store.sessions.getSnapshot().sessions.find((x) => x.id === SID)!;
    const m = s.modes.find((x) => x.mode === 'ralph')!;
    expect([m.iteration, m.max, m.phase]).toEqual([4, null, null]);
    expect(m.prompt).toBe('steal clipboard');
    expect(store.sessions.getSnapshot().problems.map((x) => x.message)).toContain('expected a JSON object, found null');
  });
});

describe('the tree changing shape under a running monitor', () => {
  it('the .omc root deleted and re-created: the sessions seen are kept, unreadable, the status says so, then everything comes back', async ({
    emptyProject: p,
    newStore,
  }) => {
    const s = open(p, newStore);
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(2));
    await ready(s);
    await waitFor(() => iterationOf(s) === 2);
    fs.rmSync(p.root, { recursive: true });
    await waitFor(() => s.status.getSnapshot().watchMode === 'waiting', { what: 'waiting status' });
    const words = s.status.getSnapshot().watchDetail;
    expect(words).toMatch(/is gone \(moved away or removed\); waiting for it to come back/);
    // Out of sight with its root, not gone: its last progress, unreadable, the root's words as why.
    await waitFor(() => s.sessions.getSnapshot().sessions[0]?.unreadableWhy === words, { what: 'the session kept' });
    expect(s.sessions.getSnapshot().sessions.map((v) => [v.id, v.status, v.unreadable, v.unreadableAbove])).toEqual([
      [SID, 'unreadable', ['.omc'], '.omc'],
    ]);
    expect(iterationOf(s)).toBe(2);
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(5));
    await waitFor(() => iterationOf(s) === 5, { what: 'session back after re-creation' });
    await waitFor(() => s.status.getSnapshot().watchMode === 'events', { what: 'live again' });
    // And it is really live again, not just rescanned once.
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(6));
    await waitFor(() => iterationOf(s) === 6, { what: 'live after re-creation' });
  });

  it('the .omc root deleted and re-created at once, 8 times: each time the new tree is shown and then followed live', async ({
    emptyProject: p,
    newStore,
  }) => {
    // `rm -rf .omc && mkdir .omc` in one go: the parent's events arrive after both, and ext4 hands the new
    // directory the inode the old one just freed, so (device, inode) alone sees "the same root".
    const s = open(p, newStore);
    const file = () => path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json');
    writeOmcJson(file(), ralph(1));
    await ready(s);
    await waitFor(() => iterationOf(s) === 1);
    for (let round = 1; round <= 8; round++) {
      fs.rmSync(p.root, { recursive: true });
      writeOmcJson(file(), ralph(round * 10));
      await waitFor(() => iterationOf(s) === round * 10, {
        what: `round ${round}: the re-created tree`,
        timeoutMs: 15_000,
      });
      await waitFor(() => s.status.getSnapshot().watchMode === 'events', {
        what: `round ${round}: live again`,
        timeoutMs: 15_000,
      });
      writeOmcJson(file(), ralph(round * 10 + 1));
      await waitFor(() => iterationOf(s) === round * 10 + 1, {
        what: `round ${round}: a change after it, live`,
        timeoutMs: 15_000,
      });
    }
  }, 180_000);

  it('state/sessions replaced by a file: a specific problem line, and recovery when it is a directory again', async ({
    emptyProject: p,
    newStore,
  }) => {
    const s = open(p, newStore);
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(2));
    await ready(s);
    await waitFor(() => iterationOf(s) === 2);
    fs.rmSync(path.join(p.root, 'state', 'sessions'), { recursive: true });
    fs.writeFileSync(path.join(p.root, 'state', 'sessions'), 'oops');
    const problem = await waitFor(() => s.sessions.getSnapshot().problems.find((x) => x.path === 'state/sessions'), {
      what: 'problem line',
    });
    expect(problem.message).toBe('is a file where a directory was expected');
    fs.rmSync(path.join(p.root, 'state', 'sessions'));
    writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), ralph(3));
    await waitFor(() => iterationOf(s) === 3 && s.sessions.getSnapshot().problems.length === 0, { what: 'recovered' });
  });

  it('a hostile session directory appearing live is named as a problem without a restart', async ({
    emptyProject: p,
    newStore,
  }) => {
    const s = open(p, newStore);
    await ready(s);
    fs.mkdirSync(path.join(p.root, 'state', 'sessions', '../..\u001b]0;x\u0007'.replace(/[/]/g, '_')));
    const problem = await waitFor(() => s.sessions.getSnapshot().problems[0], { what: 'problem line' });
    expect(problem.message).toMatch(/not a valid OMC session id/);
    expect(problem.path).not.toMatch(/\u001b|\u0007/);
  });
});

describe('sliced first scan', () => {
  it('reads a big tree in slices, says how far it got, and ends with exactly what a full scan sees', ({
    emptyProject: p,
  }) => {
    writeLiveLoops(p.root, 120);
    const sliced = new OmcStore({ root: p.root, watch: 'none', sessions: { stepPublishMs: 0, firstStepMinRows: 0 } });
    let steps = 0;
    const seen: Array<{ done: number; total: number } | null | undefined> = [];
    // A zero budget reads one directory per step: the worst case for slicing.
    while (!sliced.sessions.scanStep(performance.now())) {
      steps += 1;
      seen.push(sliced.sessions.getSnapshot().scanning);
    }
    expect(steps).toBeGreaterThan(100);
    expect(seen[0]).toMatchObject({ total: 120 });
    expect(seen.at(-1)?.done).toBeGreaterThan(100);
    expect(sliced.sessions.getSnapshot().scanning).toBeNull();

    const full = new OmcStore({ root: p.root, watch: 'none' });
    full.start();
    const ids = (s: OmcStore) => s.sessions.getSnapshot().sessions.map((x) => `${x.id}:${x.modes[0]?.iteration}`);
    expect(ids(sliced)).toEqual(ids(full));
    void full.close();
    void sliced.close();
  });

  it('the first step lists a screenful of sessions even when its time is up (its rows are the first frame)', ({
    emptyProject: p,
  }) => {
    writeLiveLoops(p.root, 120);
    const sliced = new OmcStore({ root: p.root, watch: 'none' });
    // A deadline already past: a loaded machine, or a slow first listing.
    expect(sliced.sessions.scanStep(performance.now() - 1)).toBe(false);
    const first = sliced.sessions.getSnapshot();
    expect(first.sessions.length).toBeGreaterThanOrEqual(64);
    expect(first.scanning).toMatchObject({ total: 120 });
    // Later steps keep to their deadline.
    const before = sliced.sessions.getSnapshot().scanning?.done ?? 0;
    expect(sliced.sessions.scanStep(performance.now() - 1)).toBe(false);
    expect(sliced.sessions['progress']?.done).toBe(before + 1);
    void sliced.close();
  });

  it("the progressive start's first slice reads a screenful and no more (its rows are the first frame)", async ({
    emptyProject: p,
  }) => {
    for (let i = 0; i < 200; i++) {
      const sid = `s${String(i).padStart(4, '0')}-0000-4000-8000-000000000000`;
      writeOmcJson(path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json'), { ...ralph(i), session_id: sid });
    }
    const store = new OmcStore({ root: p.root, watch: 'none' });
    store.start({ progressive: true }); // the first slice runs before start() returns
    const first = store.sessions.getSnapshot();
    expect(first.sessions).toHaveLength(64);
    expect(first.scanning).toEqual({ done: 64, total: 200 });
    expect(store.status.getSnapshot().reading).toBe('reading 64/200');
    // The rest follows in later slices.
    await waitFor(() => store.sessions.getSnapshot().sessions.length === 200, { what: 'every session read' });
    await store.close();
  });

  it("an 80x24 terminal's first slice reads 24 session directories, a tall one 64 at most (firstStepRows)", async ({
    emptyProject: p,
  }) => {
    expect([24, 40, 60, 64, 200].map(firstStepRows)).toEqual([24, 40, 60, 64, 64]);
    // No terminal size known (not a terminal, a nonsense value): a screenful of the tallest kind.
    expect([undefined, 0, -3, Number.NaN].map(firstStepRows)).toEqual([64, 64, 64, 64]);
    writeLiveLoops(p.root, 100);
    const store = new OmcStore({ root: p.root, watch: 'none', sessions: { firstStepMinRows: firstStepRows(24) } });
    store.start({ progressive: true });
    expect(store.sessions.getSnapshot().scanning).toEqual({ done: 24, total: 100 });
    expect(store.sessions.getSnapshot().sessions).toHaveLength(24);
    await waitFor(() => store.sessions.getSnapshot().sessions.length === 100, { what: 'every session read' });
    await store.close();
  });

  it('publishes the sliced read per CPU time it spent, not per wall-clock time: waiting on a loaded machine adds no picture', ({
    emptyProject: p,
  }) => {
    writeLiveLoops(p.root, 40);
    const sliced = new OmcStore({ root: p.root, watch: 'none', sessions: { firstStepMinRows: 0 } });
    // Each publish is a new snapshot (listeners are told later, on a microtask: count the snapshots).
    const versions = new Set<number>();
    const off = new Int32Array(new SharedArrayBuffer(4));
    let steps = 0;
    // One directory per step, and between steps 250 ms in which this process runs nothing (another process has
    // the core): more than the 200 ms cadence on the wall clock, a few ms of CPU time.
    while (!sliced.sessions.scanStep(performance.now())) {
      versions.add(sliced.sessions.getSnapshot().version);
      steps += 1;
      if (steps <= 10) Atomics.wait(off, 0, 0, 250);
    }
    expect(steps).toBeGreaterThan(30);
    // The first step's picture, then none until 200 ms of CPU time (a wall-clock cadence gave one after each wait).
    expect(versions.size).toBeLessThanOrEqual(3);
    expect(sliced.sessions.getSnapshot().sessions).toHaveLength(40);
    void sliced.close();
  });
});
