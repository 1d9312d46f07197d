/**
 * `c` (cancel) and `p` (pause) while the monitor waits for OMC's root (no `.omc` yet): there is no loop they could
 * act on, so the footer leaves them out, `?` says why beside each, and pressing one says it at once, with no dialog
 * and nothing written. Once OMC makes the root and a loop in it, both are offered again and `c` opens the dialog.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { NO_CLAUDE_DIR, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { OmcStore } from '../../src/store/store.js';
import { shownPath } from '../../src/io/shown-path.js';

const S = 'b2c3d4e5-0000-4000-8000-0000000000b2';

describe('c and p with no .omc yet', () => {
  it('are left out of the footer, ? says why, pressing them says it at once; offered again once a loop is there', async ({
    tempDir,
    mount,
  }) => {
    const dir = tempDir('omc-top-no-root-keys-');
    const root = path.join(dir, '.omc');
    const store = new OmcStore({
      root,
      watch: 'auto',
      projectDir: dir,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    });
    store.start();
    const a = mount(store, { columns: 200, rows: 30 });
    await a.ready;
    await waitFor(() => store.status.getSnapshot().rootAbsence?.code === 'missing', { what: 'the root seen missing' });
    await a.waitForText('No sessions yet');
    const footer = () =>
      a
        .text()
        .split('\n')
        .filter((l) => l.trim())
        .at(-1) ?? '';
    await waitFor(() => footer().includes('sort'), { what: `the list's footer: ${footer()}` });
    expect(footer()).not.toMatch(/\bc cancel\b/);
    expect(footer()).not.toMatch(/\bp pause\b/);

    // In the footer's and the problem line's words (the root not made yet, or gone and waited for).
    const why = (verb: string) => `${verb}: ${shownPath(root)} does not exist; waiting for it: no OMC loop to ${verb}`;
    a.send('c');
    await a.waitForText(why('cancel'));
    expect(a.text()).not.toMatch(/y yes/);
    a.send('p');
    await a.waitForText(why('pause'));
    expect(a.text()).not.toMatch(/y yes/);
    expect(fs.existsSync(root)).toBe(false);

    // ? names the reason beside each key.
    a.send('?');
    await a.waitForText('omc-top keys');
    await a.waitForText('(not now: cancel: ');
    await a.waitForText('(not now: pause: ');
    a.send('\u001b');
    await a.waitForText('No sessions yet');

    // OMC makes its root with a loop in it: the keys act again.
    writeLiveRalph({ root }, { sessionId: S, iteration: 3, max: 10 });
    await a.waitForText(/b2c3d4e5\S*\s+ralph/);
    await waitFor(() => /\bc cancel\b/.test(footer()) && /\bp pause\b/.test(footer()), {
      what: `c and p back in the footer: ${footer()}`,
    });
    a.send('c');
    await a.waitForText('y yes');
  });
});
