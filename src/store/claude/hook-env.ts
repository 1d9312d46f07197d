/**
 * The value an OMC hook sees for one of its variables (OMC_STALE_RUN_HOURS, OMC_RUN_BUDGET_TOKENS, …), and where it
 * comes from. Claude Code starts its hooks with its own environment with the `env` of its settings laid over it,
 * so omc-top's own environment is only the last guess. In the order that decides (measured with the real CLI
 * 2.1.332, `claude -p` with a SessionStart hook printing its environment; managed settings from its docs):
 *  1. managed settings: `/etc/claude-code/managed-settings.d/*.json` (the last name in sort order first), then
 *     `/etc/claude-code/managed-settings.json`;
 *  2. the `.claude/settings.local.json` of the repository's top, then the project's, then its `.claude/settings.json`;
 *  3. the user's `<config>/settings.json` (`~/.claude/settings.json`, or under CLAUDE_CONFIG_DIR);
 *     which files a Claude started in the project reads is settings-sources.ts's one rule. Each of these beats the
 *     environment Claude was started with (a key set in the shell and in settings.json: the hook sees the
 *     settings' value);
 *  4. the environment of a live Claude of the project (/proc/<pid>/environ): its hooks inherit it;
 *  5. omc-top's own environment, when no Claude of the project runs.
 * One resolver for every surface: the stale-run line, the budget guard's lines, `--json`. A variable that differs
 * per session (OMC_SECURITY, ralph's hard max) is asked per process (`forProcess`): 4 is then that session's own
 * Claude, and with none (or its environment unreadable) the value is not known; 5 is not used. Files are read through
 * the safe read path (a link followed: dotfile managers link settings.json), again on the store's timer.
 */
import path from 'node:path';
import { readJsonSync } from '../../io/safe-fs/index.js';
import { followedStampKey, MISSING_STAMP } from '../../io/file-stamp.js';
import { gitOnePass, realGit, type GitProbe } from '../../io/git.js';
import { obj } from '../../io/json.js';
import { homeDir } from '../../io/home-dir.js';
import { shownPath } from '../../io/shown-path.js';
import { cleanLine } from '../../io/sanitize.js';
import { CLAUDE_DIR_READ, findClaudeConfigDir } from './config-dir.js';
import { environOfProcess } from './process-env.js';
import { judgeProcess, systemProbe, type LivenessProbe } from './process-status.js';
import { readRegistry } from './registry.js';
import {
  MANAGED_SETTINGS_DIR,
  loadsDisableKey,
  settingsSources,
  sourcePath,
  type SettingsSource,
} from './settings-sources.js';

/** One variable as OMC's hooks see it: its value (null: unset) and where that came from, in words. */
export interface HookSetting {
  name: string;
  value: string | null;
  /**
   * "~/.claude/settings.json", "the project's .claude/settings.local.json", "Claude pid 123's environment"…; when
   * unset, where it was looked for: "not set in Claude's settings nor omc-top's environment".
   */
  source: string;
  /** True when a settings file's `env` set it (it beats any environment Claude was started with). */
  fromSettings?: boolean;
}

/** A variable as one Claude process's hooks get it; `unknown`: why that cannot be told here (then `value` is null). */
export interface ProcessHookSetting extends HookSetting {
  unknown: string | null;
}

const environKey = (c: LiveClaude): string => `${c.pid}:${c.procStart ?? ''}`;

/** "OMC_STALE_RUN_HOURS=8 from ~/.claude/settings.json"; "OMC_STALE_RUN_HOURS not set in Claude's settings nor …". */
export const hookSettingWords = (s: HookSetting): string =>
  s.value === null ? `${s.name} ${s.source}` : `${s.name}=${cleanLine(s.value)} from ${s.source}`;

export interface HookEnvOptions {
  /** omc-top's own environment (the last source). */
  env: NodeJS.ProcessEnv;
  /**
   * The environment that names Claude's config directory (CLAUDE_CONFIG_DIR, HOME); default `env`. A function: the
   * directory a running monitor reads now (it follows the project's Claudes, config-look.ts), asked at each look.
   */
  claudeEnv?: NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv);
  /** The project whose `.claude/` settings apply and whose live Claudes are looked at. */
  projectDir: string | null;
  /** Where managed settings live (tests point it at a scratch directory). */
  managedDir?: string;
  /** Look at the live Claude processes of the project (default true). */
  processes?: boolean;
  probe?: LivenessProbe;
  /**
   * The live Claude processes of the project as the store's Claude side already knows them (no registry read of
   * its own). Unset: the registry is read.
   */
  liveClaudes?: () => readonly LiveClaude[];
  /** How git is asked where the repository's top is (tests pass a fake). */
  git?: GitProbe;
}

