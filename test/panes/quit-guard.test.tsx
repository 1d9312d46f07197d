import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';

describe('quitting never silently drops a draft', () => {
  it('Ctrl-C with an unsaved notepad draft asks; n goes back to the draft; Ctrl-C twice quits', async ({
    app: mount,
  }) => {
    const app = await mount({ columns: 100, rows: 24 });
    await app.waitForText('ralph 3/10');
    app.send('n');
    await app.waitForText(/Working/);
    app.send('a');
    await app.waitForText(/save/i);
    app.send('d', 'r', 'a', 'f', 't');
    await app.waitForText('draft');
    app.send('\u0003');
    await app.waitForText('Quit and discard unsaved work?');
    expect(app.text()).toMatch(/Notepad: an unsaved Working Memory draft \(5 characters\)/);
    expect(app.exited()).toBe(false);
    app.send('n');
    await waitFor(() => !/Quit and discard/.test(app.text()), { what: 'dialog closed' });
    expect(app.text()).toContain('draft');
    app.send('\u0003');
    await app.waitForText('Quit and discard unsaved work?');
    app.send('\u0003');
    expect(app.exited()).toBe(true);
  });

  it('Ctrl-C in the directive form with a draft asks (it quit at once, the draft lost); y quits', async ({
    app: mount,
  }) => {
    const app = await mount({ columns: 100, rows: 24 });
    await app.waitForText('ralph 3/10');
    app.send('m');
    await app.waitForText(/directive/i);
    app.send('a');
    await app.waitForText(/save/i);
    app.send('k', 'e', 'e', 'p');
    await app.waitForText('keep');
    app.send('\u0003');
    await app.waitForText('Quit and discard unsaved work?');
    expect(app.text()).toMatch(/Memory: a new directive not saved \(4 characters\)/);
    expect(app.exited()).toBe(false);
    app.send('y');
    expect(app.exited()).toBe(true);
  });

  it('without unsaved work q quits at once', async ({ app: mount }) => {
    const app = await mount({ columns: 100, rows: 24 });
    await app.waitForText('ralph 3/10');
    app.send('q');
    expect(app.exited()).toBe(true);
  });

  it('q in a confirmation dialog means no (as in the fleet): the cancel dialog closes, omc-top keeps running', async ({
    app: mount,
  }) => {
    const app = await mount({ columns: 100, rows: 24 });
    await app.waitForText('ralph 3/10');
    await app.press('c');
    await app.waitForText(/Cancel ultrawork of session/);
    const footer = app.lines().at(-1) ?? '';
    expect(footer).toContain('n/Esc/q no');
    expect(footer).not.toContain('q quit');
    app.send('q');
    await waitFor(() => !/Cancel ultrawork of session/.test(app.text()), { what: 'dialog closed' });
    expect(app.exited()).toBe(false);
    expect(app.text()).toContain('ralph 3/10');
    // Out of the dialog, q quits as before.
    app.send('q');
    expect(app.exited()).toBe(true);
  });
});
