/**
 * A rescan (the root back, the watches' ready, a poll tick) that misses a file a moment (moved away and back, an
 * editor's save by rename) does not drop what the list shows: the miss waits in the watcher's removal hold (or, when
 * polling, for the next tick), as the sessions' files do (store/scan-misses.ts). A file really gone goes after that
 * wait. The rescan is injected while the file is away, not timed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor } from '../helpers/fixtures.js';
import type { OmcStore } from '../../src/store/store.js';
import { resolveOmcRoot } from '../../src/store/root.js';
import { generateTeam } from '../helpers/team-gen.js';

const page = (title: string) => `---\ntitle: "${title}"\ntags: []\n---\n\n# ${title}\n\nbody of ${title}\n`;
const NOTEPAD = '# Notepad\n\n## Priority Context\n\nship it\n\n## Working Memory\n\n## MANUAL\n';

/** `file` moved away, a scan made meanwhile, and moved back in the same turn. */
function scanWhileAway(file: string, scan: () => void): void {
  fs.renameSync(file, `${file}.away`);
  scan();
  fs.renameSync(`${file}.away`, file);
}

describe('a rescan that misses a file a moment', () => {
  for (const watch of ['auto', 'poll'] as const)
    it(`wiki (${watch}): the page stays through the miss; a page really removed goes after the wait`, async ({
      emptyProject: p,
      newStore,
    }) => {
      const dir = path.join(p.root, 'wiki');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'kept.md'), page('Kept'));
      fs.writeFileSync(path.join(dir, 'other.md'), page('Other'));
      const s: OmcStore = newStore({ root: p.root, watch });
      s.start();
      const names = () => s.wiki.getSnapshot().pages.map((x) => x.filename);
      await waitFor(() => s.status.getSnapshot().watchMode === (watch === 'poll' ? 'polling' : 'events'), {
        what: 'the watch up',
      });
      await waitFor(() => names().includes('kept.md') && names().includes('other.md'), { what: 'both pages' });
      const seen: string[][] = [];
      s.wiki.subscribe(() => seen.push(names()));

      scanWhileAway(path.join(dir, 'kept.md'), () => s.wiki.scan());
      expect(names()).toContain('kept.md');
      // Really removed, and a scan that misses it: shown until the wait is over, then gone (and so is any wait
      // begun before it: the one for kept.md).
      fs.rmSync(path.join(dir, 'other.md'));
      s.wiki.scan();
      expect(names()).toContain('other.md');
      await waitFor(() => !names().includes('other.md'), { what: 'other.md gone' });
      expect(names()).toContain('kept.md');
      expect(seen.filter((n) => !n.includes('kept.md'))).toEqual([]);
    });

  it("run history: an ended session's summary stays through the miss; removed, its run goes after the wait", async ({
    emptyProject: p,
    newStore,
  }) => {
    const dir = path.join(p.root, 'sessions');
    fs.mkdirSync(dir, { recursive: true });
    const summary = (sid: string) =>
      JSON.stringify({
        session_id: sid,
        started_at: '2026-12-01T10:00:00.000Z',
        ended_at: '2026-12-01T11:00:00.000Z',
        reason: 'clear',
        modes_used: ['ralph'],
      });
    fs.writeFileSync(path.join(dir, 'kept.json'), summary('kept'));
    fs.writeFileSync(path.join(dir, 'other.json'), summary('other'));
    const s: OmcStore = newStore({ root: p.root, watch: 'auto' });
    s.start();
    const ids = () => s.runs.runs().map((r) => r.sessionId ?? '');
    await waitFor(() => s.status.getSnapshot().watchMode === 'events' && ids().length === 2, { what: 'both runs' });
    const seen: string[][] = [];
    s.runs.subscribe(() => seen.push(ids()));

    scanWhileAway(path.join(dir, 'kept.json'), () => s.runs.scan());
    expect(ids()).toContain('kept');
    fs.rmSync(path.join(dir, 'other.json'));
    s.runs.scan();
    expect(ids()).toContain('other');
    await waitFor(() => !ids().includes('other'), { what: 'the run of other.json gone' });
    expect(ids()).toContain('kept');
    expect(seen.filter((x) => !x.includes('kept'))).toEqual([]);
  });

  it('notepad: notepad.md stays shown through the miss; removed, it goes after the wait', async ({
    emptyProject: p,
    newStore,
  }) => {
    const file = path.join(p.root, 'notepad.md');
    fs.writeFileSync(file, NOTEPAD);
    const s: OmcStore = newStore({ root: p.root, watch: 'auto' });
    s.start();
    const status = () => s.notepad.getSnapshot().status;
    await waitFor(() => s.status.getSnapshot().watchMode === 'events' && status() === 'ok', { what: 'the notepad' });
    const seen: string[] = [];
    s.notepad.subscribe(() => seen.push(status()));

    scanWhileAway(file, () => s.notepad.scan());
    expect(status()).toBe('ok');
    fs.rmSync(file);
    s.notepad.scan();
    expect(status()).toBe('ok');
    await waitFor(() => status() === 'missing', { what: 'notepad.md gone' });
    expect(seen.slice(0, seen.indexOf('missing')).filter((x) => x !== 'ok')).toEqual([]);
  });
});

