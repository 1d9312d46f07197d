/**
 * A terminal whose locale is not UTF-8 (LC_ALL=C, LANG=C): the monitor and `status --tmux` write ASCII only, each
 * glyph of the chrome one ASCII character (src/io/glyphs.ts), so the frame is the one Ink measured. The real
 * bundle in a pty, and the bin as tmux runs it.
 */
import { execFileSync } from 'node:child_process';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { NO_CLAUDE_DIR } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';

const C_LOCALE = { LC_ALL: 'C', LC_CTYPE: undefined, LANG: 'C' };
const BEYOND_ASCII = /[^\x00-\x7f]/;

describe('a locale that is not UTF-8', () => {
  it('LC_ALL=C: the monitor draws in ASCII, the selection and separators included, its title too', async ({
    project: p,
    pty,
  }) => {
    const h = pty({ cwd: p.dir, cols: 80, rows: 24, env: C_LOCALE });
    await h.waitForText('ralph 3/10');
    await h.waitForText(/^> /m);
    await h.settle();
    const rows = h.screen();
    expect(rows[0]).toMatch(/\d+ sess \| \d+ running/);
    expect(rows.at(-2)).toMatch(/\? help/);
    expect(h.output.match(BEYOND_ASCII)).toBeNull();
    // The title set at the start is ASCII as well.
    expect(h.output).toMatch(/\u001b\]2;omc-top [\x20-\x7e]*\u0007/);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });

  it('status --tmux: the same line, ASCII under LC_ALL=C, as it was under a UTF-8 locale', ({ project: p }) => {
    const status = (env: Record<string, string | undefined>) =>
      execFileSync(process.execPath, [BUNDLE, 'status', '--tmux', '--fresh', '--root', p.root], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR, LC_CTYPE: undefined, ...env },
        encoding: 'utf8',
      });
    const utf8 = status({ LC_ALL: 'C.UTF-8' });
    expect(utf8).toContain(' · needs you: ');
    const ascii = status(C_LOCALE);
    expect(ascii).not.toMatch(BEYOND_ASCII);
    expect(ascii).toBe(utf8.replaceAll('·', '|'));
  });
});
