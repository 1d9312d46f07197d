/**
 * The one way a test gets its world, torn down for it: a temp project (the
 * real-OMC fixture tree by default), more projects and scratch dirs, a Claude
 * Code config dir to write a registry into, a real store, the whole app
 * mounted on the one rig, and the built bundle in a pseudo-terminal. A test
 * asks for what it uses by name:
 *
 *   it('shows the loop', async ({ app }) => {
 *     const a = await app({ columns: 80 });
 *     await a.waitForText('ralph');
 *   });
 *
 * Everything a fixture made is closed and removed after the test, pass or
 * fail. Anything else a test starts (a child process, a server) it stops with
 * vitest's `onTestFinished`, re-exported here: the fixtures' directories are
 * removed after those hooks ran (removeAfterTheTest).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished, test } from 'vitest';
import { OmcStore, type OmcStoreOptions } from '../../src/store/store.js';
import { makeProject, type TempProject } from './fixtures.js';
import { mountApp, mountStore, type MountedApp, type MountOptions } from './mount-app.js';
import { TerminalHarness, type StartOptions } from './pty.js';

export { KEY } from './keys.js';
export { describe, expect, onTestFinished } from 'vitest';

export interface Fixtures {
  /** A git project whose `.omc` is a copy of the real-OMC fixture tree. */
  project: TempProject;
  /** An empty project (`.omc/state/sessions` only). */
  emptyProject: TempProject;
  /** Makes another project (options as makeProject's: `withFixture`, `prefix`), removed after the test. */
  newProject: (opts?: Parameters<typeof makeProject>[0]) => TempProject;
  /** Makes a scratch dir `<base>/<prefix>XXXXXX` (base: the OS temp dir), removed after the test. */
  tempDir: (prefix?: string, base?: string) => string;
  /** A Claude Code config dir (CLAUDE_CONFIG_DIR) for registry entries and transcripts (helpers/claude-files.ts). */
  claudeDir: string;
  /** A real store on these options (not started: the test starts it), closed after the test. */
  newStore: (opts: OmcStoreOptions) => OmcStore;
  /** Mounts the app over `project` (options as mountApp's; `root` defaults to the project's). */
  app: (opts?: MountOptions & { root?: string }) => Promise<MountedApp>;
  /** Mounts the app over a store the test built (mountStore); unmounted, and the store closed, after the test. */
  mount: (store: OmcStore, opts?: MountOptions) => MountedApp & { ready: Promise<void> };
  /** Starts the bundle in a pty with these options (TerminalHarness's), killed after the test. */
  pty: (opts?: StartOptions) => TerminalHarness;
}

/** Runs `finish` on everything `make` made, after the test, in reverse order. */
function tracked<A extends unknown[], T>(
  make: (...args: A) => T,
  finish: (made: T) => unknown,
): { make: (...args: A) => T; finishAll: () => Promise<void> } {
  const made: T[] = [];
  return {
    make: (...args) => {
      const m = make(...args);
      made.push(m);
      return m;
    },
    finishAll: async () => {
      for (const m of made.reverse()) await finish(m);
    },
  };
}

/**
 * Removes what a directory fixture made after the test's own `onTestFinished` hooks have run. vitest cleans fixtures
 * up before those hooks, so a child a test stops there (a serve, a watch, a bundle's command) could still be writing
 * into the directory while it was removed: `ENOTEMPTY` on a loaded machine. The hooks run last-registered first, and
 * a fixture registers its hook before the test body registers any.
 */
const removeAfterTheTest = (cleanup: () => unknown): void =>
  onTestFinished(async () => {
    await cleanup();
  });

/** A store closes once, whoever asks first (the test, an unmount, the fixture). */
function closeOnce(store: OmcStore): OmcStore {
  const close = store.close.bind(store);
  let closing: Promise<void> | null = null;
  store.close = () => (closing ??= close());
  return store;
}

export const it = test.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  project: async ({}, provide) => {
    const p = makeProject({ withFixture: true });
    removeAfterTheTest(() => p.cleanup());
    await provide(p);
  },
  // eslint-disable-next-line no-empty-pattern
  emptyProject: async ({}, provide) => {
    const p = makeProject();
    removeAfterTheTest(() => p.cleanup());
    await provide(p);
  },
  // eslint-disable-next-line no-empty-pattern
  newProject: async ({}, provide) => {
    const t = tracked(makeProject, (p) => p.cleanup());
    removeAfterTheTest(t.finishAll);
    await provide(t.make);
  },
  // eslint-disable-next-line no-empty-pattern
  tempDir: async ({}, provide) => {
    const t = tracked(
      (prefix: string = 'omc-top-tmp-', base: string = os.tmpdir()) => fs.mkdtempSync(path.join(base, prefix)),
      (dir) => fs.rmSync(dir, { recursive: true, force: true }),
    );
    removeAfterTheTest(t.finishAll);
    await provide(t.make);
  },
  // eslint-disable-next-line no-empty-pattern
  claudeDir: async ({}, provide) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-claude-'));
    removeAfterTheTest(() => fs.rmSync(dir, { recursive: true, force: true }));
    await provide(dir);
  },
  // eslint-disable-next-line no-empty-pattern
  newStore: async ({}, provide) => {
    const t = tracked(
      (opts: OmcStoreOptions) => closeOnce(new OmcStore(opts)),
      (s) => s.close(),
    );
    try {
      await provide(t.make);
    } finally {
      await t.finishAll();
    }
  },
  app: async ({ project }, provide) => {
    const t = tracked(
      (opts: MountOptions & { root?: string } = {}) => mountApp({ ...opts, root: opts.root ?? project.root }),
      (a) =>
        a.then(
          (m) => m.unmount(),
          () => undefined,
        ),
    );
    try {
      await provide(t.make);
    } finally {
      await t.finishAll();
    }
  },
  // eslint-disable-next-line no-empty-pattern
  mount: async ({}, provide) => {
    const t = tracked(
      (store: OmcStore, opts: MountOptions = {}) => mountStore(closeOnce(store), opts),
      (a) => a.unmount(),
    );
    try {
      await provide(t.make);
    } finally {
      await t.finishAll();
    }
  },
  // eslint-disable-next-line no-empty-pattern
  pty: async ({}, provide) => {
    const t = tracked(
      (opts: StartOptions = {}) => new TerminalHarness(opts),
      (h) => h.dispose(),
    );
    try {
      await provide(t.make);
    } finally {
      await t.finishAll();
    }
  },
});
