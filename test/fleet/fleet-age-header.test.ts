/**
 * The fleet's column header names its last column whole, `AGE`, over the rows' ages at every width (it read `AG…`:
 * the header filled every cell of the line while a row leaves the last one blank, and the line's fit cut it; the list's
 * `↓N more` note, added after AGE, was cut with it).
 */
import { describe, expect, it } from 'vitest';
import { mountFleet } from '../helpers/mount-app.js';
import { fleetRigPerTest } from './fleet-tree.js';

const rig = fleetRigPerTest();

describe('omc-top --all: the AGE column header', () => {
  it('reads AGE, ending where the rows’ ages end, from 60 to 170 columns', async () => {
    const m = rig.machine();
    m.project('quiet', 2);
    const fleet = rig.fleet(m, { watch: 'none' });
    fleet.start();
    const app = await mountFleet(fleet, { columns: 60, rows: 24 });
    for (const columns of [60, 80, 100, 120, 140, 170]) {
      app.resize(columns, 24);
      const all = (await app.waitForText(/quiet {2}\(3 sessions/)).split('\n');
      const header = all.find((l) => l.includes('STATUS')) ?? '';
      expect(header, `${columns} columns:\n${all.join('\n')}`).toMatch(/ AGE$/);
      expect(header).not.toContain('…');
      const row = all.find((l) => /^[▸ ] .* \d+[smhd]$/.test(l)) ?? '';
      expect(row, all.join('\n')).not.toBe('');
      expect(header.length).toBe(row.length);
      expect(header.length).toBeLessThanOrEqual(columns);
    }
    // A list longer than the screen: its `↓N more` note in the header, AGE still whole after it.
    for (const columns of [60, 80, 100, 170]) {
      app.resize(columns, 7);
      const t = await app.waitForText(/more/);
      const header = t.split('\n').find((l) => l.includes('STATUS')) ?? '';
      expect(header, `${columns}x7:\n${t}`).toMatch(/[↑↓]\d+ more .* AGE$/);
      expect(header.length).toBeLessThan(columns);
    }
    app.unmountOnly();
  });
});
