/**
 * `omc-top --all` follows an OMC plugin update as a lone monitor does: every project's sessions are re-judged by
 * the new release's book (OMC 4.4.4 enforces a keyword-started ultrawork; 5.5.0 retired it), on the fleet's one
 * timer for all its projects.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocalFleet } from '../../src/fleet/local.js';
import { waitFor, writeLiveRalph, writeOmcJson } from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, omc55Root, omcInPlace, pluginWorld, writeRetiredUltrawork } from '../helpers/omc-plugin.js';
import { makeLive } from '../helpers/sessions-gen.js';
import { fleetRigPerTest } from './fleet-tree.js';
import { shownPath } from '../../src/io/shown-path.js';
import { omcLabel } from '../../src/store/omc-label.js';
import { scaled } from '../helpers/time-scale.js';

const rig = fleetRigPerTest();
const SID = 'aaaaaaaa-1111-4222-8333-444444444444';
/** A Claude session in the project that left no OMC state. */
const BBB = 'bbbbbbbb-1111-4222-8333-444444444444';

/** What OMC 4.4.4's keyword hook writes for "ultrawork …". */
function writeUltrawork(root: string, prompt: string): void {
  const now = Date.now();
  writeOmcJson(path.join(root, 'state', 'sessions', SID, 'ultrawork-state.json'), {
    active: true,
    started_at: new Date(now - 60_000).toISOString(),
    original_prompt: prompt,
    session_id: SID,
    reinforcement_count: 2,
    last_checked_at: new Date(now - 5_000).toISOString(),
  });
}

/** Each project's ultrawork row, as the fleet shows it: "<status> <modes>". */
const rowsOf = (fleet: LocalFleet) =>
  fleet
    .getSnapshot()
    .groups.flatMap((g) => g.rows.filter((r) => r.session === SID).map((r) => `${g.label}: ${r.status} ${r.modes}`))
    .sort();

