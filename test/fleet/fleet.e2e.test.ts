/**
 * `omc-top --all` in a real terminal (the bundle under a pty): three projects
 * found through a Claude registry in Claude Code's own format, a live change
 * reaching the screen, Enter into a project's panes, Esc back, q restores.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { writeOmcJson } from '../helpers/fixtures.js';
import { makeMachine, type Machine } from './fleet-tree.js';
import { scaled } from '../helpers/time-scale.js';
import { KEY } from '../helpers/keys.js';

let m: Machine | null = null;
afterEach(() => {
  m?.cleanup();
  m = null;
});

describe('omc-top --all in a real terminal', () => {
  it('lists every project, follows a change live, opens a project with Enter and returns with Esc', async ({ pty }) => {
    m = makeMachine();
    const a = m.project('proj-a', 1);
    m.project('proj-b', 1);
    m.project('proj-c', 1);
    const h = pty({ args: ['--all'], cols: 120, rows: 30, cwd: m.base, env: m.env });
    await h.waitForText('3 Claude sessions on this machine', 20_000);
    for (const name of ['proj-a', 'proj-b', 'proj-c']) await h.waitForText(`${name}  (2 sessions)`, 20_000);

    const file = path.join(a.root, 'state', 'sessions', a.live, 'ralph-state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    writeOmcJson(file, { ...state, iteration: 7, last_checked_at: new Date().toISOString() });
    await h.waitForText('ralph 7/10', 20_000);

    // The row of proj-a's live loop: move to it (each j waits for the cursor to move) and open it.
    const selected = () => h.screen().find((l) => l.startsWith('▸')) ?? '';
    for (let i = 0; i < 12 && !selected().includes('ralph 7/10'); i++) {
      const before = h.screen().findIndex((l) => l.startsWith('▸'));
      h.write('j');
      const deadline = Date.now() + scaled(10_000);
      while (h.screen().findIndex((l) => l.startsWith('▸')) === before && Date.now() < deadline) {
        await h.settle();
        await new Promise((r) => setTimeout(r, 15));
      }
    }
    expect(selected()).toContain('ralph 7/10');
    h.write(KEY.enter);
    await h.waitForText('Esc back to the fleet', 20_000);
    h.write(KEY.esc);
    await h.waitForText(/omc-top .*ralph|SESSION/, 20_000);
    h.write(KEY.esc);
    await h.waitForText('Claude sessions on this machine', 20_000);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
    await h.settle();
    expect(h.altScreen).toBe(false);
  });
});
