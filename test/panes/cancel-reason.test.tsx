/**
 * The reason a cancel did not take is read whole on the message line at the
 * sizes people run omc-top in (80x24, a 60-column pane): it wraps onto the
 * rows above the footer instead of being cut to `…`, and the list gives up
 * those rows (nothing drawn past the screen).
 */
import fs from 'node:fs';
import path from 'node:path';
import { SESSION, writeOmcJson } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';

const S = SESSION.ralph;
const ralphRel = `state/sessions/${S}/ralph-state.json`;

describe('the reason a cancel did not take', () => {
  for (const columns of [80, 60]) {
    it(`is on screen in full at ${columns}x24 (wrapped on the message line, not cut)`, async ({ app, project }) => {
      const abs = path.join(project.root, ralphRel);
      const live = () => ({ ...JSON.parse(fs.readFileSync(abs, 'utf8')), session_id: S });
      writeOmcJson(abs, { ...live(), last_checked_at: new Date().toISOString() });
      const a = await app({ columns, rows: 24, watch: 'poll' });
      await a.waitForText(/▸ enforced\s+88727f43 ralph 3\/10/);
      const startedAt = String(live().started_at);
      await a.press('c');
      await a.waitForText('y: cancel the loop');
      await a.press('y');
      await a.waitForText(/ended \d+s +88727f43/);
      // A Stop event already under way writes ralph back, fresh and owned (the same run: its started_at kept).
      const iso = new Date().toISOString();
      writeOmcJson(abs, {
        active: true,
        iteration: 5,
        max_iterations: 10,
        session_id: S,
        started_at: startedAt,
        last_checked_at: iso,
      });
      await a.waitForText('re-armed it)');

      const lines = a.lines().filter((l, i, all) => l !== '' || i < all.length - 1);
      expect(lines.length).toBeLessThanOrEqual(23);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(columns);
      // The message's rows, from its first line (the ✗ mark) to the footer.
      const from = lines.findIndex((l) => l.startsWith('✗ not ended yet'));
      expect(from).toBeGreaterThan(0);
      const message = lines.slice(from, -1).join(' ').replace(/\s+/g, ' ');
      const pathShown = `state/sessions/${S}/ralph-state.json`;
      // Every word of the reason is there; a path longer than the line is shortened once, in its middle.
      const expected = `✗ not ended yet: ralph active again: ${pathShown} was rewritten after the cancel (a Stop event already under way re-armed it)`;
      if (pathShown.length <= columns) expect(message).toBe(expected);
      else {
        const [head, tail] = message.split('…') as [string, string];
        expect(expected.startsWith(head)).toBe(true);
        expect(expected.endsWith(tail)).toBe(true);
        expect(tail).toContain(
          'ralph-state.json was rewritten after the cancel (a Stop event already under way re-armed it)',
        );
      }
      expect(message).not.toMatch(/…$/);
      // The footer is still the last row.
      expect(lines.at(-1)).toMatch(/\? help/);
    });
  }
});
