/**
 * What you allow is what you read, in the `!` inbox and the session detail: a permission prompt's command (under
 * the 500 characters past which y always refuses) is shown whole when the screen can hold it, the list giving up its
 * rows; when it cannot, the detail says how much is not on screen and y and A refuse, saying why, while n denies.
 * The tester's case: 80x24 with the list full, a 479-character command shown up to `step42`, y allowed the hidden
 * tail.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';
import { describe, expect, it, KEY } from '../helpers/it.js';
import { askingScene, longCommand } from '../helpers/permission-ask.js';
import { SESSION, waitFor, type TempProject } from '../helpers/fixtures.js';

const S = SESSION.ralph;

function scene(project: TempProject, newStore: (o: OmcStoreOptions) => OmcStore) {
  const { store, ask } = askingScene(project, newStore, S);
  const answerFiles = () => {
    const dir = path.join(store.permissions.stateDir, 'permissions', 'answers');
    return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  };
  return { store, ask, answerFiles };
}

describe('the ! inbox shows a permission prompt whole, or refuses to allow it', () => {
  it('80x24: a 479-character command is on screen to its last word, and y allows it', async ({
    project,
    newStore,
    mount,
  }) => {
    const { store, ask } = scene(project, newStore);
    const a = mount(store, { columns: 80, rows: 24 });
    await a.ready;
    const command = longCommand(45);
    expect(command.length).toBeGreaterThan(470);
    const hook = ask(command);
    await a.step('!');
    await a.waitForText(/» permission: Bash echo start/);
    // The whole command, its tail included; nothing says a part is missing.
    await a.waitForText('HIDDEN-TAIL');
    expect(a.text()).toMatch(/step45/);
    expect(a.text()).not.toMatch(/not on screen/);
    await a.step('y');
    expect((await hook).outcome).toBe('allow');
  });

  it('60x16: a command the screen cannot hold says how much is hidden; y and A refuse and say why, n denies', async ({
    project,
    newStore,
    mount,
  }) => {
    const { store, ask, answerFiles } = scene(project, newStore);
    const a = mount(store, { columns: 60, rows: 16 });
    await a.ready;
    const hook = ask(longCommand(47));
    await a.step('!');
    await a.waitForText(/» permission: Bash echo start/);
    await a.waitForText(/↓ \d+ lines? of the command not on screen: y and A refuse/);
    expect(a.text()).not.toMatch(/HIDDEN-TAIL/);
    await a.step('y');
    await a.waitForText(/not allowed from here: the command is not all on screen/);
    await a.step('A');
    expect(store.permissions.getSnapshot().requests).toHaveLength(1);
    expect(answerFiles()).toEqual([]);
    await a.step('n');
    expect((await hook).outcome).toBe('deny');
  });
});

describe('the session detail allows only a command that is on screen', () => {
  it('scrolled so the command is out of view, y refuses and says so; scrolled back, y allows', async ({
    project,
    newStore,
    mount,
  }) => {
    const { store, ask, answerFiles } = scene(project, newStore);
    const a = mount(store, { columns: 100, rows: 20 });
    await a.ready;
    await a.waitForText(/88727f43/);
    // The ralph session's row, then its detail.
    await waitFor(() => a.lines().some((l) => l.includes('88727f43')), { what: 'the ralph row' });
    while (!a.lines().some((l) => /▸.*88727f43/.test(l))) await a.step('j');
    await a.step(KEY.enter);
    await a.waitForText(`Session ${S}`);
    const hook = ask(longCommand(45));
    await a.waitForText('! Claude asks permission: Bash echo start');
    await a.step(KEY.end);
    await waitFor(() => !a.text().includes('! Claude asks permission'), { what: 'the command scrolled away' });
    await a.step('y');
    await a.waitForText(
      /not allowed from here: the command is not all on screen \(\d+ lines? of it scrolled out of view\)/,
    );
    expect(answerFiles()).toEqual([]);
    await a.step(KEY.home);
    await a.waitForText('HIDDEN-TAIL');
    await a.step('y');
    expect((await hook).outcome).toBe('allow');
  });
});