/** A running Claude Code process: its environment is read once (it cannot change after exec). */
export interface LiveClaude {
  pid: number;
  startedAt: number | null;
  procStart: string | null;
}

interface Layer {
  source: string;
  vars: ReadonlyMap<string, string>;
  /** A settings file's `env` (not an environment). */
  settings?: boolean;
}

const SETTINGS_MAX_BYTES = 4 * 1024 * 1024;

/** How many processes' environments are kept (HookEnv.environOf). */
export const ENVIRON_KEPT = 2048;

export class HookEnv {
  private layers: Layer[] | null = null;
  private key = '';
  /** Environments read, by process (pid and start): one read per process for its life. */
  private readonly environs = new Map<string, Map<string, string> | null>();

  /** Git's answers (the project's repository top, for its local settings) asked once for this resolver's life. */
  private readonly git: GitProbe;

  constructor(private readonly opts: HookEnvOptions) {
    this.git = gitOnePass(opts.git ?? realGit);
  }

  /** The variable as the hooks see it. */
  get(name: string): HookSetting {
    for (const l of this.read()) {
      const v = l.vars.get(name);
      if (v !== undefined) return { name, value: v, source: l.source, ...(l.settings ? { fromSettings: true } : {}) };
    }
    return { name, value: null, source: this.unsetWords() };
  }

  /**
   * The variable as the hooks of one Claude process get it: the settings' `env` (they beat any environment), else
   * that process's own environment, never another Claude's nor omc-top's. `unknown` says why it cannot be told: no
   * process given (none of the session's runs), or its environment cannot be read here; the value is then null.
   */
  forProcess(name: string, proc: LiveClaude | null): ProcessHookSetting {
    for (const l of this.read()) {
      if (!l.settings) continue;
      const v = l.vars.get(name);
      if (v !== undefined) return { name, value: v, source: l.source, fromSettings: true, unknown: null };
    }
    if (proc === null)
      return {
        name,
        value: null,
        source: 'no Claude process of this session runs',
        unknown: `no Claude process of this session runs: ${name} in the environment of the Claude that runs its next Stop is not known`,
      };
    const env = this.environOf(proc);
    const source = `Claude pid ${proc.pid}'s environment`;
    if (env === null)
      return {
        name,
        value: null,
        source,
        unknown: `${source} could not be read here (${this.environWhy.get(environKey(proc)) ?? 'not readable'}): its ${name} is not known`,
      };
    const v = env.get(name);
    return v === undefined
      ? { name, value: null, source: `not set in Claude's settings nor ${source}`, unknown: null }
      : { name, value: v, source, unknown: null };
  }

  /**
   * Looks at every source again; true when what the hooks see (or where it comes from) changed. A settings file is
   * read again only when its stat changed (this runs every 5 s while watching: a few stats at rest, not reads and
   * parses); omc-top's own environment is taken once.
   */
  refresh(): boolean {
    const before = this.key;
    this.layers = readLayers(
      this.opts,
      this.git,
      (c) => this.environOf(c),
      (src) => this.settingsEnvOf(src),
      () => (this.own ??= ownLayer(this.opts.env)),
    );
    this.key = this.layers.map((l) => (l === this.own ? l.source : JSON.stringify([l.source, [...l.vars]]))).join('\n');
    return before !== '' && before !== this.key;
  }

  private own: Layer | null = null;
  /** Each settings file's `env` by path, with the stat it was read at. */
  private readonly files = new Map<string, { stamp: string | null; vars: Map<string, string> | null }>();

  private settingsEnvOf(src: SettingsSource): Map<string, string> | null {
    const file = sourcePath(src);
    // Followed as the read follows it: a settings file linked from a dotfiles repository changes at its target.
    const stamp = followedStampKey(file);
    const had = this.files.get(file);
    if (had && stamp !== null && had.stamp === stamp) return had.vars;
    const vars = stamp === MISSING_STAMP ? null : settingsEnv(src);
    if (this.files.size > 32) this.files.clear();
    this.files.set(file, { stamp, vars });
    return vars;
  }

  /** Why a process's environment could not be read, by process (as `environs`). */
  private readonly environWhy = new Map<string, string>();

  private environOf(c: LiveClaude): Map<string, string> | null {
    const key = environKey(c);
    if (!this.environs.has(key)) {
      // Bounded, so a fleet's long watch does not hold every Claude it ever saw, but well above the Claudes one
      // machine runs: the 5 s look asks every session's process again, and a bound below their number (it was 64)
      // read each /proc/<pid>/environ anew on every look (200 live Claudes: idle CPU ×2.8). The oldest goes first.
      if (this.environs.size >= ENVIRON_KEPT) {
        const oldest = this.environs.keys().next().value as string;
        this.environs.delete(oldest);
        this.environWhy.delete(oldest);
      }
      const r = environOfProcess(c.pid);
      this.environs.set(key, r.ok ? r.env : null);
      if (!r.ok) this.environWhy.set(key, r.why);
    }
    return this.environs.get(key) ?? null;
  }

