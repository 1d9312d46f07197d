/**
 * `omc-top --all` / `serve --all` started after a project's Claude has exited: the fleet finds its roots from the
 * live Claude sessions, so without more it would show nothing of that project, while a fleet started before (and
 * the project alone) says its loop needs you. It also looks, when it starts, at the registry entries a killed CLI
 * leaves behind (SIGKILL, a crash, a reboot) and at the projects omc-top watched before (a clean exit removes the
 * entry), of the last 30 days: both fleets, the page and `status --tmux` of the project then say the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetSource } from '../../src/commands/serve/source.js';
import { historyCwds } from '../../src/fleet/discover.js';
import { KNOWN_MAX, KNOWN_MAX_AGE_MS, KNOWN_PROJECTS_FILE } from '../../src/fleet/known-projects.js';
import { fleetTitle, type FleetSnapshot } from '../../src/fleet/model.js';
import type { LocalFleet } from '../../src/fleet/local.js';
import { ownStateDir } from '../../src/io/state-dir.js';
import type { RegistryEntry } from '../../src/store/claude/registry.js';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { DEAD_PID, writeTranscript } from '../helpers/claude-files.js';
import { waitFor } from '../helpers/fixtures.js';
import { statusCount } from '../helpers/attention-surfaces.js';
import { TerminalHarness } from '../helpers/pty.js';
import { fleetRigPerTest, type Machine } from './fleet-tree.js';

const rig = fleetRigPerTest();

/** The registry file of session `sid`. */
function entryFile(m: Machine, sid: string): string {
  const dir = path.join(m.config, 'sessions');
  const name = fs.readdirSync(dir).find((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes(sid));
  if (!name) throw new Error(`no registry entry for ${sid}`);
  return path.join(dir, name);
}

/** The CLI of `sid` SIGKILLed, as the kernel leaves it: its entry stays behind, naming a pid no process has now. */
function killClaude(m: Machine, sid: string, pid: number): void {
  const file = entryFile(m, sid);
  const entry = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(path.join(m.config, 'sessions', `${pid}.json`), JSON.stringify({ ...entry, pid }));
  fs.rmSync(file);
}

/**
 * The CLI of `sid` in `cwd` ended cleanly (`/exit`, SIGTERM, SIGHUP), as 2.1.332 does: its transcript ends with its
 * own final figures (the `cost-state` line) and its registry entry is removed.
 */
function exitClaude(m: Machine, sid: string, cwd: string): void {
  const start = Date.now() - 120_000;
  const line = { type: 'cost-state', totalCostUSD: 0.01, startTime: start, totalDuration: 60_000, sessionId: sid };
  writeTranscript(m.config, cwd, sid, [JSON.stringify(line)]);
  fs.rmSync(entryFile(m, sid));
}

/** The fleet's snapshot once `ok` holds (what needs you is judged a turn after the first read). */
const snapWhen = (fleet: LocalFleet, ok: (s: FleetSnapshot) => boolean, what: string) =>
  waitFor(() => ok(fleet.getSnapshot()) && fleet.getSnapshot(), { what, timeoutMs: 20_000 });

/** Each project's rows as `label: session need`, sorted. */
const rowsOf = (s: FleetSnapshot) =>
  s.groups
    .flatMap((g) => g.rows.map((r) => `${g.label}: ${r.session.slice(0, 8)} ${r.needs ?? '-'}`))
    .sort((a, b) => a.localeCompare(b));

describe('omc-top --all started after a Claude exited', () => {
  it('shows the loop of a killed Claude as needing you, as a fleet started before does and status --tmux says', async () => {
    const m = rig.machine();
    const a = m.project('alpha', 0);
    const b = m.project('beta', 0);
    const before = rig.fleet(m, {});
    before.start();
    await snapWhen(before, (s) => s.roots === 2, 'the first fleet on both projects');
    killClaude(m, a.live, DEAD_PID);
    killClaude(m, b.live, DEAD_PID - 1);
    before.discover();
    const was = await snapWhen(before, (s) => fleetTitle(s).endsWith('needs you: 2'), 'the first fleet');

    const after = rig.fleet(m, {});
    after.start();
    const now = await snapWhen(after, (s) => fleetTitle(s).endsWith('needs you: 2'), 'the fleet started after');
    expect(rowsOf(now)).toEqual(rowsOf(was));
    expect(rowsOf(now).every((r) => r.endsWith('orphaned loop'))).toBe(true);
    expect(now.localClaude).toBe(0);
    // serve --all's page counts them too.
    const page = fleetSource(after, undefined, async () => undefined);
    await waitFor(() => page.picture(Date.now()).count === 2, { what: "the page's count" });
    await page.close();
    // Each project alone says the same.
    expect(statusCount(a.root, m.env, true)).toBe(1);
    expect(statusCount(b.root, m.env, true)).toBe(1);
  });

  it('finds a project whose Claude exited cleanly (its entry removed) from the projects omc-top watched', async () => {
    const m = rig.machine();
    const a = m.project('alpha', 0);
    const before = rig.fleet(m, {});
    before.start();
    await snapWhen(before, (s) => s.roots === 1, 'the first fleet on alpha');
    const known = path.join(ownStateDir(m.env, m.home), KNOWN_PROJECTS_FILE);
    await waitFor(() => fs.existsSync(known) && fs.readFileSync(known, 'utf8').includes(a.dir), {
      what: 'alpha remembered',
    });
    exitClaude(m, a.live, a.dir);
    await snapWhen(before, (s) => s.localClaude === 0, 'the first fleet after the exit');

    const after = rig.fleet(m, {});
    after.start();
    await snapWhen(after, (s) => fleetTitle(s).endsWith('needs you: 1'), 'the fleet started after, on alpha');
    // Both fleets say the same (each judges on its own turn: the same words once both have).
    const said = (f: LocalFleet) => [fleetTitle(f.getSnapshot()), ...rowsOf(f.getSnapshot())].join('\n');
    await waitFor(() => said(before) === said(after), { what: 'both fleets agreeing', timeoutMs: 20_000 });
    expect(fleetTitle(after.getSnapshot())).toBe('omc-top --all · needs you: 1');
    expect(rowsOf(after.getSnapshot())[0]).toMatch(/orphaned loop$/);
    expect(statusCount(a.root, m.env, true)).toBe(1);
  });

  it('finds a project a monitor watched (started there) once its Claude exited cleanly', async () => {
    const m = rig.machine();
    const a = m.project('alpha', 0);
    const h = new TerminalHarness({ cwd: a.dir, cols: 100, rows: 24, env: m.env });
    try {
      await h.waitForText(/1 sess/, 30_000);
      const known = path.join(ownStateDir(m.env, m.home), KNOWN_PROJECTS_FILE);
      await waitFor(() => fs.existsSync(known) && fs.readFileSync(known, 'utf8').includes(a.dir), {
        what: 'alpha remembered by the monitor',
        timeoutMs: 20_000,
      });
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
    } finally {
      h.dispose();
    }
    exitClaude(m, a.live, a.dir);
    const fleet = rig.fleet(m, {});
    fleet.start();
    const snap = await snapWhen(fleet, (s) => fleetTitle(s).endsWith('needs you: 1'), 'the fleet on alpha');
    expect(rowsOf(snap)).toHaveLength(1);
    expect(rowsOf(snap)[0]).toMatch(new RegExp(`^alpha: ${a.live.slice(0, 8)} .*orphaned loop$`));
    expect(statusCount(a.root, m.env, true)).toBe(1);
  });

  it("finds a project no omc-top watched, whose Claude exited cleanly, from Claude's transcripts", async () => {
    const m = rig.machine();
    const a = m.project('alpha', 0);
    const b = m.project('beta', 0);
    // Both Claudes exit cleanly; no monitor or fleet ever ran, so nothing remembered either project.
    // Each transcript begins with the typed prompt (its `cwd`) and ends with the exit's own figures.
    const typedFirst = (cwd: string, sid: string, named: string) => {
      const file = path.join(m.config, transcriptRel(cwd, sid));
      const typed = JSON.stringify({
        type: 'user',
        message: { role: 'user', content: 'go' },
        cwd: named,
        sessionId: sid,
      });
      fs.writeFileSync(file, `${typed}\n${fs.readFileSync(file, 'utf8')}`);
    };
    exitClaude(m, a.live, a.dir);
    typedFirst(a.dir, a.live, a.dir);
    exitClaude(m, b.live, b.dir);
    // beta's transcript names another directory (a file moved there by hand): it names no project.
    typedFirst(b.dir, b.live, path.join(m.base, 'elsewhere'));
    expect(fs.existsSync(path.join(ownStateDir(m.env, m.home), KNOWN_PROJECTS_FILE))).toBe(false);

    const fleet = rig.fleet(m, { readonly: true });
    fleet.start();
    const snap = await snapWhen(fleet, (s) => fleetTitle(s).endsWith('needs you: 1'), 'the fleet on alpha');
    expect(snap.groups.map((g) => g.label)).toEqual(['alpha']);
    expect(rowsOf(snap)).toEqual([`alpha: ${a.live.slice(0, 8)} orphaned loop`]);
    expect(snap.localClaude).toBe(0);
    expect(statusCount(a.root, m.env, true)).toBe(1);
  });

  it('a project whose transcripts are older than 30 days is not looked at', async () => {
    const m = rig.machine();
    const a = m.project('alpha', 0);
    exitClaude(m, a.live, a.dir);
    const file = writeTranscript(m.config, a.dir, a.live, [
      JSON.stringify({ type: 'user', cwd: a.dir, sessionId: a.live }),
    ]);
    const old = new Date(Date.now() - KNOWN_MAX_AGE_MS - 86_400_000);
    fs.utimesSync(file, old, old);
    fs.utimesSync(path.dirname(file), old, old);
    const fleet = rig.fleet(m, { readonly: true });
    fleet.start();
    await snapWhen(fleet, (s) => s.ready, 'the fleet read');
    expect(fleet.getSnapshot().roots).toBe(0);
  });

  it('--readonly remembers nothing; a remembered project removed since, or holding no .omc, is no root', async () => {
    const m = rig.machine();
    const a = m.project('alpha', 0);
    const ro = rig.fleet(m, { readonly: true });
    ro.start();
    await snapWhen(ro, (s) => s.roots === 1, 'the readonly fleet on alpha');
    await ro.close();
    const dir = ownStateDir(m.env, m.home);
    expect(fs.existsSync(path.join(dir, KNOWN_PROJECTS_FILE))).toBe(false);

    const plain = path.join(m.base, 'plain');
    fs.mkdirSync(plain);
    const now = Date.now();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, KNOWN_PROJECTS_FILE),
      JSON.stringify({
        version: 1,
        projects: { [a.dir]: now - 1000, [plain]: now - 2000, [path.join(m.base, 'removed')]: now - 3000 },
      }),
    );
    exitClaude(m, a.live, a.dir);
    const after = rig.fleet(m, {});
    after.start();
    const snap = await snapWhen(after, (s) => s.roots > 0 && rowsOf(s).length > 0, 'the fleet on the remembered');
    expect(snap.groups.map((g) => g.label)).toEqual(['alpha']);
    expect(snap.roots).toBe(1);
    expect(snap.problems).toEqual([]);
  });

  it('a damaged memory is one problem line naming the file; the live roots still show', async () => {
    const m = rig.machine();
    m.project('alpha', 0);
    const dir = ownStateDir(m.env, m.home);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, KNOWN_PROJECTS_FILE), '{"version":1,"projects":');
    const fleet = rig.fleet(m, { readonly: true });
    fleet.start();
    const snap = await snapWhen(fleet, (s) => s.roots === 1, 'the fleet on alpha');
    expect(snap.problems).toHaveLength(1);
    expect(snap.problems[0]).toContain(path.join(dir, KNOWN_PROJECTS_FILE));
    expect(snap.problems[0]).toContain('is not JSON');
  });
});

