/**
 * The terminal harness shows only whole frames. Ink wraps every frame in synchronized output (DEC mode 2026), and a
 * pty hands a long frame to the reader in pieces: the buffer between two pieces is half the new frame over the old
 * one, which no user sees in a terminal that honours the mode. On 2026-12-07 a CI run read the cancel dialog with
 * its title drawn and its key line not yet: `waitForText(title)` matched, the next line's assertion failed. Here a
 * program draws a whole frame, then holds the next one open (its start and first half written, the rest only after
 * a line on its stdin): while it is open the screen is the whole one before it, and the wait for the first half
 * comes back with the second half on the screen as well.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { scaled } from '../helpers/time-scale.js';

const BSU = '\\u001b[?2026h';
const ESU = '\\u001b[?2026l';

const HALF_FRAME_PROGRAM = `
process.stdout.write('${BSU}\\u001b[2J\\u001b[Hthe list before the dialog\\r\\n${ESU}');
process.stdout.write('${BSU}\\u001b[2J\\u001b[Hfirst half of the dialog\\r\\n');
process.stdin.once('data', () => {
  process.stdout.write('second half: y to confirm\\r\\n${ESU}');
  process.stdin.once('data', () => process.exit(0));
});
`;

describe('the terminal harness reads whole frames', () => {
  it('a wait that matches the first half of an open frame returns only once the frame is closed', async ({
    tempDir,
    pty,
  }) => {
    const bin = path.join(tempDir('omc-top-half-frame-'), 'half-frame.mjs');
    fs.writeFileSync(bin, HALF_FRAME_PROGRAM);
    const t = pty({ bin, cols: 60, rows: 8 });
    let returned: string | null = null;
    const waiting = t.waitForText('first half of the dialog').then((screen) => (returned = screen));

    // The first half is on the (headless) screen, inside an open frame, and the wait has not taken it.
    const until = async (what: string, done: () => boolean): Promise<void> => {
      const deadline = Date.now() + scaled(10_000);
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`never ${what}:\n${t.output}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await until('wrote the first half', () => t.output.includes('first half'));
    await t.settle();
    expect(t.midFrame).toBe(true);
    expect(t.text()).toContain('the list before the dialog');
    expect(t.text()).not.toContain('first half');
    // The wait looks at this screen (a look after the first half was drawn) and does not take it.
    const looked = t.screensLooked;
    await until('looked again', () => t.screensLooked > looked);
    expect(returned).toBeNull();

    t.write('go\r');
    const screen = await waiting;
    expect(screen).toContain('first half of the dialog');
    expect(screen).toContain('second half: y to confirm');
    expect(screen).not.toContain('the list before the dialog');
    expect(t.midFrame).toBe(false);
    t.write('done\r');
    expect(await t.waitForExit()).toBe(0);
  });
});
