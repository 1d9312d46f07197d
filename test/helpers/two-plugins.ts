/**
 * A home whose user settings enable two OMC plugins at once: OMC 5.5.0 (`oh-my-claudecode@dev`, named first) and
 * OMC 4.4.4 (`oh-my-claudecode@omc`), both installed from the real packages (test/omc-packages). Claude Code runs
 * both Stop hooks there, and a block from either holds the agent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeOmcJson } from './fixtures.js';
import { OMC444, OMC55 } from './omc-packages.mjs';

export interface TwoPlugins {
  /** The temporary directory holding the home (remove it when done). */
  base: string;
  home: string;
  env: Record<string, string>;
}

export function twoPlugins(): TwoPlugins {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-2p-'));
  const home = path.join(base, 'home');
  const config = path.join(home, '.claude');
  const plugins: Record<string, unknown> = {};
  for (const [market, pkg, version] of [
    ['dev', OMC55, '5.5.0'],
    ['omc', OMC444, '4.4.4'],
  ] as const) {
    const dir = path.join(config, 'plugins', 'cache', market, 'oh-my-claudecode', version);
    fs.mkdirSync(path.join(dir, '.claude-plugin'), { recursive: true });
    fs.copyFileSync(path.join(pkg, 'package.json'), path.join(dir, 'package.json'));
    fs.copyFileSync(path.join(pkg, '.claude-plugin', 'plugin.json'), path.join(dir, '.claude-plugin', 'plugin.json'));
    const at = new Date().toISOString();
    plugins[`oh-my-claudecode@${market}`] = [
      { scope: 'user', installPath: dir, version, installedAt: at, lastUpdated: at },
    ];
  }
  writeOmcJson(path.join(config, 'plugins', 'installed_plugins.json'), { version: 2, plugins });
  writeOmcJson(path.join(config, 'settings.json'), {
    enabledPlugins: { 'oh-my-claudecode@dev': true, 'oh-my-claudecode@omc': true },
  });
  return {
    base,
    home,
    env: { HOME: home, CLAUDE_CONFIG_DIR: config, NPM_CONFIG_PREFIX: path.join(base, 'npm-prefix') },
  };
}