describe('how far back the fleet looks', () => {
  const NOW = 1_800_000_000_000;
  const entry = (cwd: string, at: number): RegistryEntry =>
    ({ cwd, statusUpdatedAt: at, updatedAt: null, startedAt: null, mtimeMs: at }) as RegistryEntry;

  it('the last 30 days, each directory once at its latest, newest first, at most 64', () => {
    const exited = [entry('/p/old', NOW - KNOWN_MAX_AGE_MS - 1), entry('/p/a', NOW - 5000), entry('/p/b', NOW - 100)];
    const known = [
      { cwd: '/p/a', at: NOW - 10 },
      { cwd: '/p/c', at: NOW - KNOWN_MAX_AGE_MS },
    ];
    expect(historyCwds(exited, known, NOW).map((h) => `${h.cwd} ${h.source}`)).toEqual([
      '/p/a known',
      '/p/b exited',
      '/p/c known',
    ]);
    const transcripts = [
      { cwd: '/p/t', at: NOW - 50 },
      { cwd: '/p/b', at: NOW - 1 },
    ];
    expect(historyCwds(exited, known, NOW, transcripts).map((h) => `${h.cwd} ${h.source}`)).toEqual([
      '/p/b transcript',
      '/p/a known',
      '/p/t transcript',
      '/p/c known',
    ]);
    const many = Array.from({ length: 100 }, (_, i) => ({ cwd: `/p/${i}`, at: NOW - i }));
    const kept = historyCwds([], many, NOW);
    expect(kept).toHaveLength(KNOWN_MAX);
    expect(kept.at(-1)?.cwd).toBe(`/p/${KNOWN_MAX - 1}`);
  });
});
