/**
 * Which settings files Claude Code reads for a directory it is started in, and whether they turn every hook off.
 * Observed with the real CLI 2.1.332 offline (SessionStart probe hooks in each candidate file):
 * - `.claude/settings.local.json` is read in the start directory and in the canonical git root: the top of the
 *   repository, or for a linked worktree the main worktree's top, or for a submodule the submodule's own top (never
 *   the superproject's); not in the directories between them. Outside git only the start directory's.
 * - `.claude/settings.json` is read in the start directory only (not the git root's, from a subdirectory).
 * - user settings: `<CLAUDE_CONFIG_DIR or ~/.claude>/settings.json` (only the former when it is set).
 * - managed: `/etc/claude-code/managed-settings.json` and `/etc/claude-code/managed-settings.d/*.json`.
 * - `"disableAllHooks": true` in any of them stops every hook, project ones included; `false` in a file that wins
 *   over it turns them back on: managed (a true there always wins), then the git root's local file, the start
 *   directory's local file, its settings.json, the user's.
 * - Any other value ("true", 1, "yes", null, [] …: measured with 2.1.332, test/agent/hooks-settings.test.ts) turns
 *   nothing off: Claude Code does not load that file at all (it prints "These settings did not load" and the key's
 *   "Expected boolean"): none of the file's hooks, nor its `env`, nor a `false` in it apply; the other files' do.
 */
import path from 'node:path';
import { listDirSync, readTextSync } from '../../io/safe-fs/index.js';
import { realGit, type GitProbe } from '../../io/git.js';
import { findClaudeConfigDir } from './config-dir.js';

/** The settings file omc-top's hook goes in, relative to the Claude project directory. */
export const LOCAL_SETTINGS_REL = '.claude/settings.local.json';
export const MANAGED_SETTINGS_DIR = '/etc/claude-code';

/**
 * The directory whose `.claude/settings.local.json` Claude Code started anywhere in `cwd`'s repository reads:
 * its canonical git root (a linked worktree's main worktree; a submodule is a repository of its own), or `cwd`
 * itself outside git. Not OMC's state anchor, which climbs to the superproject.
 */
export function claudeProjectDir(cwd: string, git: GitProbe = realGit): string {
  const top = git.topLevel(cwd);
  if (!top) return cwd;
  const common = git.commonDir(top);
  // A linked worktree's common dir is the main worktree's `.git`; a submodule's is `.git/modules/<name>` of the
  // superproject (not named `.git`), and Claude keeps the submodule's own top for it.
  if (common && path.basename(common) === '.git') return path.dirname(common);
  return top;
}

export interface SettingsSource {
  /** Claude Code's name for the scope. */
  scope: 'managed' | 'local' | 'project' | 'user';
  root: string;
  rel: string;
}

export const sourcePath = (s: SettingsSource) => path.join(s.root, s.rel);

/** The files Claude Code started in `cwd` reads, the one that wins first (managed, the root's local, cwd's local, project, user). */
export function settingsSources(
  cwd: string,
  env: NodeJS.ProcessEnv,
  git: GitProbe = realGit,
  /** Where managed settings live (a test points it at a scratch directory). */
  managedDir = MANAGED_SETTINGS_DIR,
): SettingsSource[] {
  const managed: SettingsSource[] = [{ scope: 'managed', root: managedDir, rel: 'managed-settings.json' }];
  const dropIns = listDirSync(managedDir, 'managed-settings.d', { rootLabel: managedDir });
  if (dropIns.ok)
    for (const e of dropIns.entries.filter((e) => e.kind === 'file' && e.name.endsWith('.json')).sort(byName))
      managed.push({ scope: 'managed', root: managedDir, rel: `managed-settings.d/${e.name}` });
  const root = claudeProjectDir(cwd, git);
  // The repository top's local file wins over the start directory's (a false there turns hooks back on, a true
  // there turns them off, whatever the start directory's says).
  const local: SettingsSource[] = [{ scope: 'local', root, rel: LOCAL_SETTINGS_REL }];
  if (path.resolve(root) !== path.resolve(cwd)) local.push({ scope: 'local', root: cwd, rel: LOCAL_SETTINGS_REL });
  return [
    ...managed,
    ...local,
    { scope: 'project', root: cwd, rel: '.claude/settings.json' },
    { scope: 'user', root: findClaudeConfigDir(env).dir, rel: 'settings.json' },
  ];
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The one key that turns every hook off, as Claude Code spells it. */
export const DISABLE_ALL_HOOKS = 'disableAllHooks';

/**
 * The file whose `"disableAllHooks": true` stops Claude Code started in `cwd` from running any hook (omc-top's
 * included), or null when hooks run. A managed file's true wins over everything; otherwise the first file that
 * sets the key to a boolean decides. A file that cannot be read or parsed, or that Claude Code does not load (a
 * key that is not a boolean), is skipped, as Claude Code skips it.
 */
export function hooksDisabledBy(
  cwd: string,
  env: NodeJS.ProcessEnv,
  git: GitProbe = realGit,
  sources: SettingsSource[] = settingsSources(cwd, env, git),
): SettingsSource | null {
  let decided = false;
  for (const s of sources) {
    const v = disableValue(s);
    if (v === true && (s.scope === 'managed' || !decided)) return s;
    if (v === false && s.scope !== 'managed') decided = true;
  }
  return null;
}

/** A settings file Claude Code does not load for its `disableAllHooks`, and that value as JSON ("\"true\"", "1"). */
export interface UnloadedSettings {
  source: SettingsSource;
  value: string;
}

/** The files among `sources` that Claude Code does not load because their `disableAllHooks` is not a boolean. */
export function unloadedSettings(sources: readonly SettingsSource[]): UnloadedSettings[] {
  const out: UnloadedSettings[] = [];
  for (const s of sources) {
    const v = disableValue(s);
    if (v !== null && typeof v === 'object') out.push({ source: s, value: v.bad });
  }
  return out;
}

/**
 * Whether Claude Code loads a settings document at all, as far as `disableAllHooks` decides it: a value there that
 * is not a boolean makes it drop the whole file (its `env` too: claude/hook-env.ts).
 */
export const loadsDisableKey = (doc: unknown): boolean => {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || !(DISABLE_ALL_HOOKS in doc)) return true;
  return typeof (doc as Record<string, unknown>)[DISABLE_ALL_HOOKS] === 'boolean';
};

/** true/false; null: not set, or the file unreadable; `bad`: set to something Claude Code refuses (the JSON). */
function disableValue(s: SettingsSource): boolean | null | { bad: string } {
  const r = readTextSync(s.root, s.rel, 4 * 1024 * 1024, { rootLabel: s.root });
  if (!r.ok) return null;
  try {
    const v: unknown = JSON.parse(r.text);
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
    if (!(DISABLE_ALL_HOOKS in v)) return null;
    const d = (v as Record<string, unknown>)[DISABLE_ALL_HOOKS];
    return typeof d === 'boolean' ? d : { bad: JSON.stringify(d) };
  } catch {
    return null;
  }
}
