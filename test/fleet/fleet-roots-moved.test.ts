/**
 * `omc-top --all` while its projects move: a project directory removed says it is gone and then leaves (the
 * root count right at once), one renamed is shown under its new name with its sessions (and what needs you in
 * them: the header's and the title's count), on the next rediscovery, as a new project is. The same holds for
 * `serve --all`'s page, and for the panes of a project opened with Enter.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetSource } from '../../src/commands/serve/source.js';
import { fleetTitle, type FleetSnapshot } from '../../src/fleet/model.js';
import { GONE_SHOWN_MS } from '../../src/fleet/local.js';
import { headerText } from '../../src/panes/fleet/layout.js';
import { waitFor } from '../helpers/fixtures.js';
import { KEY, mountFleet } from '../helpers/mount-app.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { fleetRigPerTest, type Machine } from './fleet-tree.js';

const rig = fleetRigPerTest();

/**
 * Three projects under $OMC_STATE_DIR, one live loop each; gamma's Claude session waits on a permission prompt
 * (its registry entry as the CLI writes it then), so gamma's session needs you.
 */
function stateDirProjects(m: Machine) {
  const sd = path.join(m.base, 'sd');
  const names = ['alpha-1111', 'beta-2222', 'gamma-3333'];
  names.forEach((name, i) => makeLive(path.join(sd, name), sessionId(i + 1)));
  const work = path.join(m.base, 'work');
  fs.mkdirSync(work);
  m.register(sessionId(3), work);
  const dir = path.join(m.config, 'sessions');
  for (const f of fs.readdirSync(dir)) {
    const file = path.join(dir, f);
    const entry = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...entry, status: 'waiting', waitingFor: 'permission prompt' }));
  }
  return { sd, env: { ...m.env, OMC_STATE_DIR: sd } };
}

/** Each group's header as `label (n sessions · notes)`, sorted by label. */
const headers = (snap: FleetSnapshot) =>
  snap.groups
    .map((g) => `${g.label} (${[`${g.rows.length} sessions`, ...g.notes].join(' · ')})`)
    .sort((a, b) => a.localeCompare(b));

describe('omc-top --all: projects removed or renamed while watched', () => {
  it('a removed project says it is gone and leaves; a renamed one shows under its new name with its sessions', async () => {
    const m = rig.machine();
    const { sd, env } = stateDirProjects(m);
    let now = Date.now();
    const fleet = rig.fleet(m, { watch: 'none', env, clock: () => now });
    fleet.start();
    const source = fleetSource(fleet, undefined, async () => undefined);
    // What needs you is judged a turn after the first read: the snapshot once it says so.
    const snapWhen = (ok: (s: FleetSnapshot) => boolean, what: string) =>
      waitFor(() => ok(fleet.getSnapshot()) && fleet.getSnapshot(), { what });
    const before = await snapWhen((s) => fleetTitle(s).endsWith('needs you: 1'), 'gamma needing you');
    expect(headers(before)).toEqual(['alpha-1111 (1 sessions)', 'beta-2222 (1 sessions)', 'gamma-3333 (1 sessions)']);
    expect(headerText(before, 0)).toContain('3 roots');

    fs.rmSync(path.join(sd, 'beta-2222'), { recursive: true });
    fs.renameSync(path.join(sd, 'gamma-3333'), path.join(sd, 'gamma-renamed'));
    fleet.discover();
    const after = await snapWhen(
      (s) => s.roots === 2 && fleetTitle(s).endsWith('needs you: 1'),
      'the fleet after the move',
    );
    expect(headers(after)).toEqual([
      'alpha-1111 (1 sessions)',
      'beta-2222 (0 sessions · gone: removed or renamed)',
      'gamma-renamed (1 sessions)',
    ]);
    expect(after.groups.find((g) => g.label === 'beta-2222')?.tone).toBe('error');
    expect(headerText(after, 0)).toContain('2 roots');
    // The renamed project's session still needs you: the header and the terminal title count it.
    expect(fleetTitle(after)).toBe('omc-top --all · needs you: 1');
    expect(after.groups.find((g) => g.label === 'gamma-renamed')?.rows[0]?.session).toBe(sessionId(3));

    // serve --all's page: the removed project has left it, the renamed one is there under its new name.
    await waitFor(
      () =>
        source
          .picture(now)
          .roots.map((r) => `${r.project}:${r.rows.length}`)
          .sort()
          .join(' ') === 'alpha-1111:1 gamma-renamed:1',
      { what: "the page's projects after the move" },
    );
    expect(source.picture(now).count).toBe(1);

    // The gone mark is shown for a while, then the project leaves the list.
    now += GONE_SHOWN_MS;
    fleet.discover();
    await snapWhen((s) => s.groups.length === 2, 'beta leaving the list');
    expect(headers(fleet.getSnapshot())).toEqual(['alpha-1111 (1 sessions)', 'gamma-renamed (1 sessions)']);
    await source.close();
  });

  it("a project's open panes follow its rename, and go back to the fleet, saying so, once it is gone", async () => {
    const m = rig.machine();
    const { sd, env } = stateDirProjects(m);
    const fleet = rig.fleet(m, { watch: 'none', env });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 120, rows: 30 });
    await app.waitForText(/gamma-3333 {2}\(1 session/);
    await app.step('g');
    for (let i = 0; i < 8 && !(app.lines().find((l) => l.startsWith('▸')) ?? '').includes('gamma-3333'); i++)
      await app.step('j');
    await app.step(KEY.enter);
    await app.waitForText('sd/gamma-3333 ');

    fs.renameSync(path.join(sd, 'gamma-3333'), path.join(sd, 'gamma-renamed'));
    fleet.discover();
    const renamed = await app.waitForText('sd/gamma-renamed ');
    expect(renamed).toContain(sessionId(3).slice(0, 8));

    fs.rmSync(path.join(sd, 'gamma-renamed'), { recursive: true });
    fleet.discover();
    const back = await app.waitForText('gamma-renamed is gone: its directory was removed or renamed');
    expect(back).toContain('gamma-renamed  (0 sessions · gone: removed or renamed)');
    expect(back).not.toContain('sd/gamma-renamed ');
    app.unmountOnly();
  });
});
