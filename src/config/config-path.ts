/** Where the config file is: `$XDG_CONFIG_HOME/omc-top/config.json`, else `~/.config/omc-top/config.json`. */
import path from 'node:path';
import { homeDir } from '../io/home-dir.js';
import { readTextSync, type ReadResult } from '../io/safe-fs/index.js';

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(homeDir(env), '.config');
  return path.join(base, 'omc-top', 'config.json');
}

/** The config file is small: a larger one is not a config file someone wrote. */
export const CONFIG_MAX_BYTES = 64 * 1024;

/**
 * Reads a file of the user's own config directory through the safe read path. A symlink is followed wherever
 * it points, as a symlinked directory already is: home-manager and stow link the file into /nix/store or a
 * dotfiles repo. The .omc containment rule is for files other programs write; this one the user placed.
 */
export function readConfigText(file: string): ReadResult {
  return readTextSync(path.dirname(file), path.basename(file), CONFIG_MAX_BYTES, { followLink: true });
}
