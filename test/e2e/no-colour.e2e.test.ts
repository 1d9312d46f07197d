/**
 * Every way of saying "no colour" drops colours only: bold and inverse video are not colours, and a text field's
 * cursor is drawn in inverse (the terminal's own cursor is hidden), so without it nothing shows where the user types.
 * chalk, which Ink styles through, drops every style at its level 0, which FORCE_COLOR=0, TERM=dumb and --no-color
 * give it; NO_COLOR alone did not. A monochrome TERM (terminfo's `-mono` / `-m`) is a way of saying it too. The real bundle in a pty; the cell's attributes read from the headless xterm.
 */
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { KEY } from '../helpers/keys.js';
import type { TerminalHarness } from '../helpers/pty.js';

/** SGR colour parameters (foreground 30-38, 90-97; background 40-48, 100-107), as in exit-paths' NO_COLOR test. */
const COLOUR_SGR = /\u001b\[(?:[0-9;]*;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/;

/** Whether the first cell showing `text`'s last character on the screen is drawn in inverse video. */
function inverseAtEndOf(h: TerminalHarness, text: string): boolean {
  const rows = h.screen();
  const y = rows.findIndex((r) => r.includes(text));
  if (y < 0) throw new Error(`${text} is not on screen:\n${rows.join('\n')}`);
  const x = (rows[y] ?? '').indexOf(text) + text.length - 1;
  const buf = h.term.buffer.active;
  return (
    buf
      .getLine(buf.viewportY + y)
      ?.getCell(x)
      ?.isInverse() !== 0
  );
}

const SETTINGS: Array<{ name: string; env?: Record<string, string>; args?: string[] }> = [
  { name: 'FORCE_COLOR=0', env: { FORCE_COLOR: '0' } },
  { name: 'TERM=dumb', env: { TERM: 'dumb' } },
  { name: '--no-color', args: ['--no-color'] },
  { name: 'NO_COLOR=1', env: { NO_COLOR: '1' } },
  // A terminal whose terminfo name says monochrome (chalk still gives xterm-* 16 colours).
  { name: 'TERM=xterm-mono', env: { TERM: 'xterm-mono' } },
];

describe('no colour keeps inverse video', () => {
  it.for(SETTINGS)(
    '$name: no colour at all, and the cursor of a text field is still drawn where the user types',
    async (setting, { project: p, pty }) => {
      const h = pty({ cwd: p.dir, cols: 80, rows: 24, env: setting.env, args: setting.args });
      await h.waitForText('ralph 3/10');
      h.write('n');
      await h.waitForText(/1 Priority/);
      h.write('a');
      await h.waitForText(/New Working Memory entry/);
      h.write('abc');
      await h.waitForText(/^abc/m);
      h.write(KEY.left);
      // The cursor moves onto the c: that cell turns inverse, the b before it does not.
      await waitFor(() => inverseAtEndOf(h, 'abc'), { what: 'the cursor drawn on the c' });
      expect(inverseAtEndOf(h, 'ab')).toBe(false);
      expect(h.output).not.toMatch(COLOUR_SGR);
    },
  );
});
