/**
 * Which OMC runs this project's hooks, found the way Claude Code loads it, so
 * the verdict engine applies that version's Stop-hook rules.
 *
 * Formats, as the real Claude Code CLI 2.1.332 writes them (`claude plugin
 * marketplace add`, `plugin install [--scope project]`, `plugin disable`):
 * - `<config>/plugins/installed_plugins.json`: `{"version":2,"plugins":{"<name>@<marketplace>":
 *   [{"scope":"user"|"project"|"local","installPath","version","installedAt","lastUpdated",
 *   ["projectPath"]}]}}`;
 * - `enabledPlugins: {"<name>@<marketplace>": true|false}` in `<config>/settings.json` (user),
 *   `<project>/.claude/settings.json` (project) and `.claude/settings.local.json` (local); the
 *   narrower scope wins.
 *
 * Precedence: `--omc-version` > `CLAUDE_PLUGIN_ROOT` (a hook's own environment) > the enabled
 * plugin in the registry > a global npm install (the legacy, non-plugin setup). Unknown → the
 * newest supported rules, marked assumed. Every file is read through fsx.
 */
import path from 'node:path';
import { readJsonSync } from '../io/safe-fs/index.js';
import { findClaudeConfigDir } from './claude/config-dir.js';
import { cleanLine } from '../io/sanitize.js';
import { type Obj, obj } from '../io/json.js';

export interface OmcInstall {
  version: string | null;
  source: string;
  assumed: boolean;
  rules: string;
  candidates: ReadonlyArray<{ version: string | null; source: string; path: string }>;
}

/** The rule sets the verdict engine has, newest first. */
export const SUPPORTED_RULES = ['5.5.0', '4.4.4'] as const;
export type RulesVersion = (typeof SUPPORTED_RULES)[number];

const PLUGIN_NAME = 'oh-my-claudecode';
const NPM_NAME = 'oh-my-claude-sisyphus';

/**
 * The rule set for an OMC version: 4.4.x and older wire `persistent-mode.cjs` (no cancel
 * signals, ultrawork/ultraqa enforced); 4.5 and later wire the `.mjs` hook whose rules 5.5.0
 * carries (4.15.10's contract differs only in still enforcing ultrawork/ultraqa).
 */
export function rulesFor(version: string | null): RulesVersion {
  const m = version === null ? null : /^v?(\d+)\.(\d+)/.exec(version.trim());
  if (!m) return '5.5.0';
  const major = Number(m[1]);
  const minor = Number(m[2]);
  return major < 4 || (major === 4 && minor <= 4) ? '4.4.4' : '5.5.0';
}

const VERSION_RE = /^v?\d+\.\d+\.\d+[0-9A-Za-z.+-]{0,40}$/;
const cleanVersion = (v: unknown): string | null =>
  typeof v === 'string' && VERSION_RE.test(v.trim()) ? v.trim().replace(/^v/, '') : null;

/** The version a package directory says it is (package.json, then the plugin manifest). */
function versionAt(dir: string): string | null {
  for (const rel of ['package.json', '.claude-plugin/plugin.json']) {
    const r = readJsonSync(dir, rel, 1024 * 1024);
    if (r.ok) {
      const v = cleanVersion(obj(r.value)?.version);
      if (v) return v;
    }
  }
  return null;
}

function readObj(dir: string, rel: string): Obj | null {
  const r = readJsonSync(dir, rel, 4 * 1024 * 1024);
  return r.ok ? obj(r.value) : null;
}

/** The OMC plugin keys a settings file enables or disables. */
function enabledIn(settings: Obj | null): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const ep = obj(settings?.enabledPlugins);
  if (!ep) return out;
  for (const [k, v] of Object.entries(ep)) if (k.startsWith(`${PLUGIN_NAME}@`) && typeof v === 'boolean') out.set(k, v);
  return out;
}

export function detectOmcInstall(opts: {
  env: NodeJS.ProcessEnv;
  projectDir: string | null;
  override?: string;
}): OmcInstall {
  const candidates: Array<{ version: string | null; source: string; path: string }> = [];
  const { env, projectDir } = opts;

  // Candidates are collected in precedence order; the first with a version decides.
  const pluginRoot = env.CLAUDE_PLUGIN_ROOT;
  if (typeof pluginRoot === 'string' && pluginRoot.trim() !== '' && path.isAbsolute(pluginRoot)) {
    candidates.push({ version: versionAt(pluginRoot), source: 'CLAUDE_PLUGIN_ROOT', path: pluginRoot });
  }

  const config = findClaudeConfigDir(env).dir;
  const registry = obj(readObj(config, 'plugins/installed_plugins.json')?.plugins);
  // Narrowest scope first: local > project > user (Claude Code's settings precedence).
  const layers: Array<{ scope: string; map: Map<string, boolean> }> = [];
  if (projectDir !== null) {
    layers.push({ scope: 'local', map: enabledIn(readObj(projectDir, '.claude/settings.local.json')) });
    layers.push({ scope: 'project', map: enabledIn(readObj(projectDir, '.claude/settings.json')) });
  }
  layers.push({ scope: 'user', map: enabledIn(readObj(config, 'settings.json')) });
  const decided = new Map<string, { on: boolean; scope: string }>();
  for (const l of layers) for (const [k, on] of l.map) if (!decided.has(k)) decided.set(k, { on, scope: l.scope });
  for (const [key, { on, scope }] of decided) {
    if (!on) continue;
    const entries = Array.isArray(registry?.[key]) ? (registry?.[key] as unknown[]).map(obj) : [];
    const here = (e: Obj | null) =>
      e !== null &&
      (e.scope === 'user' ||
        (typeof e.projectPath === 'string' && projectDir !== null && path.resolve(e.projectPath) === projectDir));
    const entry = entries.find((e) => here(e) && e?.scope === scope) ?? entries.find(here) ?? null;
    const installPath = typeof entry?.installPath === 'string' ? entry.installPath : null;
    const version =
      (installPath && path.isAbsolute(installPath) ? versionAt(installPath) : null) ?? cleanVersion(entry?.version);
    candidates.push({
      version,
      source: `plugin ${cleanLine(key)} (enabled in ${scope} settings)`,
      path: installPath ?? path.join(config, 'plugins', 'installed_plugins.json'),
    });
  }

  // A global npm install (hooks copied into settings by `omc setup`): npm's prefix, as npm picks it
  // (the configured prefix, else next to the node binary).
  const prefix =
    [env.npm_config_prefix, env.NPM_CONFIG_PREFIX].find((v) => typeof v === 'string' && path.isAbsolute(v)) ??
    path.resolve(path.dirname(process.execPath), '..');
  const globalDir = path.join(prefix, 'lib', 'node_modules', NPM_NAME);
  const globalVersion = versionAt(globalDir);
  if (globalVersion) candidates.push({ version: globalVersion, source: 'global npm install', path: globalDir });

  const override = opts.override === undefined ? null : cleanVersion(opts.override);
  if (override !== null)
    return { version: override, source: '--omc-version', assumed: false, rules: rulesFor(override), candidates };
  const found = candidates.find((c) => c.version !== null);
  if (found)
    return { version: found.version, source: found.source, assumed: false, rules: rulesFor(found.version), candidates };
  return {
    version: null,
    source: 'not found: assuming the newest supported rules',
    assumed: true,
    rules: SUPPORTED_RULES[0],
    candidates,
  };
}
