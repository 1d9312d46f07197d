/**
 * A project judged by OMC 5.5.0 whose sessions' Claudes are stand-ins: sleeping processes entered in Claude's
 * registry, started with the environment a test gives (omc-top reads it from /proc, as a Claude's hooks inherit it).
 * The project, its home, the stand-ins and the store are cleaned after each test of the file that calls it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import { OmcStore } from '../../src/store/store.js';
import { registeredSleeper, sleeperPool } from '../helpers/claude-stand-in.js';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { OMC55 } from '../helpers/omc-packages.mjs';

export interface ClaudesProject {
  p: TempProject;
  dir: string;
  home: string;
  /** Claude's config directory (its registry) under `home`. */
  cfg: string;
  /** A Claude of `sid` started with `env`, `agoMs` before now (the project's newest is the smallest): its pid. */
  claude(sid: string, env: Record<string, string>, agoMs: number): Promise<number>;
  /** The store over the project, as a monitor with this home and config directory starts it (started). */
  startStore(): OmcStore;
}

export function claudesScene(): { open(prefix: string): ClaudesProject } {
  const sleepers = sleeperPool();
  let p: TempProject | null = null;
  let home: string | null = null;
  let store: OmcStore | null = null;
  afterEach(async () => {
    await store?.close();
    store = null;
    sleepers.killAll();
    p?.cleanup();
    if (home) fs.rmSync(home, { recursive: true, force: true });
    p = home = null;
  });
  return {
    open(prefix) {
      const project = (p = makeProject({ prefix }));
      const h = (home = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}home-`)));
      const cfg = path.join(h, '.claude');
      return {
        p: project,
        dir: project.dir,
        home: h,
        cfg,
        claude: (sid, env, agoMs) => registeredSleeper(sleepers, cfg, sid, project.dir, env, Date.now() - agoMs),
        startStore() {
          const env = { HOME: h, CLAUDE_CONFIG_DIR: cfg, CLAUDE_PLUGIN_ROOT: OMC55 };
          const s = (store = new OmcStore({
            root: project.root,
            projectDir: project.dir,
            omc: detectOmcInstall({ env, projectDir: project.dir, processes: false }),
            home: h,
            watch: 'none',
            claude: { live: false, env },
            runs: { env },
          }));
          s.start();
          return s;
        },
      };
    },
  };
}
