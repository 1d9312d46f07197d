/**
 * The selection while the sliced first read is under way (the full-screen app's progressive start). The first
 * frame shows only the sessions read so far; the rest arrive in later slices and many sort above them. Until
 * the user moves, the cursor stays on the top row (it does not ride the first frame's top row down the
 * list); once the user has moved, the selection is that session, whatever arrives above it.
 *
 * No timing is asserted: the read is held after a few directories (a wrapped `scanStep` that stops advancing)
 * until the test releases it, and every wait is on a condition.
 */
import path from 'node:path';
import { describe, expect, it, KEY, type Fixtures } from '../helpers/it.js';
import { OmcStore } from '../../src/store/store.js';
import type { MountedApp } from '../helpers/mount-app.js';
import { liveRalph, NO_CLAUDE_DIR, type TempProject, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { sessionId } from '../helpers/sessions-gen.js';

const N = 40;
const file = (root: string, sid: string) => path.join(root, 'state', 'sessions', sid, 'ralph-state.json');
const ralph = (sid: string, atMs: number) =>
  liveRalph({ sessionId: sid, iteration: 1, max: 1000, startedAt: atMs, checkedAt: atMs });

/** N running ralph sessions, each a second older than the one before: newest first is a known order. */
function tree(proj: TempProject): TempProject {
  const t0 = Date.now() - 10 * 60_000;
  for (let i = 1; i <= N; i++) writeOmcJson(file(proj.root, sessionId(i)), ralph(sessionId(i), t0 + i * 1000));
  return proj;
}

/**
 * Starts the store progressively, one directory per step, and holds the read once `heldAt` directories are
 * read until `release()` is called (or 30 s pass: then the test fails on what it expected, never hangs).
 */
function heldStart(root: string, heldAt: number) {
  const store = new OmcStore({
    root,
    watch: 'none',
    sessions: { stepPublishMs: 0, firstStepMinRows: 0 },
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
  });
  const orig = store.sessions.scanStep.bind(store.sessions);
  let released = false;
  let heldSince: number | null = null;
  store.sessions.scanStep = (deadline: number) => {
    const done = store.sessions.getSnapshot().scanning?.done ?? 0;
    if (!released && done >= heldAt) {
      heldSince ??= Date.now();
      if (Date.now() - heldSince < 30_000) return false;
    }
    return orig(released ? deadline : 0);
  };
  store.start({ progressive: true });
  return {
    store,
    held: () => heldSince !== null,
    release: () => {
      released = true;
    },
  };
}

const selectedLine = (a: MountedApp) => a.lines().find((l) => l.startsWith('▸')) ?? '';
const short = (sid: string) => sid.slice(0, 8);
const firstReadDone = (s: OmcStore) => !s.sessions.getSnapshot().scanning && !s.status.getSnapshot().reading;

/** A tree whose first read is held after a few directories, mounted; resolves at the first frame. */
async function mountHeld({ emptyProject, mount }: Pick<Fixtures, 'emptyProject' | 'mount'>): Promise<{
  h: ReturnType<typeof heldStart>;
  shown: string[];
  a: MountedApp;
  root: string;
}> {
  const t = tree(emptyProject);
  const h = heldStart(t.root, 5);
  const mounted = mount(h.store, { columns: 100, rows: 30 });
  await mounted.ready;
  await waitFor(() => h.held() && selectedLine(mounted) !== '', {
    what: 'the first frame, read held',
    timeoutMs: 60_000,
  });
  return { h, shown: h.store.sessions.getSnapshot().sessions.map((s) => s.id), a: mounted, root: t.root };
}

describe('sessions: the selection during the first read', () => {
  it('stays on the top row while rows read later sort above the first frame, until the user moves', async ({
    emptyProject,
    mount,
  }) => {
    const { h, shown, a, root } = await mountHeld({ emptyProject, mount });
    expect(shown.length).toBeLessThan(N);
    expect(selectedLine(a)).toContain(short(shown[0]!));
    // A session not read yet becomes the newest: when its directory is read, it sorts to the top.
    const unread = Array.from({ length: N }, (_, i) => sessionId(i + 1)).find((sid) => !shown.includes(sid))!;
    writeOmcJson(file(root, unread), ralph(unread, Date.now()));
    h.release();
    await waitFor(() => firstReadDone(h.store), { what: 'the first read done', timeoutMs: 60_000 });
    expect(h.store.sessions.getSnapshot().sessions[0]?.id).toBe(unread);
    await waitFor(() => !a.text().includes('reading'), { what: 'the last frame of the read', timeoutMs: 60_000 });
    expect(selectedLine(a)).toContain(short(unread));
  });

  it('once the user has moved, the selection is that session while more rows arrive above it', async ({
    emptyProject,
    mount,
  }) => {
    const { h, shown, a, root } = await mountHeld({ emptyProject, mount });
    await a.step(KEY.down);
    expect(selectedLine(a)).toContain(short(shown[1]!));
    const unread = Array.from({ length: N }, (_, i) => sessionId(i + 1)).find((sid) => !shown.includes(sid))!;
    writeOmcJson(file(root, unread), ralph(unread, Date.now()));
    h.release();
    await waitFor(() => firstReadDone(h.store), { what: 'the first read done', timeoutMs: 60_000 });
    await waitFor(() => !a.text().includes('reading'), { what: 'the last frame of the read', timeoutMs: 60_000 });
    expect(a.text()).toMatch(/↑\d+ /);
    expect(selectedLine(a)).toContain(short(shown[1]!));
  });
});
