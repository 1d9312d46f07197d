/**
 * omc-top's own config file broken (here: its path is a directory). --json lists it under problems and doctor says
 * BROKEN; the monitor said it once at start (the message line, then only the M log) and its `!` list said
 * "Problems with files: none". The same fact is now on every surface: the monitor's `!` list has it for as long as
 * it runs with the defaults.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, REPO, type TempProject } from '../helpers/fixtures.js';
import { TerminalHarness } from '../helpers/pty.js';

let h: TerminalHarness | null = null;
let p: TempProject | null = null;
let home: string | null = null;
afterEach(() => {
  h?.dispose();
  p?.cleanup();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  h = p = home = null;
});

describe('a broken config file', () => {
  it('is in the monitor’s ! list, as in --json’s problems', async () => {
    p = makeProject({ withFixture: true });
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cfgdir-'));
    const configFile = path.join(home, 'config', 'omc-top', 'config.json');
    fs.mkdirSync(configFile, { recursive: true });
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      CLAUDE_CONFIG_DIR: path.join(home, 'claude'),
    };

    const json = JSON.parse(
      execFileSync(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), '--json', '--root', p.root], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
      }),
    ) as { problems: Array<{ path: string; message: string }> };
    const inJson = json.problems.find((x) => x.path === configFile);
    expect(inJson?.message).toMatch(/^config file: /);

    h = new TerminalHarness({ args: ['--root', p.root], cols: 120, rows: 40, env });
    await h.waitForText(/STATUS\s+SESSION/);
    h.write('!');
    await h.waitForText(/Problems with files \(\d+\)/);
    const screen = h.screen().join('\n');
    expect(screen).not.toContain('Problems with files: none');
    expect(screen).toContain(`${configFile}: config file:`);
    h.write('q');
  });
});