  private read(): Layer[] {
    if (this.layers === null) this.refresh();
    return this.layers as Layer[];
  }

  private unsetWords(): string {
    const last = this.read().at(-1);
    return `not set in Claude's settings nor ${last?.source ?? "omc-top's environment"}`;
  }
}

/** A settings file's `env` of strings (numbers as the CLI takes them), or none. */
function settingsEnv(src: SettingsSource): Map<string, string> | null {
  const label =
    src.scope === 'user' ? CLAUDE_DIR_READ.rootLabel : src.scope === 'managed' ? 'managed settings' : PROJECT;
  const r = readJsonSync(src.root, src.rel, SETTINGS_MAX_BYTES, { followLink: true, rootLabel: label });
  // A file Claude Code does not load (a non-boolean disableAllHooks) gives its hooks none of its `env`.
  const env = r.ok && loadsDisableKey(r.value) ? obj(obj(r.value)?.env) : null;
  if (!env) return null;
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(env))
    if (typeof v === 'string') out.set(k, v);
    else if (typeof v === 'number' && Number.isFinite(v)) out.set(k, String(v));
  return out;
}

const PROJECT = 'the project directory';

/** `~/…` under the home directory, else the path, escaped as every path shown is. */
function homeWords(file: string, env: NodeJS.ProcessEnv): string {
  const rel = path.relative(homeDir(env), file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? `~/${shownPath(rel)}` : shownPath(file);
}

/** omc-top's own environment as a layer (the last: what the hooks would see with nothing else set). */
function ownLayer(env: NodeJS.ProcessEnv): Layer {
  const own = new Map<string, string>();
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string') own.set(k, v);
  return { source: "omc-top's environment", vars: own };
}

function readLayers(
  opts: HookEnvOptions,
  git: GitProbe,
  environOf: (c: LiveClaude) => Map<string, string> | null,
  settingsEnvOf: (src: SettingsSource) => Map<string, string> | null,
  own: () => Layer,
): Layer[] {
  const layers: Layer[] = [];
  const claudeEnv = typeof opts.claudeEnv === 'function' ? opts.claudeEnv() : (opts.claudeEnv ?? opts.env);
  const project = opts.projectDir;
  // The files Claude Code started in the project reads (settings-sources.ts, the one rule), the one that wins
  // first. Managed drop-ins merge over the managed file in name order, so for a variable the last name wins first.
  const all = settingsSources(project ?? homeDir(claudeEnv), claudeEnv, git, opts.managedDir ?? MANAGED_SETTINGS_DIR);
  const managed = all.filter((x) => x.scope === 'managed').reverse();
  const rest = all.filter((x) => x.scope !== 'managed' && (project !== null || x.scope === 'user'));
  for (const src of [...managed, ...rest]) {
    const vars = settingsEnvOf(src);
    if (vars && vars.size > 0) layers.push({ source: sourceWords(src, project, claudeEnv), vars, settings: true });
  }
  const running =
    project !== null && opts.processes !== false
      ? liveClaudeEnviron(
          opts.liveClaudes?.() ?? registryClaudes(findClaudeConfigDir(claudeEnv).dir, project, opts.probe),
          environOf,
        )
      : null;
  layers.push(running ?? own());
  return layers;
}

/** A settings file in words: "managed settings /etc/…", "the project's .claude/settings.json", "~/.claude/settings.json". */
function sourceWords(src: SettingsSource, project: string | null, env: NodeJS.ProcessEnv): string {
  const file = sourcePath(src);
  if (src.scope === 'managed') return `managed settings ${shownPath(file)}`;
  if (src.scope !== 'user' && project !== null && path.resolve(src.root) === path.resolve(project))
    return `the project's ${src.rel}`;
  return homeWords(file, env);
}

/** The live Claudes of the project from the registry (a one-off look: `status`, `--json`, doctor). */
function registryClaudes(config: string, project: string, probe?: LivenessProbe): LiveClaude[] {
  const p = probe ?? systemProbe();
  return readRegistry(config).entries.filter(
    (e) => e.cwd !== null && inside(project, e.cwd) && judgeProcess(e, p).status !== 'gone',
  );
}

/** The environment of the newest live Claude whose environment can be read here, or null. */
function liveClaudeEnviron(
  live: readonly LiveClaude[],
  environOf: (c: LiveClaude) => Map<string, string> | null,
): Layer | null {
  const newest = [...live].sort((a, b) => (b.startedAt ?? 0) - (a.startedAt ?? 0) || b.pid - a.pid);
  for (const c of newest) {
    const env = environOf(c);
    if (env) return { source: `Claude pid ${c.pid}'s environment`, vars: env };
  }
  return null;
}

const inside = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};
