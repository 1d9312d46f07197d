/**
 * The sessions list's footer offers only the keys that can act now: on an empty `.omc/` (or an empty
 * `state/sessions/`), and under a `/` filter that matches nothing, no row is selected, so Enter (detail), c (cancel),
 * p (pause), P (peek) and J (jump) are left out. Pressed anyway, each says "no session selected" and opens nothing;
 * `?` still lists them, saying why not now. With a session on screen they are offered again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, KEY } from '../helpers/it.js';
import { NO_CLAUDE_DIR, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { OmcStore } from '../../src/store/store.js';
import type { MountedApp } from '../helpers/mount-app.js';

const S = 'c3d4e5f6-0000-4000-8000-0000000000c3';

/** The hints that act on the selected session, as the footer writes them. */
const SESSION_HINTS = [/\bEnter detail\b/, /\bc cancel\b/, /\bp pause\b/, /\bP peek\b/, /\bJ jump\b/];

const footerOf = (a: MountedApp) =>
  a
    .text()
    .split('\n')
    .filter((l) => l.trim())
    .at(-1) ?? '';

/** The app over `root` (an existing `.omc`), its list drawn with the empty state and the list's footer. */
async function mountEmpty(
  mount: (store: OmcStore, opts: { columns: number; rows: number }) => MountedApp & { ready: Promise<void> },
  dir: string,
  root: string,
) {
  const store = new OmcStore({
    root,
    watch: 'auto',
    projectDir: dir,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
  });
  store.start();
  const a = mount(store, { columns: 220, rows: 30 });
  await a.ready;
  await a.waitForText('No sessions yet');
  await waitFor(() => footerOf(a).includes('S sort'), { what: `the list's footer: ${footerOf(a)}` });
  return a;
}

/** Each session key pressed says, in a message of its own, that there is none; nothing opens. */
async function refusesEach(a: MountedApp): Promise<void> {
  for (const key of ['c', 'p', 'P', 'J', KEY.enter]) {
    const before = a.ui.getSnapshot().log.length;
    await a.press(key);
    await waitFor(() => a.ui.getSnapshot().log.length > before, { what: `a message for ${JSON.stringify(key)}` });
    expect(a.ui.getSnapshot().log.at(-1)?.text).toBe('no session selected');
    await a.waitForText('no session selected');
    expect(a.text()).not.toMatch(/y yes/);
    expect(a.text()).not.toContain('session detail');
  }
}

describe('the sessions footer with no session selected', () => {
  for (const shape of ['an empty .omc/', 'an empty .omc/state/sessions/'] as const) {
    it(`on ${shape} leaves the session keys out, says why when pressed, and offers them once a loop is there`, async ({
      tempDir,
      mount,
    }) => {
      const dir = tempDir('omc-top-empty-keys-');
      const root = path.join(dir, '.omc');
      fs.mkdirSync(shape === 'an empty .omc/' ? root : path.join(root, 'state', 'sessions'), { recursive: true });
      const a = await mountEmpty(mount, dir, root);
      for (const h of SESSION_HINTS) expect(footerOf(a)).not.toMatch(h);
      // What can act now is still there.
      expect(footerOf(a)).toMatch(/\/ filter/);

      await refusesEach(a);

      // `?` is the reference: every key, the session ones saying why not now.
      await a.press('?');
      await a.waitForText('omc-top keys');
      await a.waitForText('(not now: no session selected)');
      await a.press(KEY.esc);
      await a.waitForText('No sessions yet');

      writeLiveRalph({ root }, { sessionId: S, iteration: 2, max: 10 });
      await a.waitForText(/c3d4e5f6\S*\s+ralph/);
      await waitFor(() => SESSION_HINTS.every((h) => h.test(footerOf(a))), {
        what: `the session keys back in the footer: ${footerOf(a)}`,
      });
      await a.press('c');
      await a.waitForText('y yes');
    });
  }

  it('under a / filter that matches nothing leaves them out, and offers them again when the filter is cleared', async ({
    tempDir,
    mount,
  }) => {
    const dir = tempDir('omc-top-empty-keys-');
    const root = path.join(dir, '.omc');
    writeLiveRalph({ root }, { sessionId: S, iteration: 2, max: 10 });
    const store = new OmcStore({
      root,
      watch: 'auto',
      projectDir: dir,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    });
    store.start();
    const a = mount(store, { columns: 220, rows: 30 });
    await a.ready;
    await a.waitForText(/c3d4e5f6\S*\s+ralph/);
    await waitFor(() => SESSION_HINTS.every((h) => h.test(footerOf(a))), { what: `the footer: ${footerOf(a)}` });

    await a.press('/', 'n', 'o', 'm', 'a', 't', 'c', 'h', KEY.enter);
    await waitFor(() => !a.text().includes('c3d4e5f6') && footerOf(a).includes('S sort'), {
      what: `the filtered list's footer: ${footerOf(a)}`,
    });
    for (const h of SESSION_HINTS) expect(footerOf(a)).not.toMatch(h);
    await refusesEach(a);

    await a.press(KEY.esc);
    await a.waitForText(/c3d4e5f6\S*\s+ralph/);
    await waitFor(() => SESSION_HINTS.every((h) => h.test(footerOf(a))), {
      what: `the session keys back in the footer: ${footerOf(a)}`,
    });
  });
});