// Each test waits on one or two looks of 15 s (scaled) for a fleet that reads every project's Claudes: on a loaded
// machine that ran past the suite's 30 s default (a CI run at load 8–10 on 2 cores: 40 s), so the limit is theirs.
describe('a plugin update under omc-top --all', { timeout: scaled(90_000) }, () => {
  it("re-judges every project's rows by the new book", async () => {
    const m = rig.machine();
    const w = pluginWorld(m.base); // the machine's own home and Claude config directory
    installPlugin(w.config, OMC444);
    for (const name of ['alpha', 'beta']) writeUltrawork(m.project(name, 0).root, `ultrawork ${name}`);
    const fleet = rig.fleet(m, { env: { ...m.env, ...w.env }, omcRecheckMs: 100 });
    fleet.start();
    const before = await waitFor(() => rowsOf(fleet).length === 2 && rowsOf(fleet), { what: 'both rows' });
    expect(before).toEqual(['alpha: enforced ultrawork 2/50', 'beta: enforced ultrawork 2/50']);

    installPlugin(w.config, OMC55); // `claude plugin update`
    const after = await waitFor(() => rowsOf(fleet).every((r) => r.includes('not-enforced')) && rowsOf(fleet), {
      timeoutMs: 15_000,
      what: `re-judged rows (${rowsOf(fleet).join('; ')})`,
    });
    expect(after).toEqual([
      'alpha: not-enforced ultrawork 2/50 (retired)',
      'beta: not-enforced ultrawork 2/50 (retired)',
    ]);
    expect(fleet.localRoots().map((r) => r.store.omc?.version)).toEqual(['5.5.0', '5.5.0']);
  });

  it("drops a gone Claude's --plugin-dir as the project's OMC: judged by the files again, and says so", async () => {
    const m = rig.machine();
    const w = pluginWorld(m.base); // the plugin enabled, never installed: no settings file names a release
    const alpha = m.project('alpha', 0);
    writeUltrawork(alpha.root, 'ultrawork alpha'); // a session with no Claude process of its own
    // Another Claude in the project, started `claude --plugin-dir <OMC 4.4.4>`: while it runs, and nothing else names
    // an OMC, its release is the best guess for a session without a Claude of its own.
    const claude = m.register(BBB, alpha.dir, { args: ['--plugin-dir', OMC444] });
    const said: string[] = [];
    const fleet = rig.fleet(m, {
      env: { ...m.env, ...w.env },
      omcRecheckMs: 100,
      onOmcChange: (root, words) => said.push(`${root.label}: ${words}`),
    });
    fleet.start();
    const before = await waitFor(() => rowsOf(fleet).length === 1 && rowsOf(fleet), { what: 'the row' });
    expect(before).toEqual(['alpha: enforced ultrawork 2/50']);
    expect(fleet.localRoots()[0]?.store.omc?.source).toMatch(/^--plugin-dir .*\(claude pid \d+\)$/);
    // As a monitor open all day does: it saw that Claude run (its flags recorded) before it exits. That Claude left
    // no OMC state, so its release judges no row: once it is gone the header names the project's answer alone.
    const status = () => fleet.localRoots()[0]?.store.claude.getSnapshot().bySession.get(BBB)?.process?.status;
    await waitFor(() => status() !== undefined && status() !== 'gone', { what: `that Claude seen live (${status()})` });

    claude.kill('SIGKILL');
    await waitFor(() => fleet.localRoots()[0]?.store.omc?.assumed === true, {
      timeoutMs: 15_000,
      what: `the project's OMC looked for again (${fleet.localRoots()[0]?.store.omc?.source})`,
    });
    expect(said).toEqual(['alpha: OMC ? (5.5.0 rules assumed) now (was 4.4.4): verdicts re-judged']);
    const store = fleet.localRoots()[0]!.store;
    expect(omcLabel(store.omc!, store.sessions.getSnapshot().omcSeen)).toBe('OMC ? (5.5.0 rules, assumed)');
  });

  it("a live Claude's --plugin-dir is not the project's OMC where the settings enable one", async () => {
    const m = rig.machine();
    const w = pluginWorld(m.base);
    installPlugin(w.config, OMC55); // the user's plugin: 5.5.0
    const alpha = m.project('alpha', 0);
    writeUltrawork(alpha.root, 'ultrawork alpha'); // a session with no Claude process of its own
    m.register(BBB, alpha.dir, { args: ['--plugin-dir', OMC444] });
    const fleet = rig.fleet(m, { env: { ...m.env, ...w.env }, omcRecheckMs: 100 });
    fleet.start();
    const rows = await waitFor(() => rowsOf(fleet).length === 1 && rowsOf(fleet), { what: 'the row' });
    expect(rows).toEqual(['alpha: not-enforced ultrawork 2/50 (retired)']);
    expect(fleet.localRoots()[0]?.store.omc?.source).toBe('plugin oh-my-claudecode@omc (enabled in user settings)');
  });

  it('an upgrade that moves the state (OMC_STATE_DIR: 4.4.4 ignores it, 5.5.0 keeps state there) is followed', async () => {
    const m = rig.machine();
    const w = pluginWorld(m.base);
    installPlugin(w.config, OMC444);
    const env = { ...m.env, ...w.env, OMC_STATE_DIR: path.join(m.base, 'central') };
    // A Claude session in the project, started with OMC_STATE_DIR (its hooks inherit it), its live loop where OMC
    // 4.4.4's hooks write it: the project's own .omc.
    const p = m.project('gamma', 0, { as: { env: { OMC_STATE_DIR: env.OMC_STATE_DIR } } });
    // Where OMC 5.5.0's own code keeps this project's state, with a ralph loop its hooks left there.
    const central = omc55Root(p.dir, env);
    writeLiveRalph({ root: central }, { sessionId: SID, iteration: 3, prompt: 'ralph in the central state' });
    const said: string[] = [];
    const fleet = rig.fleet(m, {
      env,
      omcRecheckMs: 100,
      onOmcChange: (root, words) => said.push(`${root.label}: ${words}`),
    });
    fleet.start();
    const roots = () =>
      fleet
        .localRoots()
        .map((r) => r.info.root)
        .sort();
    const rows = () => fleet.getSnapshot().groups.flatMap((g) => g.rows.map((r) => r.session));
    // As the hooks of 4.4.4 place it: the project's .omc is read (and OMC_STATE_DIR's directory, listed as ever).
    await waitFor(() => roots().includes(p.root) && rows().includes(p.live) && rows().includes(SID), {
      what: `the project's root (${roots().join(', ')})`,
    });

    installPlugin(w.config, OMC55); // `claude plugin update`
    // 5.5.0 keeps the project's state in OMC_STATE_DIR: the Claude session's directory leads there now, and the
    // project's .omc, which no source names any more, is no longer read.
    await waitFor(() => !roots().includes(p.root) && !rows().includes(p.live) && rows().includes(SID), {
      timeoutMs: 15_000,
      what: `the moved root (${roots().join(', ')})`,
    });
    expect(roots().filter((r) => r !== path.join(m.home, '.omc'))).toEqual([central]);
    // Said on the fleet's message line as a lone monitor says it: the new OMC, then where the state is read now.
    expect(said).toContain('gamma: OMC 5.5.0 now (was 4.4.4): verdicts re-judged');
    expect(said).toContain(`gamma: state read from ${shownPath(central)} now (was ${shownPath(p.root)})`);
  });

  it("OMC_STATE_DIR written into a project's .claude/settings.json is followed there, and back when taken out", async () => {
    const m = rig.machine();
    const w = pluginWorld(m.base);
    installPlugin(w.config, OMC55);
    // A Claude session in the project, its live loop in the project's .omc (no OMC_STATE_DIR anywhere yet).
    const p = m.project('delta', 0);
    const base = path.join(m.base, 'central');
    // Where OMC 5.5.0's own code keeps this project's state once its hooks get OMC_STATE_DIR, with a loop there.
    const central = omc55Root(p.dir, { ...w.env, OMC_STATE_DIR: base });
    writeLiveRalph({ root: central }, { sessionId: SID, iteration: 3, prompt: 'ralph in the central state' });
    const said: string[] = [];
    const fleet = rig.fleet(m, {
      env: { ...m.env, ...w.env },
      omcRecheckMs: 100,
      onOmcChange: (root, words) => said.push(`${root.label}: ${words}`),
    });
    fleet.start();
    const roots = () =>
      fleet
        .localRoots()
        .map((r) => r.info.root)
        .filter((r) => r !== path.join(m.home, '.omc'))
        .sort();
    const rows = () => fleet.getSnapshot().groups.flatMap((g) => g.rows.map((r) => r.session));
    await waitFor(() => roots().includes(p.root) && rows().includes(p.live), { what: `the project's root` });
    expect(rows()).not.toContain(SID);

    // Claude Code gives its running hooks the new value at once: OMC writes under OMC_STATE_DIR from now on.
    const settings = path.join(p.dir, '.claude', 'settings.json');
    writeOmcJson(settings, { env: { OMC_STATE_DIR: base } });
    await waitFor(() => roots().join() === central && rows().includes(SID) && !rows().includes(p.live), {
      timeoutMs: 15_000,
      what: `the root in OMC_STATE_DIR (${roots().join(', ')})`,
    });
    expect(said).toEqual([
      `delta: OMC_STATE_DIR set in the project's .claude/settings.json: state read from ${shownPath(central)} now (was ${shownPath(p.root)})`,
    ]);

    writeOmcJson(settings, {});
    await waitFor(() => roots().join() === p.root && rows().includes(p.live) && !rows().includes(SID), {
      timeoutMs: 15_000,
      what: `the project's root again (${roots().join(', ')})`,
    });
    expect(said.slice(1)).toEqual([
      `delta: OMC_STATE_DIR no longer set in Claude's settings: state read from ${shownPath(p.root)} now (was ${shownPath(central)}); ` +
        `a Claude started before the change keeps writing under ${shownPath(central)} until it restarts`,
    ]);
  });

  it("follows OMC upgraded in place in a running Claude's --plugin-dir: every project re-judged, said once each", async () => {
    const m = rig.machine();
    // One OMC checkout two Claudes run (`claude --plugin-dir <checkout>`, one per project), each on its own loop.
    const checkout = path.join(m.base, 'omc-checkout');
    omcInPlace(checkout, OMC444);
    const ids = { alpha: 'aaaaaaaa-1111-4222-8333-00000000000a', beta: 'aaaaaaaa-1111-4222-8333-00000000000b' };
    for (const [name, sid] of Object.entries(ids)) {
      const p = m.project(name, 0, { liveId: sid, as: { args: ['--plugin-dir', checkout] } });
      writeOmcJson(path.join(p.root, 'state', 'sessions', sid, 'ultrawork-state.json'), {
        active: true,
        started_at: new Date(Date.now() - 60_000).toISOString(),
        original_prompt: `ultrawork ${name}`,
        session_id: sid,
        reinforcement_count: 2,
        last_checked_at: new Date().toISOString(),
      });
    }
    const said: string[] = [];
    const fleet = rig.fleet(m, {
      env: m.env,
      omcRecheckMs: 100,
      onOmcChange: (root, words) => said.push(`${root.label}: ${words}`),
    });
    fleet.start();
    const rows = () =>
      fleet
        .getSnapshot()
        .groups.flatMap((g) =>
          g.rows.filter((r) => Object.values(ids).includes(r.session)).map((r) => `${g.label}: ${r.modes}`),
        )
        .sort();
    // Both projects' Claude side has read its Claude's command line (the row alone may come first).
    const ownSeen = () =>
      fleet.localRoots().map((r) => (r.store.sessions.getSnapshot().omcSeen ?? []).map((o) => o.version).join());
    const before = await waitFor(() => rows().length === 2 && ownSeen().join(';') === '4.4.4;4.4.4' && rows(), {
      what: `both rows, and each Claude's OMC (${ownSeen().join('; ')})`,
    });
    expect(before).toEqual(['alpha: ralph 4/10 · ultrawork 2/50', 'beta: ralph 4/10 · ultrawork 2/50']);

    omcInPlace(checkout, OMC55); // `git pull` in the checkout: the Claudes run 5.5.0's hooks from their next turn
    const after = await waitFor(() => rows().every((r) => r.endsWith('(retired)')) && rows(), {
      timeoutMs: 15_000,
      what: `re-judged rows (${rows().join('; ')})`,
    });
    expect(after).toEqual([
      'alpha: ralph 4/10 · ultrawork 2/50 (retired)',
      'beta: ralph 4/10 · ultrawork 2/50 (retired)',
    ]);
    expect(fleet.localRoots().map((r) => r.store.omc?.version)).toEqual(['5.5.0', '5.5.0']);
    expect(said.sort()).toEqual([
      'alpha: OMC 5.5.0 (--plugin-dir) now (was 4.4.4 (--plugin-dir)): verdicts re-judged',
      'beta: OMC 5.5.0 (--plugin-dir) now (was 4.4.4 (--plugin-dir)): verdicts re-judged',
    ]);
  });

  it("a release moved in place under one session's own --plugin-dir only: that session re-judged, the header's words said once", async () => {
    const m = rig.machine();
    // Two Claudes in one project, each `claude --plugin-dir <its own checkout>` (both 4.4.4): the first found decides
    // the project's OMC, the other judges its own session only.
    const dirs = [path.join(m.base, 'omc-a'), path.join(m.base, 'omc-b')];
    for (const d of dirs) omcInPlace(d, OMC444);
    const ids = ['aaaaaaaa-1111-4222-8333-0000000000a1', 'aaaaaaaa-1111-4222-8333-0000000000a2'];
    const p = m.project('alpha', 0, { liveId: ids[0], as: { args: ['--plugin-dir', dirs[0]!] } });
    makeLive(p.root, ids[1]!);
    m.register(ids[1]!, p.dir, { args: ['--plugin-dir', dirs[1]!] });
    for (const sid of ids) writeRetiredUltrawork(p.root, sid);
    const said: string[] = [];
    const fleet = rig.fleet(m, {
      env: m.env,
      omcRecheckMs: 100,
      onOmcChange: (root, words) => said.push(`${root.label}: ${words}`),
    });
    fleet.start();
    const store = () => fleet.localRoots()[0]!.store;
    const label = () => omcLabel(store().omc!, store().sessions.getSnapshot().omcSeen);
    const rows = () =>
      fleet
        .getSnapshot()
        .groups.flatMap((g) => g.rows.filter((r) => ids.includes(r.session)).map((r) => `${r.session}: ${r.modes}`))
        .sort();
    // Each session joined to its Claude: the pass that joins them reads their command lines.
    const joined = () =>
      ids.every((sid) => store().claude.getSnapshot().bySession.get(sid)?.process?.status === 'busy');
    await waitFor(() => rows().length === 2 && joined(), { what: 'both rows, joined to their Claudes' });
    expect(label()).toBe('OMC 4.4.4 (--plugin-dir)');
    // The checkout that did not decide the project's OMC moves to 5.5.0.
    const decided = store().omc?.process?.dir;
    const other = dirs.findIndex((d) => d !== decided);
    omcInPlace(dirs[other]!, OMC55);
    await waitFor(() => label() === 'OMC 4.4.4/5.5.0 (per session)', {
      timeoutMs: 15_000,
      what: `the label (${label()})`,
    });
    await waitFor(() => rows().filter((r) => r.endsWith('(retired)')).length === 1, { what: rows().join('; ') });
    expect(rows()).toEqual(
      ids.map((sid, i) => `${sid}: ralph 4/10 · ultrawork 2/50${i === other ? ' (retired)' : ''}`).sort(),
    );
    expect(store().omc?.version).toBe('4.4.4');
    expect(said).toEqual(['alpha: OMC 4.4.4/5.5.0 (per session) now (was 4.4.4 (--plugin-dir)): verdicts re-judged']);
  });
});
