/**
 * The attention layer on screen, in the real App over a real store on the
 * OMC fixture: the header's "needs you: N" (the attention view's count) at 80
 * and 60 columns, the inbox (`!`) listing what needs you under its heading
 * with the problems with files apart, the acknowledge key taking an item out
 * of the count (and into the file omc-top keeps), and the N key that switches
 * the notifier off and on with a visible state.
 */
import fs from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { afterEach } from 'vitest';
import { describe, expect, it, type Fixtures } from '../helpers/it.js';
import { AckFile } from '../../src/feeds/attention/acks.js';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { Notifier } from '../../src/feeds/notify/notifier.js';
import { OmcStore } from '../../src/store/store.js';
import { NO_CLAUDE_DIR, waitFor } from '../helpers/fixtures.js';
import type { MountedApp } from '../helpers/mount-app.js';

let monitor: AttentionMonitor | null = null;
afterEach(async () => {
  monitor?.dispose();
  monitor = null;
});

/** The fixture project with an attention layer (monitor, notifier, acks under the project). */
async function start(
  { project: p, mount }: Pick<Fixtures, 'project' | 'mount'>,
  columns: number,
  rows = 24,
  withAttention = true,
  readonly = false,
) {
  const store = new OmcStore({
    root: p.root,
    watch: 'none',
    readonly,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    // The fixture team's worker pids are the generator's: none is alive here, whatever runs on this machine.
    teams: { pidAlive: () => false },
  });
  store.start();
  const stateDir = path.join(p.dir, 'xdg-state', 'omc-top');
  const acks = new AckFile(stateDir, store.root);
  monitor = new AttentionMonitor(store, { acks });
  const notifier = new Notifier({ channels: ['bell'], project: 'proj', write: () => undefined });
  const a = mount(store, {
    columns,
    rows,
    readonly,
    attention: withAttention ? { monitor, notifier } : undefined,
  });
  await a.ready;
  return { a, notifier, monitor, acks, stateDir, store };
}

const fits = (a: MountedApp, w: number) => {
  for (const l of a.lines()) expect(stringWidth(l), l).toBeLessThanOrEqual(w);
};

