/**
 * The nested-root search as the monitor runs it: in slices once the store is live (so `live` and keys never wait
 * for a project's thousands of directories), with the same answer as the search run at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NestedRootsSearch, findNestedRoots } from '../../src/store/sessions/nested-roots.js';
import { isReadAndWatched } from '../../src/store/store.js';
import { liveRalph, type TempProject, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { sessionId } from '../helpers/sessions-gen.js';

/** Fills `proj` with `dirs` plain directories under packages/ and a nested root with `sessions` sessions in one. */
function project(proj: TempProject, dirs: number, sessions: number): TempProject {
  for (let i = 0; i < dirs; i++) fs.mkdirSync(path.join(proj.dir, 'packages', `p${i}`, 'src'), { recursive: true });
  const nested = path.join(proj.dir, 'packages', 'p3', '.omc');
  for (let i = 1; i <= sessions; i++)
    writeOmcJson(
      path.join(nested, 'state', 'sessions', sessionId(i), 'ralph-state.json'),
      liveRalph({ sessionId: sessionId(i) }),
    );
  return proj;
}

describe('the nested-root search in slices', () => {
  it('lists one directory per slice when every slice is over at once, and finds what the whole search finds', ({
    emptyProject,
  }) => {
    const p = project(emptyProject, 40, 2);
    const search = new NestedRootsSearch(p.dir, p.root);
    let slices = 0;
    // A deadline already past: each slice lists one directory and hands the turn back.
    while (!search.step(0)) slices += 1;
    // The top, packages/, its 40 directories and their 40 src/ (the nested .omc is counted, not walked).
    expect(slices).toBeGreaterThanOrEqual(81);
    expect(search.done).toBe(true);
    const whole = findNestedRoots(p.dir, p.root);
    expect(search.result()).toEqual(whole);
    expect(whole.roots.map((r) => [r.rel, r.sessions])).toEqual([['packages/p3/.omc', 2]]);
  });

  it('finishes at once when asked in the middle (O before the slices are done), with the same answer', ({
    emptyProject,
  }) => {
    const p = project(emptyProject, 40, 1);
    const search = new NestedRootsSearch(p.dir, p.root);
    for (let i = 0; i < 5; i++) expect(search.step(0)).toBe(false);
    expect(search.result()).toEqual(findNestedRoots(p.dir, p.root));
    expect(search.done).toBe(true);
    expect(search.step(0)).toBe(true);
  });
});

describe('afterFirstRead', () => {
  it('runs once the store is live, not before, and at once for a store already live', async ({
    emptyProject: p,
    newStore,
  }) => {
    for (let i = 1; i <= 50; i++)
      writeOmcJson(
        path.join(p.root, 'state', 'sessions', sessionId(i), 'ralph-state.json'),
        liveRalph({ sessionId: sessionId(i) }),
      );
    const s = newStore({ root: p.root, sessions: { stepPublishMs: 0 } });
    const seen: boolean[] = [];
    s.afterFirstRead(() => seen.push(isReadAndWatched(s.status.getSnapshot())));
    s.start({ progressive: true });
    expect(seen).toEqual([]);
    await waitFor(() => seen.length > 0, { what: 'the callback after the first read', timeoutMs: 60_000 });
    expect(seen).toEqual([true]);
    expect(s.sessions.getSnapshot().sessions).toHaveLength(50);
    let again = 0;
    s.afterFirstRead(() => (again += 1));
    expect(again).toBe(1);
  });

  it('is not called once cancelled', async ({ emptyProject: p, newStore }) => {
    const s = newStore({ root: p.root });
    let cancelled = 0;
    let kept = 0;
    const cancel = s.afterFirstRead(() => (cancelled += 1));
    s.afterFirstRead(() => (kept += 1));
    cancel();
    s.start({ progressive: true });
    // The kept callback is told in the same notification the cancelled one would have been.
    await waitFor(() => kept === 1, { what: 'the kept callback after the first read', timeoutMs: 60_000 });
    expect(cancelled).toBe(0);
  });
});
