/**
 * The one way a test gets its world, torn down for it: a temp project (the
 * real-OMC fixture tree by default), a Claude Code config dir to write a
 * registry into, the whole app mounted on the one rig, and the built bundle in
 * a pseudo-terminal. A test asks for what it uses by name:
 *
 *   it('shows the loop', async ({ app }) => {
 *     const a = await app({ columns: 80 });
 *     await a.waitForText('ralph');
 *   });
 *
 * Everything a fixture made is closed and removed after the test, pass or fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'vitest';
import { makeProject, type TempProject } from './fixtures.js';
import { mountApp, type MountedApp, type MountOptions } from './mount-app.js';
import { TerminalHarness, type StartOptions } from './pty.js';

export { KEY } from './keys.js';
export { describe, expect } from 'vitest';

export interface Fixtures {
  /** A git project whose `.omc` is a copy of the real-OMC fixture tree. */
  project: TempProject;
  /** An empty project (`.omc/state/sessions` only). */
  emptyProject: TempProject;
  /** A Claude Code config dir (CLAUDE_CONFIG_DIR) for registry entries and transcripts (helpers/claude-files.ts). */
  claudeDir: string;
  /** Mounts the app over `project` (options as mountApp's; `root` defaults to the project's). */
  app: (opts?: MountOptions & { root?: string }) => Promise<MountedApp>;
  /** Starts the bundle in a pty on `project` (`--root` is added unless args are given). */
  pty: (opts?: StartOptions) => TerminalHarness;
}

export const it = test.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  project: async ({}, provide) => {
    const p = makeProject({ withFixture: true });
    try {
      await provide(p);
    } finally {
      p.cleanup();
    }
  },
  // eslint-disable-next-line no-empty-pattern
  emptyProject: async ({}, provide) => {
    const p = makeProject();
    try {
      await provide(p);
    } finally {
      p.cleanup();
    }
  },
  // eslint-disable-next-line no-empty-pattern
  claudeDir: async ({}, provide) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-claude-'));
    try {
      await provide(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
  app: async ({ project }, provide) => {
    const mounted: MountedApp[] = [];
    try {
      await provide(async (opts = {}) => {
        const a = await mountApp({ ...opts, root: opts.root ?? project.root });
        mounted.push(a);
        return a;
      });
    } finally {
      for (const a of mounted) await a.unmount();
    }
  },
  pty: async ({ project }, provide) => {
    const started: TerminalHarness[] = [];
    try {
      await provide((opts = {}) => {
        const h = new TerminalHarness({ ...opts, args: opts.args ?? ['--root', project.root] });
        started.push(h);
        return h;
      });
    } finally {
      for (const h of started) h.dispose();
    }
  },
});
