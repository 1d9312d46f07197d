/**
 * The store of a one-shot read: what `--json` reads the tree with, and what `omc-top ack` checks its ids against,
 * so an id ack takes is one `--json` (and `watch --json`, the same model) lists. No watcher, Claude's registry read
 * once; the caller starts and closes it.
 */
import { homeDir } from '../io/home-dir.js';
import type { OmcInstall } from '../store/omc-install.js';
import type { RootResolution } from '../store/root.js';
import { OmcStore } from '../store/store.js';

export function oneReadStore(
  res: RootResolution,
  omc: OmcInstall,
  readonly: boolean,
  /** The environment the project's Claudes are read with (resolveRootAndOmc's claudeEnv: their config directory). */
  claudeEnv?: NodeJS.ProcessEnv,
): OmcStore {
  return new OmcStore({
    omc,
    home: homeDir(),
    root: res.root,
    watch: 'none',
    claude: { live: false, env: claudeEnv },
    readonly,
    projectDir: res.projectDir,
    rootRule: res.rule,
  });
}
