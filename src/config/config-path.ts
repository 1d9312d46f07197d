/** Where the config file is: `$XDG_CONFIG_HOME/omc-top/config.json`, else `~/.config/omc-top/config.json`. */
import path from 'node:path';
import { homeDir } from '../io/home-dir.js';

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : path.join(homeDir(env), '.config');
  return path.join(base, 'omc-top', 'config.json');
}
