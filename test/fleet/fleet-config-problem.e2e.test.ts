/**
 * omc-top's own config file bad under `omc-top --all`. The fleet said it once on the message line at start and then
 * nowhere (the next key took the line). Now, as the monitor keeps it in its problem lines and `!` list, the fleet
 * keeps a line naming the file and what is wrong under its list, `!` lists it, for as long as the file is bad; it
 * leaves when the file is fixed (and the fixed file applies), and a field broken later is left out as at a start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor } from '../helpers/fixtures.js';
import { KEY } from '../helpers/keys.js';
import { makeMachine, type Machine } from './fleet-tree.js';
import { scaled } from '../helpers/time-scale.js';

let m: Machine | null = null;
afterEach(() => {
  m?.cleanup();
  m = null;
});

describe('omc-top --all with a bad config file', () => {
  it(
    'keeps a line naming the file and what is wrong, lists it under !, and lets it go when the file is fixed',
    async ({ pty }) => {
      m = makeMachine();
      m.project('alpha', 1);
      const file = path.join(m.home, '.config', 'omc-top', 'config.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '{"title": false,');
      const h = pty({ args: ['--all'], cols: 160, rows: 30, cwd: m.base, env: m.env });
      await h.waitForText('alpha  (2 sessions)', 20_000);
      const said = `⚠ ${file}: config file: not valid JSON`;
      // A move takes the start's message; the file's line is still there after it.
      h.write('j');
      await h.waitForText(said, 20_000);
      h.write('j');
      await h.settle();
      expect(h.text()).toContain(said);
      h.write('!');
      await h.waitForText('Problems with files (1)', 20_000);
      expect(h.text()).toContain(`${file}: config file: not valid JSON`);
      expect(h.text()).not.toContain('not in the fleet');
      h.write(KEY.esc);
      await h.waitForText('alpha  (2 sessions)', 20_000);

      // Fixed: the line goes, `!` says there is none.
      fs.writeFileSync(file, '{"title": false}');
      await waitFor(() => !h.text().includes('config file: not valid JSON') || null, {
        timeoutMs: 20_000,
        what: `the problem line gone\n${h.text()}`,
      });
      h.write('!');
      await h.waitForText('Problems with files: none', 20_000);
      h.write(KEY.esc);
      await h.waitForText('alpha  (2 sessions)', 20_000);

      // Broken again another way: said again, field and all; the field is left out as a start leaves it (the title
      // back to its default, on), and the message says so before the line comes back (a move takes the message).
      fs.writeFileSync(file, '{"title": "yes"}');
      await h.waitForText('config file: applied (title on)', 20_000);
      h.write('k');
      await h.waitForText(`⚠ ${file}: config file: title: Invalid input`, 20_000);
      // Cut to the width (the rest is in !), the footer still under it.
      expect(h.text()).toMatch(/\? help {2}q quit/);
      h.write('!');
      await h.waitForText(
        /expected boolean,\s+received\s+string\s+\(left\s+out:\s+title;\s+the\s+rest\s+of\s+the\s+file\s+applies\)/,
        20_000,
      );
      h.write(KEY.esc);
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
    },
    scaled(120_000),
  );
});
