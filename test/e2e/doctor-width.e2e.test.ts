/**
 * `omc-top doctor` in an 80-column terminal: its lines ran to ~140 columns, so the terminal wrapped them mid-word
 * (`$HOME/.om|c`, `CLAUDE_CONF|IG_DIR`). On a terminal each check's words now wrap at word boundaries under its
 * text column; piped (a script), the lines are as before, one per fact.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach } from 'vitest';
import stringWidth from 'string-width';
import { describe, expect, it } from '../helpers/it.js';
import { BIN, TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

let h: TerminalHarness | null = null;
afterEach(() => {
  h?.dispose();
  h = null;
});

const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

describe('doctor on an 80-column terminal', () => {
  it('writes no line wider than the terminal and no word split across lines; piped, one line per fact', async ({
    tempDir,
  }) => {
    const home = tempDir('doctor-home-');
    const proj = path.join(tempDir('doctor-proj-'), 'a-project-with-a-rather-long-directory-name');
    fs.mkdirSync(proj);
    const env = {
      HOME: home,
      XDG_STATE_HOME: path.join(home, 'state'),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      CLAUDE_CONFIG_DIR: undefined,
      XDG_CONFIG_HOME: undefined,
      OMC_STATE_DIR: undefined,
    };
    h = new TerminalHarness({ args: ['doctor'], cols: 80, rows: 60, cwd: proj, env });
    await h.waitForExit(scaled(20_000));
    const shown = plain(h.output).split(/\r?\n/);
    expect(shown.some((l) => l.includes('.omc root'))).toBe(true);
    for (const l of shown) expect(stringWidth(l), l).toBeLessThanOrEqual(80);

    const piped = spawnSync(process.execPath, [BIN, 'doctor'], {
      cwd: proj,
      encoding: 'utf8',
      env: { ...process.env, ...env, TERM: 'xterm-256color' },
    });
    expect(piped.stdout.split('\n').some((l) => l.length > 80)).toBe(true);
    // The same facts in the same order: only where the lines break differs (up to the watcher's check; the
    // terminal's check says what each stdout is).
    const facts = (s: string) => {
      const all = s.replace(/\s+/g, '');
      return all.slice(0, all.indexOf('inotifylimits'));
    };
    expect(facts(plain(h.output)).length).toBeGreaterThan(200);
    expect(facts(plain(h.output))).toBe(facts(piped.stdout));
  });
});
