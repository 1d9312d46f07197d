import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { SESSION, writeOmcJson } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';
import { KEY } from '../helpers/keys.js';

describe('omc-top in a real terminal', () => {
  it('shows a session, follows a state change live, reflows on resize and restores the terminal on q', async ({
    project: p,
    pty,
  }) => {
    const h = pty({ cwd: p.dir, cols: 100, rows: 24, checkStty: true });
    await h.waitForText('ralph 3/10');
    expect(h.altScreen).toBe(true);
    expect(h.text()).toContain(p.root.replace(process.env.HOME ?? '\0', '~'));

    const file = path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    // A fresh write with the session_id OMC's Stop hook needs makes the loop live: enforced, not stale.
    writeOmcJson(file, {
      ...state,
      session_id: SESSION.ralph,
      iteration: 4,
      last_checked_at: new Date().toISOString(),
    });
    await h.waitForText('ralph 4/10');
    expect(h.screen().find((l) => l.includes('ralph 4/10'))).toMatch(/enforced/);

    h.resize(60, 20);
    await h.waitForText(/SESSION\s+MODES\s+(?:by attention\s+)?AGE/);
    const narrow = h.screen();
    expect(narrow.every((l) => l.length <= 60)).toBe(true);
    expect(narrow.join('\n')).toContain('ralph 4/10');
    // No row of the old 100-column frame survives the reflow.
    expect(narrow.some((l) => l.includes('ultraqa 2/5 fix (retired)') && l.length > 60)).toBe(false);

    h.write('q');
    expect(await h.waitForExit()).toBe(0);
    await h.settle();
    expect(h.altScreen).toBe(false);
    expect(h.cursorVisible).toBe(true);
    const stty = h.stty();
    expect(stty?.after).toBe(stty?.before);
  });

  it('moves with j/k, opens a detail view with Enter and comes back with Esc', async ({ project: p, pty }) => {
    const h = pty({ cwd: p.dir, cols: 100, rows: 30 });
    await h.waitForText('ralph 3/10');
    const selectedRow = () => h.screen().find((l) => l.startsWith('▸')) ?? '';
    const first = selectedRow();
    h.write('j');
    await h.waitForText(/▸/);
    await waitChange(() => selectedRow(), first);
    h.write(KEY.enter);
    await h.waitForText('fields:');
    h.write(KEY.esc);
    await h.waitForText(/STATUS\s+SESSION/);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});

async function waitChange(read: () => string, from: string): Promise<string> {
  const deadline = Date.now() + scaled(5000);
  for (;;) {
    const v = read();
    if (v !== from) return v;
    if (Date.now() > deadline) throw new Error(`value did not change from ${from}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}
