/**
 * stderr sent to a file (`omc-top 2>err`) gets no terminal control sequence: the cursor Ink hid is shown again on
 * the terminal it was hidden on (stdout), never on stderr (cli-cursor's restore-cursor wrote ESC[?25h there at
 * exit: scripts/ink-patches/cursor-on-stream.mjs). Quit with q and ended by SIGTERM, in a real pseudo-terminal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { omcTopCommand, PtyRun, findOmcTop, shq } from '../helpers/fault-pty.js';
import { makeProject, type TempProject } from '../helpers/fixtures.js';

let run: PtyRun | null = null;
let p: TempProject | null = null;
let scratch: string | null = null;
afterEach(() => {
  run?.dispose();
  run = null;
  p?.cleanup();
  p = null;
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  scratch = null;
});

async function started(): Promise<{ err: string }> {
  p = makeProject({ withFixture: true });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-stderr-file-'));
  const err = path.join(scratch, 'err');
  run = new PtyRun({ file: '/bin/sh', args: ['-c', `exec ${omcTopCommand([])} 2>${shq(err)}`], cwd: p.dir });
  await run.waitForText('ralph 3/10');
  return { err };
}

/** The cursor's last word on the terminal: shown (ESC[?25h after the last ESC[?25l). */
const cursorShown = (out: string) => out.lastIndexOf('\x1b[?25h') > out.lastIndexOf('\x1b[?25l');

describe('stderr is a file', () => {
  it('q: nothing but text in the file, the cursor shown again on the terminal', async () => {
    const { err } = await started();
    run!.write('q');
    expect((await run!.exited).exitCode).toBe(0);
    expect(JSON.stringify(fs.readFileSync(err, 'utf8'))).not.toContain('\\u001b');
    expect(cursorShown(run!.output)).toBe(true);
  });

  it('SIGTERM: the same', async () => {
    const { err } = await started();
    process.kill(await findOmcTop(run!.pid), 'SIGTERM');
    await run!.exited;
    expect(JSON.stringify(fs.readFileSync(err, 'utf8'))).not.toContain('\\u001b');
    expect(cursorShown(run!.output)).toBe(true);
  });
});
