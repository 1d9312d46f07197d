/**
 * A .omc that is a symlink loop (`ln -s .omc .omc`): the monitor says what the CLI says, "is a symlink loop", on its
 * problem line and its message while it waits, never the errno (sweep 6 §11). The real bundle in a pty.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NO_CLAUDE_DIR } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';

describe('.omc that is a symlink loop', () => {
  it('the monitor and --json say the same words: "is a symlink loop"', async ({ tempDir, pty }) => {
    const dir = tempDir('omc-top-loop-');
    const root = path.join(dir, '.omc');
    fs.symlinkSync('.omc', root);
    const env = { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR };

    const cli = spawnSync(process.execPath, [BIN, '--json', '--root', root], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain(`${root}: is a symlink loop`);

    const h = pty({ cwd: dir, cols: 140, rows: 24, args: ['--root', root], env });
    const screen = await h.waitForText(`⚠ .omc: ${root} is a symlink loop; waiting for it to be a directory`);
    expect(screen).toContain(`${root} is a symlink loop: waiting for a .omc directory there`);
    expect(screen).not.toMatch(/ELOOP|cannot be looked at|no \.omc yet/);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
