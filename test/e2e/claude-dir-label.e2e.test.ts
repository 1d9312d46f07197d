/**
 * A refused read under Claude's config directory names that directory, not the .omc root: a registry directory that
 * is a symlink to /dev says "directory is a symlink to outside Claude's config directory" on the monitor's problem line and
 * in --json (sweep 6 §10). The registry directory's problem is every project's (an entry's is said only by the
 * project it names: test/fleet/registry-problem-owner.test.ts). The real bundle in a pty.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';

const SAID =
  "$CLAUDE_CONFIG_DIR/sessions: directory is a symlink to outside Claude's config directory (/dev); not listed";

describe("a refused read of Claude Code's files", () => {
  it("names Claude's config directory, on the monitor and in --json", async ({ project: p, claudeDir: cfg, pty }) => {
    fs.symlinkSync('/dev', path.join(cfg, 'sessions'));
    const h = pty({ cwd: p.dir, cols: 140, rows: 30, env: { CLAUDE_CONFIG_DIR: cfg } });
    const screen = await h.waitForText(SAID);
    expect(screen).not.toContain('.omc root');
    h.write('q');
    expect(await h.waitForExit()).toBe(0);

    const doc = JSON.parse(
      execFileSync(process.execPath, [BIN, '--json', '--root', p.root], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: cfg },
        encoding: 'utf8',
      }),
    ) as { problems: { path: string; message: string }[] };
    const problem = doc.problems.find((x) => x.path === '$CLAUDE_CONFIG_DIR/sessions');
    expect(problem?.message).toBe("directory is a symlink to outside Claude's config directory (/dev); not listed");
  });
});
