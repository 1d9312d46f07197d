/**
 * The memory and wiki panes in a real terminal (the bundled omc-top in a pty,
 * rendered by a headless xterm): the key flows a user runs, and what they
 * leave on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor } from '../helpers/fixtures.js';
import { KEY } from '../helpers/keys.js';

describe('wiki and memory panes in a real terminal', () => {
  it('w: search as you type, open a page, follow a link, go back, quit; log.md untouched', async ({
    project: p,
    pty,
  }) => {
    const log = path.join(p.root, 'wiki', 'log.md');
    const before = fs.readFileSync(log, 'utf8');
    const h = pty({ cwd: p.dir, cols: 80, rows: 24 });
    await h.waitForText('ralph 3/10');
    h.write('w');
    await h.waitForText('10 of 10 pages');
    h.write('/');
    h.write('checkout');
    await h.waitForText('3 matches in 10 pages');
    expect(h.screen().find((l) => l.startsWith('▸'))).toMatch(/8\s+architecture\s+Checkout Flow Architecture/);
    h.write(KEY.enter);
    await h.waitForText('links ([ ] pick');
    h.write(']');
    h.write(KEY.enter);
    await h.waitForText(/^Cart State Management/m);
    h.write(KEY.backspace);
    await h.waitForText(/^Checkout Flow Architecture/m);
    h.write(KEY.esc);
    await h.waitForText('3 matches in 10 pages');
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
    expect(fs.readFileSync(log, 'utf8')).toBe(before);
  });

  it('m: add a directive, switch its priority, remove it (confirmed), in a 60-column pane', async ({
    project: p,
    pty,
  }) => {
    const file = path.join(p.root, 'project-memory.json');
    const directives = () =>
      JSON.parse(fs.readFileSync(file, 'utf8')).userDirectives as Array<{ directive: string; priority: string }>;
    const h = pty({ cwd: p.dir, cols: 60, rows: 20 });
    await h.waitForText('ralph 3/10');
    h.write('m');
    await h.waitForText('PRIORITY');
    h.write('a');
    await h.waitForText('Add a directive');
    h.write('Always run the e2e suite before a release');
    await h.waitForText('41/500');
    h.write(KEY.enter);
    await h.waitForText('directive added');
    expect(directives().at(-1)).toMatchObject({
      directive: 'Always run the e2e suite before a release',
      priority: 'normal',
      source: 'explicit',
    });
    expect(h.screen().every((l) => l.length <= 60)).toBe(true);

    h.write('p');
    await h.waitForText('priority → high');
    await waitFor(() => directives().at(-1)?.priority === 'high', { what: 'priority on disk' });
    h.write('d');
    await h.waitForText('Remove this directive?');
    h.write('y');
    await h.waitForText('directive removed');
    expect(directives().map((d) => d.directive)).not.toContain('Always run the e2e suite before a release');
    expect(directives()).toHaveLength(7);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
