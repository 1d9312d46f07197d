/**
 * The progressive start (the full-screen app's) is live from its first slice: a change written while the
 * tree is still being read is never lost, whether its session was already read, not read yet, or being
 * listed at that very moment; and a change to a row already on screen shows before the read is complete.
 *
 * No timing is asserted: the read is held at a known point (a wrapped `scanStep` that stops advancing)
 * until a condition is seen or a generous bound passes, and every wait is on a condition.
 */
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { liveRalph, makeProject, type TempProject, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { sessionId } from '../helpers/sessions-gen.js';

let p: TempProject | null = null;
let store: OmcStore | null = null;
afterEach(async () => {
  await store?.close();
  p?.cleanup();
  store = null;
  p = null;
});

const N = 300;
const ralph = (sid: string, iteration: number) => liveRalph({ sessionId: sid, iteration, max: 1000 });
const file = (root: string, sid: string, name = 'ralph-state.json') => path.join(root, 'state', 'sessions', sid, name);

function tree(): TempProject {
  const proj = makeProject();
  for (let i = 1; i <= N; i++) writeOmcJson(file(proj.root, sessionId(i)), ralph(sessionId(i), 1));
  return proj;
}

const view = (s: OmcStore, sid: string) => s.sessions.getSnapshot().sessions.find((x) => x.id === sid);
const iterationOf = (s: OmcStore, sid: string) => view(s, sid)?.modes.find((m) => m.mode === 'ralph')?.iteration;
const reading = (s: OmcStore) => s.sessions.getSnapshot().scanning !== null || !!s.status.getSnapshot().reading;
const live = (s: OmcStore) => !reading(s) && s.status.getSnapshot().watchMode === 'events';

/**
 * Holds the sliced read once `hold()` says so, without reading further, until `release()` says so (or 30 s
 * pass: then the test fails on what it expected, never hangs). The store keeps yielding between slices, so
 * the watcher's events are delivered meanwhile.
 */
function holdReading(s: OmcStore, hold: () => boolean, release: () => boolean): { held: () => boolean } {
  const orig = s.sessions.scanStep.bind(s.sessions);
  let heldSince: number | null = null;
  let everHeld = false;
  s.sessions.scanStep = (deadline: number) => {
    if (heldSince === null && hold()) heldSince = Date.now();
    if (heldSince !== null) {
      everHeld = true;
      if (!release() && Date.now() - heldSince < 30_000) return false;
      heldSince = -1; // released for good
    }
    // One directory per step while not held, so the read stays long enough to be caught in the middle.
    return orig(heldSince === -1 ? deadline : 0);
  };
  return { held: () => everHeld };
}

describe('progressive start: watch first, then read', () => {
  it('a change to a session already read shows while the rest is still being read', async () => {
    p = tree();
    const root = p.root;
    const s = new OmcStore({ root, sessions: { stepPublishMs: 0 } });
    store = s;
    let early: string | null = null;
    let shownWhileReading = false;
    const h = holdReading(
      s,
      () => (s.sessions.getSnapshot().scanning?.done ?? 0) >= 100,
      // Only called while the read is held: the change is on the snapshot before the read is complete.
      () => (shownWhileReading ||= early !== null && iterationOf(s, early) === 7),
    );
    s.start({ progressive: true });
    await waitFor(() => h.held(), { what: 'the read held at 100 sessions', timeoutMs: 60_000 });
    expect(reading(s)).toBe(true);
    // A session on screen already: its directory was listed before this write, only the watch can bring it in.
    early = s.sessions.getSnapshot().sessions[0]?.id ?? null;
    expect(early).not.toBeNull();
    writeOmcJson(file(root, early as string), ralph(early as string, 7));
    await waitFor(() => live(s), { what: 'live', timeoutMs: 60_000 });
    expect(shownWhileReading).toBe(true);
    expect(iterationOf(s, early as string)).toBe(7);
  });

  it('no change is lost: to sessions read, not read yet, being listed, created and removed during the read', async () => {
    p = tree();
    const root = p.root;
    const s = new OmcStore({ root, sessions: { stepPublishMs: 0 } });
    store = s;
    const read = sessionId(2);
    const gone = sessionId(3);
    const unread = sessionId(N - 1);
    const listing = sessionId(150);
    const fresh = 'f0000000-0000-4000-8000-00000000beef';
    // The moment between a directory's watch and its listing: the narrowest window there is.
    let inner: ((rel: string) => boolean) | null = null;
    let listed = false;
    Object.defineProperty(s.sessions, 'watchLeaves', {
      configurable: true,
      get: () =>
        inner === null
          ? null
          : (rel: string) => {
              const ok = (inner as (r: string) => boolean)(rel);
              if (rel.endsWith(listing) && !listed) {
                listed = true;
                writeOmcJson(file(root, listing), ralph(listing, 5));
                writeOmcJson(file(root, listing, 'ultrawork-state.json'), {
                  active: true,
                  started_at: new Date().toISOString(),
                  original_prompt: 'ulw',
                  session_id: listing,
                });
              }
              return ok;
            },
      set: (fn: ((rel: string) => boolean) | null) => {
        inner = fn;
      },
    });
    let wrote = false;
    const h = holdReading(
      s,
      () => (s.sessions.getSnapshot().scanning?.done ?? 0) >= 100,
      () => wrote && iterationOf(s, read) === 9 && view(s, gone) === undefined,
    );
    s.start({ progressive: true });
    await waitFor(() => h.held(), { what: 'the read held at 100 sessions', timeoutMs: 60_000 });
    writeOmcJson(file(root, read), ralph(read, 9));
    fs.rmSync(path.dirname(file(root, gone)), { recursive: true });
    writeOmcJson(file(root, unread), ralph(unread, 4));
    writeOmcJson(file(root, fresh), ralph(fresh, 2));
    // Session-less state, in a directory the sliced read had already listed.
    writeOmcJson(path.join(root, 'state', 'ultraqa-state.json'), {
      active: true,
      started_at: new Date().toISOString(),
      cycle: 1,
      max_cycles: 5,
    });
    wrote = true;
    await waitFor(() => live(s), { what: 'live', timeoutMs: 60_000 });
    expect(listed).toBe(true);
    await waitFor(
      () =>
        iterationOf(s, read) === 9 &&
        view(s, gone) === undefined &&
        iterationOf(s, unread) === 4 &&
        iterationOf(s, fresh) === 2 &&
        iterationOf(s, listing) === 5 &&
        view(s, listing)?.modes.some((m) => m.mode === 'ultrawork'),
      { what: 'every change on the snapshot', timeoutMs: 30_000 },
    );
    expect(s.sessions.getSnapshot().sessions).toHaveLength(N + 1); // one removed, one created, the session-less row
    // The snapshot is what a fresh one-shot read of the tree sees, session by session.
    const full = new OmcStore({ root, watch: 'none' });
    full.start();
    const picture = (x: OmcStore) =>
      x.sessions
        .getSnapshot()
        .sessions.map((v) => `${v.id}:${v.modes.map((m) => `${m.mode}=${m.iteration ?? ''}`).join(',')}`)
        .sort();
    expect(picture(s)).toEqual(picture(full));
    await full.close();
  });

  it('a wiki page written while the wiki is being read (after its listing) stays: the end of the read does not drop it', async () => {
    p = makeProject({ withFixture: true });
    const wiki = path.join(p.root, 'wiki');
    const s = new OmcStore({ root: p.root, sessions: { stepPublishMs: 0 } });
    store = s;
    const names = () => s.wiki.getSnapshot().pages.map((x) => x.filename);
    const page = (title: string) =>
      `---\ntitle: "${title}"\ntags: ["startup"]\ncreated: 2026-12-01T10:00:00.000Z\nupdated: 2026-12-01T10:00:00.000Z\nsources: []\nlinks: []\ncategory: reference\nconfidence: medium\nschemaVersion: 1\n---\n\n# ${title}\n\nWritten during start-up.\n`;
    const orig = s.wiki.scanStep.bind(s.wiki);
    let steps = 0;
    let wrote = false;
    s.wiki.scanStep = () => {
      steps += 1;
      // After the listing and the first page: write a new page, then hold until the watcher has read it.
      if (steps === 2 && !wrote) {
        wrote = true;
        fs.writeFileSync(path.join(wiki, 'written-during-startup.md'), page('Written during start-up'));
      }
      if (wrote && !names().includes('written-during-startup.md')) {
        return false; // bounded by the waitFor below
      }
      return orig(0);
    };
    s.start({ progressive: true });
    await waitFor(() => live(s), { what: 'live', timeoutMs: 60_000 });
    expect(wrote).toBe(true);
    expect(names()).toContain('written-during-startup.md');
    expect(s.wiki.search('startup').hits.map((h) => h.page.filename)).toContain('written-during-startup.md');
  });

  it('the footer status says what is being read; a file written after its domain was read, before the watcher is ready, is not lost', async () => {
    p = tree();
    // chokidar's `ready` is held until that write is done: the write falls between the read and the watches.
    let wroteMemory = false;
    const held: (() => void)[] = [];
    const watchImpl = ((...args: Parameters<typeof watch>) => {
      const w = watch(...args);
      const on = w.on.bind(w) as (ev: string, cb: (...a: unknown[]) => void) => FSWatcher;
      (w as unknown as { on: typeof on }).on = (ev, cb) =>
        ev === 'ready' ? on('ready', (...a) => (wroteMemory ? cb(...a) : held.push(() => cb(...a)))) : on(ev, cb);
      return w;
    }) as typeof watch;
    const s = new OmcStore({ root: p.root, sessions: { stepPublishMs: 0 }, watchImpl });
    store = s;
    const readings = new Set<string>();
    s.status.subscribe(() => {
      const r = s.status.getSnapshot().reading;
      if (r) readings.add(r.replace(/[0-9,]+\//, 'n/'));
    });
    holdReading(
      s,
      () => false,
      () => true,
    ); // one directory per slice: many slices, each with its progress
    // Right after project memory's first read (the watches may not be up yet): only a second look can see it.
    const memoryScan = s.memory.scan.bind(s.memory);
    s.memory.scan = () => {
      memoryScan();
      if (wroteMemory) return;
      writeOmcJson(path.join(p!.root, 'project-memory.json'), { version: '1.0.0', techStack: {}, directives: [] });
      wroteMemory = true;
      for (const release of held.splice(0)) release();
    };
    s.start({ progressive: true });
    expect(s.status.getSnapshot().reading).toMatch(/^reading /);
    await waitFor(() => live(s), { what: 'live', timeoutMs: 60_000 });
    expect([...readings]).toContain(`reading n/${N}`);
    expect(s.status.getSnapshot().reading ?? null).toBeNull();
    expect(wroteMemory).toBe(true);
    await waitFor(() => s.memory.getSnapshot().file !== 'missing', { what: 'memory seen' });
  });
});
