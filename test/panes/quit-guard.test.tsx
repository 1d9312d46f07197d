import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, waitFor, type TempProject } from '../helpers/fixtures.js';
import { renderApp, type RenderedApp } from '../helpers/render-app.js';

let app: RenderedApp | null = null;
let p: TempProject | null = null;
afterEach(async () => {
  await app?.cleanup();
  p?.cleanup();
  app = null;
  p = null;
});

describe('quitting never silently drops a draft', () => {
  it('Ctrl-C with an unsaved notepad draft asks; n goes back to the draft; Ctrl-C twice quits', async () => {
    p = makeProject({ withFixture: true });
    app = renderApp({ root: p.root });
    await app.waitForFrame('ralph 3/10');
    app.press('n');
    await app.waitForFrame(/Working/);
    app.press('a');
    await app.waitForFrame(/save/i);
    app.press('d', 'r', 'a', 'f', 't');
    await app.waitForFrame('draft');
    app.press('\u0003');
    await app.waitForFrame('Quit and discard unsaved work?');
    expect(app.frame()).toMatch(/Notepad: an unsaved Working Memory draft \(5 characters\)/);
    expect(app.exited()).toBe(false);
    app.press('n');
    await waitFor(() => !/Quit and discard/.test(app!.frame()), { what: 'dialog closed' });
    expect(app.frame()).toContain('draft');
    app.press('\u0003');
    await app.waitForFrame('Quit and discard unsaved work?');
    app.press('\u0003');
    expect(app.exited()).toBe(true);
  });

  it('without unsaved work q quits at once', async () => {
    p = makeProject({ withFixture: true });
    app = renderApp({ root: p.root });
    await app.waitForFrame('ralph 3/10');
    app.press('q');
    expect(app.exited()).toBe(true);
  });
});