/** What a team shows (the board row and --json): its workers, its task count, its problem lines. */
function teamShown(s: OmcStore, key: string): string | null {
  const t = s.teams.getSnapshot().teams.find((x) => x.key === key);
  if (!t) return null;
  const problems = t.problems.filter((x) => x.severity !== 'info').map((x) => `${x.path}: ${x.message}`);
  return JSON.stringify([t.workers.map((w) => w.name), t.counts.total, problems]);
}

describe('a rescan that misses a team file a moment', () => {
  for (const watch of ['auto', 'poll'] as const)
    it(`teams in the root (${watch}): config.json replaced by rename keeps the team as it was; a team removed goes after the wait`, async ({
      emptyProject: p,
      newStore,
    }) => {
      const now = Date.now();
      const kept = generateTeam({ root: p.root, name: 'kept-team', workers: 2, tasks: 3, now });
      const other = generateTeam({ root: p.root, name: 'other-team', workers: 1, tasks: 2, now });
      const s: OmcStore = newStore({ root: p.root, watch });
      s.start();
      await waitFor(() => s.status.getSnapshot().watchMode === (watch === 'poll' ? 'polling' : 'events'), {
        what: 'the watch up',
      });
      await waitFor(() => teamShown(s, 'kept-team') !== null && teamShown(s, 'other-team') !== null, {
        what: 'both teams',
      });
      const keptAs = teamShown(s, 'kept-team');
      const seen: (string | null)[] = [];
      s.teams.subscribe(() => seen.push(teamShown(s, 'kept-team')));

      // OMC's write of config.json: a new file renamed over it, the old one gone a moment before.
      scanWhileAway(path.join(kept.dir, 'config.json'), () => s.teams.scan());
      scanWhileAway(path.join(kept.dir, 'tasks', 'task-1.json'), () => s.teams.scan());
      expect(teamShown(s, 'kept-team')).toBe(keptAs);
      expect(JSON.stringify(s.teams.report())).toContain('kept-team');
      fs.rmSync(other.dir, { recursive: true });
      s.teams.scan();
      expect(teamShown(s, 'other-team')).not.toBeNull();
      await waitFor(() => teamShown(s, 'other-team') === null, { what: 'other-team gone' });
      expect(teamShown(s, 'kept-team')).toBe(keptAs);
      expect(seen.filter((x) => x !== keptAs)).toEqual([]);
    });

  it('teams beside the project (OMC_STATE_DIR set, polled): the same, without a watcher', async ({
    emptyProject: p,
    newStore,
  }) => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-statedir-'));
    try {
      const env = { ...process.env, OMC_STATE_DIR: stateDir };
      fs.mkdirSync(path.join(resolveOmcRoot({ cwd: p.dir, env }).root, 'state', 'sessions'), { recursive: true });
      const res = resolveOmcRoot({ cwd: p.dir, env });
      expect(res.rule).toBe('state-dir');
      const now = Date.now();
      const kept = generateTeam({ root: p.root, name: 'kept-team', workers: 2, tasks: 3, now });
      const other = generateTeam({ root: p.root, name: 'other-team', workers: 1, tasks: 2, now });
      const s: OmcStore = newStore({ root: res.root, projectDir: res.projectDir, rootRule: res.rule, watch: 'auto' });
      s.start();
      await waitFor(() => teamShown(s, 'project:kept-team') !== null && teamShown(s, 'project:other-team') !== null, {
        what: 'both teams',
      });
      const keptAs = teamShown(s, 'project:kept-team');
      const seen: (string | null)[] = [];
      s.teams.subscribe(() => seen.push(teamShown(s, 'project:kept-team')));

      // The project location's poll is a scan of it; made while the file is away.
      scanWhileAway(path.join(kept.dir, 'config.json'), () => s.teams.scan());
      scanWhileAway(path.join(kept.dir, 'tasks', 'task-1.json'), () => s.teams.scan());
      // A worker's directory away a moment (out of the tree: a name left beside it would be a problem of its own).
      const worker = path.join(kept.dir, 'workers', 'worker-1');
      fs.renameSync(worker, path.join(p.dir, 'worker-1.away'));
      s.teams.scan();
      fs.renameSync(path.join(p.dir, 'worker-1.away'), worker);
      expect(teamShown(s, 'project:kept-team')).toBe(keptAs);
      expect(JSON.stringify(s.teams.report())).toContain('kept-team');
      fs.rmSync(other.dir, { recursive: true });
      s.teams.scan();
      expect(teamShown(s, 'project:other-team')).not.toBeNull();
      await waitFor(() => teamShown(s, 'project:other-team') === null, { what: 'other-team gone' });
      expect(teamShown(s, 'project:kept-team')).toBe(keptAs);
      expect(seen.filter((x) => x !== keptAs)).toEqual([]);
    } finally {
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