describe('attention on screen', () => {
  it('the header counts what needs you; the inbox lists it apart from the problems with files', async ({
    project,
    mount,
  }) => {
    const { a, monitor } = await start({ project, mount }, 80);
    // Only the stalled team holds now: the finished loop of 28 hours ago is not counted (old news is no news).
    await waitFor(() => monitor.count.getSnapshot() === 1 || null, { what: 'the count' });
    await a.waitForText('needs you: 1');
    expect(a.lines()[0]).toMatch(/^omc-top {2}\S.* needs you: 1 {2}\d+ sess · /);
    fits(a, 80);
    await a.press('!');
    const inbox = await a.waitForText('Needs you (1)');
    expect(inbox).toMatch(/▸ » +\d+[smhd] stalled: no live worker — \S+ team fix-ts-errors/);
    expect(inbox).toMatch(/Problems with files( \(\d+\)|: none)/);
    // The footer is the inbox's bindings table, the keys that act on the item first; J only where a tmux pane is
    // known (no Claude process is registered for the team's session here).
    expect(a.lines().at(-1)).toMatch(/a ack {2}c cancel/);
    fits(a, 80);
    await a.press('J');
    await a.waitForText('no tmux pane is known');
  });

  it('a acknowledges: the count drops everywhere, the item moves under "Acknowledged", the file keeps it', async ({
    project,
    mount,
  }) => {
    const { a, monitor, acks, stateDir } = await start({ project, mount }, 80);
    await a.waitForText('needs you: 1');
    const id = monitor.view.getSnapshot().open[0]?.id as string;
    await a.press('!');
    await a.waitForText('Needs you (1)');
    await a.press('a');
    await a.waitForText('acknowledged: stalled: no live worker');
    await a.waitForText('Acknowledged, still holding (1)');
    expect(a.text()).toContain('Needs you: nothing');
    expect(a.lines()[0]).not.toContain('needs you');
    expect(monitor.count.getSnapshot()).toBe(0);
    // Written where a one-shot `status --tmux` or a second omc-top finds it.
    const file = JSON.parse(fs.readFileSync(path.join(stateDir, acks.file), 'utf8'));
    expect(Object.keys(file.acks)).toEqual([id]);
    // An acknowledged item cannot be acknowledged again (G: the last row, the headings stepped over).
    await a.press('G');
    await a.press('a');
    await a.waitForText('already acknowledged');
  });

  it("c on a stalled team's item cancels its session's team mode: the dialog names what stays; then it no longer counts", async ({
    project,
    mount,
  }) => {
    const { a, monitor, store } = await start({ project, mount }, 200, 40);
    await a.waitForText('needs you: 1');
    await a.press('!');
    await a.waitForText('Needs you (1)');
    await a.press('c');
    const dialog = await a.waitForText('Left alone: state/team/fix-ts-errors/');
    expect(dialog).toMatch(/Cancel team of session ee515cfb/);
    expect(dialog).toContain('`omc team shutdown fix-ts-errors`');
    await a.press('y');
    const modeFile = path.join(project.root, 'state/sessions/ee515cfb-7647-4b9d-a111-0c48a47992a1/team-state.json');
    await waitFor(() => !fs.existsSync(modeFile) || null, { what: 'the team mode state removed' });
    // No file watcher in this test (watch: 'none'): the scan a watcher would start.
    store.sessions.scan();
    store.teams.scan();
    // The team-state.json naming it is gone: no session runs the team, so it leaves the count on every surface.
    await waitFor(() => monitor.count.getSnapshot() === 0 || null, { what: 'the team item to leave the count' });
    await waitFor(() => !a.lines()[0]!.includes('needs you') || null, { what: 'the header without the count' });
    expect(fs.existsSync(path.join(project.root, 'state/team/fix-ts-errors/config.json'))).toBe(true);
  });

  it('c on a team item no session runs says what to do, not that it has no session', async ({ project, mount }) => {
    // The team's mode state says nothing of it any more; its leader is named in its config (as 5.5's CLI writes).
    const cfg = path.join(project.root, 'state/team/fix-ts-errors/config.json');
    fs.writeFileSync(
      cfg,
      JSON.stringify({ ...JSON.parse(fs.readFileSync(cfg, 'utf8')), leader_session_id: 'cli-leader' }),
    );
    fs.rmSync(path.join(project.root, 'state/sessions/ee515cfb-7647-4b9d-a111-0c48a47992a1/team-state.json'));
    const { a } = await start({ project, mount }, 160, 30);
    await a.waitForText('needs you: 1');
    await a.press('!');
    await a.waitForText('Needs you (1)');
    await a.press('c');
    await a.waitForText(
      'no session runs team fix-ts-errors (no active team mode to cancel): `omc team shutdown fix-ts-errors`',
    );
    expect(a.text()).not.toContain('this item has no session');
  });

  it('fits 60 columns and 24 rows: header, inbox rows, detail and footer', async ({ project, mount }) => {
    const { a } = await start({ project, mount }, 60);
    await a.waitForText('needs you: 1');
    const head = a.lines()[0]!;
    expect(head).toMatch(/^omc-top {2}\S{8,}/);
    fits(a, 60);
    await a.press('!');
    await a.waitForText('Needs you (1)');
    fits(a, 60);
    expect(a.lines().length).toBeLessThanOrEqual(24);
  });

  it('--readonly: a is disabled and says why; nothing is written', async ({ project, mount }) => {
    const { a, stateDir } = await start({ project, mount }, 80, 24, true, true);
    await a.waitForText('needs you: 1');
    await a.press('!');
    await a.waitForText('Needs you (1)');
    await a.press('a');
    await a.waitForText('--readonly: nothing is written, so nothing can be acknowledged');
    expect(fs.existsSync(stateDir)).toBe(false);
    expect(a.lines()[0]).toContain('needs you: 1');
  });

  it('N switches notifications off and on, says so, and the header shows the state', async ({ project, mount }) => {
    const { a, notifier } = await start({ project, mount }, 100);
    await a.waitForText('needs you:');
    await a.press('N');
    await a.waitForText('notifications off');
    expect(notifier.isEnabled()).toBe(false);
    expect(a.lines()[0]).toContain('notify off');
    await a.press('N');
    await a.waitForText('notifications on');
    expect(notifier.isEnabled()).toBe(true);
    expect(a.lines()[0]).not.toContain('notify off');
  });

  it('without an attention layer N says notifications are not running, and the header has no count', async ({
    project,
    mount,
  }) => {
    const { a } = await start({ project, mount }, 80, 24, false);
    await a.waitForText('sess');
    await a.press('N');
    await a.waitForText('notifications are not running here');
    expect(a.lines()[0]).not.toContain('needs you');
    await a.press('!');
    await a.waitForText('Needs you: not followed here');
  });
});

describe('the inbox on a problem line', () => {
  it('a problem about what no pane shows offers neither ack nor open, and says why when pressed', async ({
    project,
    mount,
  }) => {
    fs.mkdirSync(path.join(project.root, 'ultragoal'), { recursive: true });
    fs.writeFileSync(path.join(project.root, 'ultragoal', 'goals.json'), '{ not json');
    const { a } = await start({ project, mount }, 80);
    await a.waitForText('needs you: 1');
    await a.press('!');
    await a.waitForText('Needs you (1)');
    const footerOf = () => a.lines().find((l) => l.includes('? help')) ?? '';
    expect(footerOf()).toMatch(/a ack {2}c cancel {2}Enter open/);
    await a.press('j');
    await a.waitForText(/▸ ⚠ ultragoal\/goals\.json: invalid JSON/);
    // Neither acts on this line: the footer offers neither, and each says why when pressed anyway.
    const footer = footerOf();
    expect(footer).not.toContain('a ack');
    expect(footer).not.toContain('Enter open');
    await a.press('a');
    await a.waitForText('problems with files clear when the file is fixed');
    await a.press('\r');
    await a.waitForText('no pane shows ultragoal/goals.json: the line clears once that is put right');
  });
});
