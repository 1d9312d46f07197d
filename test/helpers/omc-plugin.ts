/**
 * OMC as a Claude Code plugin, the way `claude plugin install` and `claude plugin update` leave it: the plugin's
 * files in `<config>/plugins/cache/<marketplace>/<name>/<version>/`, the registry `installed_plugins.json` (format 2)
 * naming that directory, and `enabledPlugins` in the user's settings.json. The package is one of the real OMC
 * packages (test/helpers/omc-packages.mjs): only its manifests are copied, which is all the version is read from.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeOmcJson } from './fixtures.js';
import { OMC55 } from './omc-packages.mjs';

export const OMC_PLUGIN_KEY = 'oh-my-claudecode@omc';

export interface PluginWorld {
  home: string;
  config: string;
  /** The environment a process of this world runs with (no global npm OMC: its prefix is empty). */
  env: Record<string, string>;
}

/** A home with Claude's config directory in it, the OMC plugin enabled for the user (nothing installed yet). */
export function pluginWorld(base: string): PluginWorld {
  const home = path.join(base, 'home');
  const config = path.join(home, '.claude');
  fs.mkdirSync(path.join(config, 'plugins'), { recursive: true });
  writeOmcJson(path.join(config, 'settings.json'), { enabledPlugins: { [OMC_PLUGIN_KEY]: true } });
  const env = { HOME: home, CLAUDE_CONFIG_DIR: config, NPM_CONFIG_PREFIX: path.join(base, 'npm-prefix') };
  return { home, config, env };
}

/** Installs (or updates to) the OMC package `pkg` as the user-scope plugin: its cache directory, then the registry. */
export function installPlugin(config: string, pkg: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(pkg, '.claude-plugin', 'plugin.json'), 'utf8')) as {
    version: string;
  };
  const dir = path.join(config, 'plugins', 'cache', 'omc', 'oh-my-claudecode', manifest.version);
  fs.mkdirSync(path.join(dir, '.claude-plugin'), { recursive: true });
  fs.copyFileSync(path.join(pkg, 'package.json'), path.join(dir, 'package.json'));
  fs.copyFileSync(path.join(pkg, '.claude-plugin', 'plugin.json'), path.join(dir, '.claude-plugin', 'plugin.json'));
  const file = path.join(config, 'plugins', 'installed_plugins.json');
  const now = new Date().toISOString();
  let installedAt = now;
  try {
    const prev = JSON.parse(fs.readFileSync(file, 'utf8')) as { plugins?: Record<string, [{ installedAt?: string }]> };
    installedAt = prev.plugins?.[OMC_PLUGIN_KEY]?.[0]?.installedAt ?? now;
  } catch {
    /* first install */
  }
  // An update keeps installedAt and moves installPath, version and lastUpdated (one rename: never half written).
  writeOmcJson(file, {
    version: 2,
    plugins: {
      [OMC_PLUGIN_KEY]: [{ scope: 'user', installPath: dir, version: manifest.version, installedAt, lastUpdated: now }],
    },
  });
  return dir;
}

/** Where OMC 5.5.0's own getOmcRoot puts the state of a session started in `dir`, with `env` (a child process). */
export function omc55Root(dir: string, env: Record<string, string>): string {
  const paths = path.join(OMC55, 'dist', 'lib', 'worktree-paths.js');
  const script = `const m = await import(${JSON.stringify(paths)}); process.stdout.write(m.getOmcRoot(process.argv[1]));`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script, dir], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
}

/**
 * An ultrawork loop as OMC 4.4.4's keyword hook writes it for "ultrawork …", in session `sid` of `root`: 4.4.4's Stop
 * hook enforces it, 5.5.0 retired the mode. The loop an upgrade re-judges.
 */
export function writeRetiredUltrawork(root: string, sid: string): void {
  const now = Date.now();
  writeOmcJson(path.join(root, 'state', 'sessions', sid, 'ultrawork-state.json'), {
    active: true,
    started_at: new Date(now - 60_000).toISOString(),
    original_prompt: 'ultrawork refactor the parser module',
    session_id: sid,
    reinforcement_count: 2,
    last_checked_at: new Date(now - 5_000).toISOString(),
  });
}

/**
 * A whole OMC package (`pkg`, one of the real ones) put into `dir` in place of what was there: the directory stays
 * (the same path a running `claude --plugin-dir dir` named, the same inode), its content goes and the other
 * release's comes, as a checkout's `git pull` leaves it. The new release is copied beside it first and its
 * top-level entries renamed in, so the directory is half-way (no package.json, part of dist/) for a few renames'
 * time, not for the seconds a copy of its ~6,000 files takes on a loaded machine: a look that lands in a long
 * half-way state sees a release that is neither and says so (that is the monitor right, and the test's words wrong).
 */
export function omcInPlace(dir: string, pkg: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const incoming = fs.mkdtempSync(`${dir}.incoming-`);
  const outgoing = fs.mkdtempSync(`${dir}.outgoing-`);
  fs.cpSync(pkg, incoming, { recursive: true });
  for (const name of fs.readdirSync(dir)) fs.renameSync(path.join(dir, name), path.join(outgoing, name));
  for (const name of fs.readdirSync(incoming)) fs.renameSync(path.join(incoming, name), path.join(dir, name));
  fs.rmSync(incoming, { recursive: true, force: true });
  fs.rmSync(outgoing, { recursive: true, force: true });
}
