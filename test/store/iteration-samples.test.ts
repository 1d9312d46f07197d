/** omc-top's own iteration samples: outside .omc, bounded, damage-tolerant, and used by the history. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { IterationSamples, MAX_RUNS, MAX_TIMES, samplesDir } from '../../src/store/runs/samples.js';
import { enableIterationSamples } from '../../src/feeds/iteration-sampling.js';
import { OmcStore } from '../../src/store/store.js';
import { waitFor, writeOmcJson } from '../helpers/fixtures.js';
import * as omc56 from '../helpers/omc56.js';
import { scaled } from '../helpers/time-scale.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-samples-'));
  dirs.push(d);
  return d;
};

/** A ralph loop of session `sid` in project `p`, rewritten at each iteration as OMC does; `shown(n)`: the store has read n. */
function ralphLoop(p: { root: string }, sid: string) {
  const started = new Date(Date.now() - 60_000).toISOString();
  const file = path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json');
  const write = (iteration: number) =>
    writeOmcJson(file, { active: true, session_id: sid, started_at: started, last_checked_at: started, iteration });
  const shown = (store: OmcStore, n: number) =>
    store.sessions.getSnapshot().sessions.some((s) => s.modes.some((m) => m.iteration === n));
  return { write, shown };
}

describe('iteration samples', () => {
  it('live in $XDG_STATE_HOME/omc-top (or ~/.local/state/omc-top)', () => {
    expect(samplesDir({ XDG_STATE_HOME: '/x/state' }, '/home/u')).toBe('/x/state/omc-top');
    expect(samplesDir({ XDG_STATE_HOME: 'relative' }, '/home/u')).toBe('/home/u/.local/state/omc-top');
    expect(samplesDir({}, '/home/u')).toBe('/home/u/.local/state/omc-top');
  });

  it('round-trips, stays bounded, and ignores a damaged file', () => {
    const dir = path.join(tmp(), 'omc-top');
    const s = new IterationSamples(dir, '/proj/.omc');
    for (let r = 0; r < MAX_RUNS + 50; r++) s.record('ralph', `s${r}`, 1000 * r, 1, r);
    for (let i = 0; i < MAX_TIMES + 30; i++) s.record('ralph', 'last', 5, i, 10_000 + i);
    expect(s.flush()).toBe(true);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const again = new IterationSamples(dir, '/proj/.omc');
    expect(again.all()).toHaveLength(MAX_RUNS);
    expect(again.iterationsOf('ralph', 'last', 5)).toBe(MAX_TIMES + 29);
    expect(again.all().find((r) => r.sessionId === 'last')!.times).toHaveLength(MAX_TIMES);
    expect(again.iterationsOf('ralph', 's0', 0)).toBeNull(); // dropped by the bound
    fs.writeFileSync(path.join(dir, again.file), '{"version":1,"runs":[{"mode":5}, null, "x"');
    expect(new IterationSamples(dir, '/proj/.omc').all()).toEqual([]);
  });

  it('a mode with no iteration keeps the window it was seen live in: to its end, else to the last change seen', () => {
    const dir = path.join(tmp(), 'omc-top');
    const s = new IterationSamples(dir, '/proj/.omc');
    expect(s.record('ultrawork', 'a', 1_000, null, 2_000)).toBe(true); // new: written
    expect(s.record('ralplan', 'b', 1_000, null, 2_000)).toBe(true);
    expect(s.record('ralplan', 'b', 1_000, null, 5_000)).toBe(true); // its state changed: seen live later
    expect(s.iterationsOf('ultrawork', 'a', 1_000)).toBeNull(); // no iteration is claimed
    expect(s.sawEnd('ultrawork', 'a', 1_000, 9_000)).toBe(true);
    expect(s.flush()).toBe(true);
    const again = new IterationSamples(dir, '/proj/.omc');
    expect(again.of('a')).toEqual([{ mode: 'ultrawork', fromMs: 1_000, toMs: 9_000 }]);
    expect(again.of('b')).toEqual([{ mode: 'ralplan', fromMs: 1_000, toMs: 5_000 }]); // its end unseen
  });

  it('written in the background: after a burst of records the newest state is on disk, and no temp is left', async () => {
    const dir = path.join(tmp(), 'omc-top');
    const s = new IterationSamples(dir, '/proj/.omc');
    for (let i = 1; i <= 40; i++) {
      s.record('ralph', 'a', 5, i, 1000 + i);
      s.flushSoon();
    }
    await s.settled();
    const again = new IterationSamples(dir, '/proj/.omc');
    expect(again.iterationsOf('ralph', 'a', 5)).toBe(40);
    expect(fs.readdirSync(dir)).toEqual([s.file]);
    expect(s.flush(), 'nothing left for the exit to write').toBe(false);
  });

  it('a failed background write keeps the values, leaves no temp, and the exit flush writes them', async () => {
    const dir = path.join(tmp(), 'omc-top');
    const s = new IterationSamples(dir, '/proj/.omc');
    s.record('ralph', 'a', 5, 1, 1000);
    expect(s.flush()).toBe(true);
    fs.rmSync(path.join(dir, s.file));
    fs.mkdirSync(path.join(dir, s.file)); // a directory where the file goes: the write is refused
    s.record('ralph', 'a', 5, 2, 2000);
    expect(s.flushSoon()).toBe(true); // no throw: the failure arrives in the background
    await s.settled();
    expect(s.iterationsOf('ralph', 'a', 5)).toBe(2);
    expect(fs.readdirSync(dir)).toEqual([s.file]);
    fs.rmdirSync(path.join(dir, s.file));
    expect(s.flush()).toBe(true);
    expect(new IterationSamples(dir, '/proj/.omc').iterationsOf('ralph', 'a', 5)).toBe(2);
  });

  it('an ended run shows the iterations omc-top saw while it was live', async ({ emptyProject: p }) => {
    const state = tmp();
    const sid = 'abcdef01-0000-4000-8000-000000000009';
    const started = new Date(Date.now() - 60_000).toISOString();
    const file = path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json');
    const now = new Date().toISOString();
    writeOmcJson(file, { active: true, session_id: sid, started_at: started, last_checked_at: now, iteration: 7 });
    omc56.start(p.root, 'ralph', sid, started);
    const store = new OmcStore({ root: p.root, watch: 'none', projectDir: p.dir, rootRule: 'git' });
    const stop = enableIterationSamples(store, { XDG_STATE_HOME: state });
    store.start();
    // The sample is taken when the sessions snapshot notifies.
    await waitFor(
      () => fs.existsSync(path.join(state, 'omc-top')) && fs.readdirSync(path.join(state, 'omc-top')).length === 1,
      {
        timeoutMs: 20_000,
        what: 'the samples file',
      },
    );
    stop();
    await store.close();
    // The run ends (OMC deletes the state); a fresh monitor still knows how far it got.
    omc56.observeClear(p.root, 'ralph', sid, { active: true, started_at: started }, new Date().toISOString());
    fs.rmSync(file);
    const next = new OmcStore({ root: p.root, watch: 'none', projectDir: p.dir, rootRule: 'git' });
    enableIterationSamples(next, { XDG_STATE_HOME: state })();
    next.start();
    expect(next.runs.runs()[0]).toMatchObject({ mode: 'ralph', outcome: 'cancelled', iterations: 7 });
    await next.close();
  });

  // Five reads in a row, each waited for (not slept): the test's own ceiling covers them all, scaled to the machine.
  it(
    'iterations faster than one write a second: every one is sampled, the last is on disk after stop',
    { timeout: scaled(120_000) },
    async ({ emptyProject: p }) => {
      const state = tmp();
      const sid = 'abcdef01-0000-4000-8000-00000000000a';
      const { write, shown } = ralphLoop(p, sid);
      write(1);
      const store = new OmcStore({ root: p.root, watch: 'auto', projectDir: p.dir, rootRule: 'git' });
      const stop = enableIterationSamples(store, { XDG_STATE_HOME: state });
      try {
        store.start();
        // Iteration 1 read before 2 is written: a start slowed by a loaded machine would otherwise read 2 first, and
        // 1 was never there to sample.
        await waitFor(() => shown(store, 1), { timeoutMs: 20_000, what: 'iteration 1 read' });
        for (let i = 2; i <= 6; i++) {
          write(i);
          await waitFor(() => shown(store, i), { timeoutMs: 20_000, what: `iteration ${i} read` });
        }
      } finally {
        stop();
        await store.close();
      }
      const again = new IterationSamples(path.join(state, 'omc-top'), p.root);
      const run = again.all().find((r) => r.sessionId === sid);
      expect(run?.maxIteration).toBe(6);
      expect(run?.times.map(([it]) => it)).toEqual([1, 2, 3, 4, 5, 6]);
    },
  );

  it('stop takes the snapshot its subscribers were not yet told of (they hear a macrotask later)', async ({
    emptyProject: p,
  }) => {
    const state = tmp();
    const sid = 'abcdef01-0000-4000-8000-00000000000b';
    const { write, shown } = ralphLoop(p, sid);
    write(1);
    const store = new OmcStore({ root: p.root, watch: 'auto', projectDir: p.dir, rootRule: 'git' });
    // The sampler subscribes here; holding its notifications back is the moment between a snapshot and its news.
    store.sessions.subscribe = () => () => undefined;
    const stop = enableIterationSamples(store, { XDG_STATE_HOME: state });
    try {
      store.start();
      write(2);
      await waitFor(() => shown(store, 2), { timeoutMs: 20_000, what: 'iteration 2 read' });
    } finally {
      stop();
      await store.close();
    }
    const run = new IterationSamples(path.join(state, 'omc-top'), p.root).all().find((r) => r.sessionId === sid);
    expect(run?.maxIteration).toBe(2);
  });

  it('more live loops than the samples keep: a view that changed without a new iteration writes nothing', async ({
    emptyProject: p,
  }) => {
    const state = tmp();
    const started = new Date(Date.now() - 60_000).toISOString();
    const sidOf = (i: number) => `abcdef01-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const fileOf = (i: number) => path.join(p.root, 'state', 'sessions', sidOf(i), 'ralph-state.json');
    const write = (i: number, prompt: string) =>
      writeOmcJson(fileOf(i), {
        active: true,
        session_id: sidOf(i),
        started_at: started,
        last_checked_at: started,
        iteration: 3,
        prompt,
      });
    for (let i = 0; i < MAX_RUNS + 20; i++) write(i, 'ralph: x');
    const store = new OmcStore({ root: p.root, watch: 'auto', projectDir: p.dir, rootRule: 'git' });
    const stop = enableIterationSamples(store, { XDG_STATE_HOME: state });
    // The write runs in the background: its temp file is there while it is written, and is not the samples file.
    const listed = () => fs.readdirSync(path.join(state, 'omc-top'));
    const samplesFile = () =>
      listed().some((f) => f.includes('.tmp.')) ? [] : listed().map((f) => path.join(state, 'omc-top', f));
    try {
      store.start();
      await waitFor(() => store.sessions.getSnapshot().sessions.length === MAX_RUNS + 20, {
        timeoutMs: 30_000,
        what: 'every session',
      });
      const [file] = await waitFor(
        () => fs.existsSync(path.join(state, 'omc-top')) && samplesFile().length > 0 && samplesFile(),
        {
          timeoutMs: 20_000,
          what: 'the first samples written',
        },
      );
      const before = fs.statSync(file!).mtimeMs;
      const ino = fs.statSync(file!).ino;
      // The first session listed is the run the bound dropped first; its view changes, its iteration does not.
      const first = store.sessions.getSnapshot().sessions[0]!;
      const i = Number(first.id.slice(-12));
      write(i, 'ralph: reworded');
      await waitFor(() => store.sessions.getSnapshot().sessions.some((s) => s.id === first.id && s !== first), {
        timeoutMs: 20_000,
        what: 'the rewritten state read',
      });
      stop();
      const after = fs.statSync(file!);
      expect({ mtimeMs: after.mtimeMs, ino: after.ino }, 'the samples file, untouched').toEqual({
        mtimeMs: before,
        ino,
      });
    } finally {
      stop();
      await store.close();
    }
  });

  it('a read-only monitor writes no samples', ({ emptyProject: p }) => {
    const state = tmp();
    const store = new OmcStore({ root: p.root, watch: 'none', readonly: true, projectDir: p.dir });
    enableIterationSamples(store, { XDG_STATE_HOME: state });
    expect(fs.readdirSync(state)).toEqual([]);
  });
});
