/** Keys sent faster than a frame: none may be lost or mis-routed. */
import { describe, expect, it } from '../helpers/it.js';

describe('input router under bursts', () => {
  it('a whole filter typed in one write (as a paste without bracketed paste arrives) is applied key by key', async ({
    project: p,
    pty,
  }) => {
    const h = pty({ cwd: p.dir, cols: 100, rows: 24 });
    await h.waitForText('ralph 3/10');
    h.write('/autopilot execution');
    await h.waitForText('/autopilot execution');
    await h.waitForText('1 of 10 match');
    h.write('\r');
    await h.waitForText('(Esc clears)');
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });

  it('36 characters written one at a time with no gap all arrive, in order', async ({ project: p, pty }) => {
    const h = pty({ cwd: p.dir, cols: 100, rows: 24 });
    await h.waitForText('ralph 3/10');
    h.write('/');
    await h.waitForText('match');
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789';
    for (const ch of text) h.write(ch);
    await h.waitForText(`/${text}`);
    // Backspace × 36 in one burst empties it again.
    h.write('\u007f'.repeat(36));
    await h.waitForText(/\/\s+10 of 10 match/);
    h.write('\u001b');
    await h.waitForNoText('match');
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
