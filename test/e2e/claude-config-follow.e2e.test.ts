/**
 * The monitor follows the project's Claude config directory while it runs: started from a shell without
 * CLAUDE_CONFIG_DIR, it reads ~/.claude; a Claude started later with `CLAUDE_CONFIG_DIR=~/.claude-work` (a real
 * process named `claude`, that environment) whose registry there names a session of the tree joins that session's row
 * (its status shown) without a restart, and a line says which directory is read now. The real bundle in a pty.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { writeRegistry } from '../helpers/claude-files.js';
import { waitFor } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { makeLive } from '../helpers/sessions-gen.js';

const FIRST = 'aaaaaaaa-3333-4222-8333-444444444444';
const LATE = 'bbbbbbbb-3333-4222-8333-444444444444';
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** A process named `claude` (its comm, as Claude Code's own) working in `cwd` with `env`. */
async function claudeStandIn(binDir: string, cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  const bin = path.join(binDir, 'claude');
  if (!fs.existsSync(bin)) fs.symlinkSync(process.execPath, bin);
  const c = spawn(bin, ['-e', 'setInterval(() => {}, 1 << 30)'], { cwd, env, stdio: 'ignore' });
  children.push(c);
  const pid = c.pid as number;
  await waitFor(() => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'claude', { what: 'the stand-in runs' });
  return pid;
}

describe.skipIf(process.platform !== 'linux')(
  'a Claude started after the monitor with its own config directory',
  () => {
    it("joins its session's row without a restart", async ({ emptyProject: p, tempDir, pty }) => {
      const base = tempDir('omc-top-follow-');
      const home = path.join(base, 'home');
      const work = path.join(home, '.claude-work');
      fs.mkdirSync(path.join(home, '.claude', 'sessions'), { recursive: true });
      fs.mkdirSync(path.join(work, 'sessions'), { recursive: true });
      makeLive(p.root, FIRST);
      const env = { HOME: home, CLAUDE_CONFIG_DIR: undefined, XDG_STATE_HOME: path.join(base, 'state'), NO_COLOR: '1' };
      const h = pty({ cwd: p.dir, cols: 160, rows: 30, env });
      await h.waitForText('aaaaaaaa');
      expect(h.text()).not.toContain('busy');

      const shell = { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: work };
      const pid = await claudeStandIn(base, p.dir, shell);
      writeRegistry(work, pid, LATE, { status: 'busy', cwd: p.dir });
      makeLive(p.root, LATE);
      await h.waitForText(/bbbbbbbb.*busy/);
      // The line may come a frame after the row: on a loaded machine the first read is still under way when the
      // stand-in is found, and the problem lines are drawn once it is over.
      await h.waitForText(`Claude's config directory read: CLAUDE_CONFIG_DIR=`);
      h.write('q');
      expect(await h.waitForExit()).toBe(0);
    });
  },
);
