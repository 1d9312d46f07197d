/**
 * The `!` footer offers only what a key would do: a permission prompt whose command is not all on screen (the
 * terminal too small for it), or longer than the 500 characters omc-top shows, is refused by y and A, so the footer
 * leaves y and A out and keeps n deny; a prompt shown whole offers y allow. The session detail's footer the same.
 * The tester's case: 60x16, the detail saying "y and A refuse" over a footer offering "y allow / approve".
 */
import { describe, expect, it, KEY } from '../helpers/it.js';
import { askingScene, longCommand } from '../helpers/permission-ask.js';
import { SESSION, waitFor } from '../helpers/fixtures.js';

const S = SESSION.ralph;

/** The footer: the last line of the frame. */
const footer = (lines: string[]) => lines.filter((l) => l.trim() !== '').at(-1) ?? '';

describe('the ! footer offers y only where y allows', () => {
  it('60x16, the command not all on screen: no y allow, no A; n deny is offered', async ({
    project,
    newStore,
    mount,
  }) => {
    const { store, ask } = askingScene(project, newStore, S);
    const a = mount(store, { columns: 60, rows: 16 });
    await a.ready;
    const hook = ask(longCommand(47));
    await a.step('!');
    await a.waitForText(/↓ \d+ lines? of the command not on screen: y and A refuse/);
    await waitFor(() => /n deny/.test(footer(a.lines())), { what: 'n deny in the footer' });
    expect(footer(a.lines())).not.toMatch(/\by allow/);
    expect(footer(a.lines())).not.toMatch(/\bA always/);
    await a.step('n');
    expect((await hook).outcome).toBe('deny');
  });

  it('a command over 500 characters: y and A are refused, the footer offers n deny only', async ({
    project,
    newStore,
    mount,
  }) => {
    const { store, ask } = askingScene(project, newStore, S);
    const a = mount(store, { columns: 120, rows: 40 });
    await a.ready;
    const command = longCommand(60);
    expect(command.length).toBeGreaterThan(500);
    const hook = ask(command);
    await a.step('!');
    await a.waitForText(/» permission: Bash echo start/);
    await waitFor(() => /n deny/.test(footer(a.lines())), { what: 'n deny in the footer' });
    expect(footer(a.lines())).not.toMatch(/\by allow/);
    await a.step('n');
    expect((await hook).outcome).toBe('deny');
  });

  it('80x24, a command shown whole: the footer offers y allow', async ({ project, newStore, mount }) => {
    const { store, ask } = askingScene(project, newStore, S);
    const a = mount(store, { columns: 80, rows: 24 });
    await a.ready;
    const hook = ask(longCommand(45));
    await a.step('!');
    await a.waitForText('HIDDEN-TAIL');
    await waitFor(() => /\by allow/.test(footer(a.lines())), { what: 'y allow in the footer' });
    await a.step('y');
    expect((await hook).outcome).toBe('allow');
  });
});

describe("the session detail's footer offers y only where y allows", () => {
  it('the command scrolled out of view: no y allow; scrolled back: y allow', async ({ project, newStore, mount }) => {
    const { store, ask } = askingScene(project, newStore, S);
    const a = mount(store, { columns: 100, rows: 20 });
    await a.ready;
    await waitFor(() => a.lines().some((l) => l.includes('88727f43')), { what: 'the ralph row' });
    while (!a.lines().some((l) => /▸.*88727f43/.test(l))) await a.step('j');
    await a.step(KEY.enter);
    await a.waitForText(`Session ${S}`);
    const hook = ask(longCommand(45));
    await a.waitForText('! Claude asks permission: Bash echo start');
    await waitFor(() => /\by allow/.test(footer(a.lines())), { what: 'y allow in the footer' });
    await a.step(KEY.end);
    await waitFor(() => !a.text().includes('! Claude asks permission'), { what: 'the command scrolled away' });
    await waitFor(() => /n deny/.test(footer(a.lines())), { what: 'n deny in the footer' });
    expect(footer(a.lines())).not.toMatch(/\by allow/);
    await a.step(KEY.home);
    await a.waitForText('HIDDEN-TAIL');
    await waitFor(() => /\by allow/.test(footer(a.lines())), { what: 'y allow in the footer again' });
    await a.step('y');
    expect((await hook).outcome).toBe('allow');
  });
});
