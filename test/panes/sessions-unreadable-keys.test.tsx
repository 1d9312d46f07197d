/**
 * `c` (cancel) and `p` (pause) on a session one of whose mode files omc-top may not read: neither is safe without
 * what the file holds (store/cancel/unreadable.ts), so the footer leaves them out, `?` says why, and pressing them
 * says it at once in the plan's own words, with no dialog and nothing written. The refusal is the kernel's error
 * injected (test/helpers/read-faults.ts): the tests run as root, where a chmod stops no read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { NO_CLAUDE_DIR, waitFor, writeLiveRalph, type TempProject } from '../helpers/fixtures.js';
import { refuseReads, type ReadFault } from '../helpers/read-faults.js';
import { OmcStore } from '../../src/store/store.js';
import { planCancel } from '../../src/store/cancel/plan.js';

const S = 'a1b2c3d4-0000-4000-8000-0000000000a1';
const RALPH = `state/sessions/${S}/ralph-state.json`;

let fault: ReadFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

function storeOver(p: TempProject): OmcStore {
  const store = new OmcStore({
    root: p.root,
    watch: 'none',
    projectDir: p.dir,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
  });
  store.start();
  return store;
}

describe('c and p on a session whose loop file omc-top may not read', () => {
  it('are left out of the footer, ? says why, and pressing them says it at once: no dialog, nothing written', async ({
    emptyProject: p,
    mount,
  }) => {
    const file = writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    const started = path.join(p.root, `state/sessions/${S}/session-started.json`);
    fs.writeFileSync(started, JSON.stringify({ cwd: p.dir }));
    fault = refuseReads('EACCES', (abs) => abs === file);
    const store = storeOver(p);
    const a = mount(store, { columns: 200, rows: 40 });
    await a.ready;
    await a.waitForText('ralph ? (unreadable)');
    const footer = () =>
      a
        .text()
        .split('\n')
        .filter((l) => l.trim())
        .at(-1) ?? '';
    await waitFor(() => footer().includes('detail'), { what: `the list's footer: ${footer()}` });
    expect(footer()).not.toMatch(/\bc cancel\b/);
    expect(footer()).not.toMatch(/\bp pause\b/);

    // The plan's refusal, word for word, is what pressing c says.
    const planned = planCancel(p.root, { sessionId: S, mode: null, pauseOnly: false }, Date.now());
    expect(planned).toMatchObject({ ok: false, code: 'unreadable' });
    const refusal = (planned as { message: string }).message;
    expect(refusal).toMatch(new RegExp(`^omc-top cannot read ${RALPH} \\(permission denied`));
    a.send('c');
    await a.waitForText('cancel: omc-top cannot read');
    expect(a.text().replace(/\s+/g, ' ')).toContain(`cancel: ${refusal}`.replace(/\s+/g, ' ').slice(0, 150));
    expect(a.text()).not.toMatch(/y yes/);
    // Nothing was written: no cancel signal beside the file.
    expect(fs.existsSync(path.join(p.root, `state/sessions/${S}/cancel-signal-state.json`))).toBe(false);

    // ? names the reason beside the key.
    a.send('?');
    await a.waitForText('omc-top keys');
    await a.waitForText('(not now: cancel: omc-top cannot read');
    await a.waitForText('(not now: pause: omc-top cannot read');
    a.send('\u001b');
    await a.waitForText(/STATUS\s+SESSION/);

    // The detail view: the same.
    a.send('\r');
    await a.waitForText(/updated:/);
    await waitFor(() => footer().includes('back'), { what: `the detail's footer: ${footer()}` });
    expect(footer()).not.toMatch(/\bc cancel\b/);
    a.send('p');
    await a.waitForText('pause: omc-top cannot read');
    expect(a.text()).not.toMatch(/y yes/);
    expect(fs.existsSync(path.join(p.root, `state/sessions/${S}/cancel-signal-state.json`))).toBe(false);

    // The loop file readable, the start record not: the session is still unreadable (its verdict reads the record),
    // but the cancel reads the loop files it acts on itself, so c is offered again and opens the dialog.
    fault.restore();
    fault = refuseReads('EACCES', (abs) => abs === started);
    fs.chmodSync(file, 0o640);
    fs.chmodSync(started, 0o640);
    store.sessions.scan();
    await waitFor(() => store.sessions.getSnapshot().sessions[0]?.unreadable?.[0]?.endsWith('session-started.json'), {
      what: 'only the start record unreadable',
    });
    await waitFor(() => /\bc cancel\b/.test(footer()), { what: `c back in the detail's footer: ${footer()}` });
    a.send('c');
    await a.waitForText('y yes');
  });
});
