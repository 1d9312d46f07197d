/**
 * Which OMC runs this project's hooks, found the way Claude Code loads it, so the verdict engine
 * applies that version's Stop-hook rules (omc-books.ts says which book judges which version).
 *
 * Formats, as the real Claude Code CLI 2.1.332 writes them (`claude plugin
 * marketplace add`, `plugin install [--scope project]`, `plugin disable`):
 * - `<config>/plugins/installed_plugins.json`: `{"version":2,"plugins":{"<name>@<marketplace>":
 *   [{"scope":"user"|"project"|"local","installPath","version","installedAt","lastUpdated",
 *   ["projectPath"]}]}}`;
 * - `enabledPlugins: {"<name>@<marketplace>": true|false}` in `<config>/settings.json` (user),
 *   `<project>/.claude/settings.json` (project) and `.claude/settings.local.json` (local); the
 *   narrower scope wins;
 * - `claude --plugin-dir <dir>` loads a plugin no file names: only the process's command line
 *   (/proc/<pid>/cmdline) says so;
 * - OMC's setup writes `<!-- OMC:VERSION:x.y.z -->` into the CLAUDE.md it manages (the user's
 *   `<config>/CLAUDE.md`, or the project's `.claude/CLAUDE.md` for a local setup).
 *
 * Precedence: `--omc-version` > `CLAUDE_PLUGIN_ROOT` (a hook's own environment) > the enabled
 * plugin in the registry > the `OMC:VERSION` marker > a global npm install (the legacy, non-plugin
 * setup) > (only where none of those names an OMC) a live Claude process of this project started
 * with `--plugin-dir <OMC>`. Unknown → the newest book, marked assumed (and the statuses say where
 * the books disagree). Every file is read through fsx. A session whose own Claude process says
 * more (its `--plugin-dir`) is judged by that, and only that session: `installForProcess`.
 */
import path from 'node:path';
import { emptyTextWords } from '../io/empty-file-words.js';
import { nothingAtSync, parseJsonText, readJsonSync, readTextSync, type JsonResult } from '../io/safe-fs/index.js';
import { CLAUDE_DIR_READ, findClaudeConfigDir, transcriptRel } from './claude/config-dir.js';
import { TranscriptReader } from './claude/transcript-reader.js';
import { projectClaudeConfig, type ProjectClaudeConfig } from './claude/project-config.js';
import { pluginDirsIn, pluginDirsOf } from './claude/plugin-dir.js';
import { judgeProcess, systemProbe, type LivenessProbe } from './claude/process-status.js';
import { readRegistry, type RegistryEntry } from './claude/registry.js';
import { cleanLine } from '../io/sanitize.js';
import { bookFor, newerThanKnownWords, type BookChoice } from './omc-books.js';
import { RULE_BOOKS, type RulesVersion } from './verdict/types.js';
import { type Obj, obj } from '../io/json.js';
import { shownPath } from '../io/shown-path.js';
import { npmGlobalPrefix, readNpmrc } from './npm-prefix.js';

export type { RulesVersion } from './verdict/types.js';

export interface OmcInstall {
  version: string | null;
  /** Where the version was found, in words. */
  source: string;
  /** The same, in a word or two for the header: "--plugin-dir", "plugin", "CLAUDE.md", "npm"… */
  sourceTag: string;
  assumed: boolean;
  rules: RulesVersion;
  /** Which book judges this version, how exactly, and what is known to differ. */
  book: BookChoice;
  candidates: ReadonlyArray<{ version: string | null; source: string; path: string }>;
  /**
   * Files that decide the version and are there but were refused (a FIFO, a link to one, too big, unreadable,
   * not JSON, empty): the answer may be wrong for want of them, so every surface names them (problem line, doctor).
   */
  refused: ReadonlyArray<OmcFileRefusal>;
  /**
   * The live Claude process whose `--plugin-dir` decided (installForProcess), and that directory: while it lives no
   * file can change the answer, but the release in `dir` can (OMC upgraded in place: a `git pull` in the checkout, a
   * copy over it), so that is read again; once the process is gone the answer is looked for again (omc-recheck.ts),
   * never kept in its name.
   */
  process?: { pid: number; procStart: string | null; dir?: string };
  /**
   * Other OMC plugins enabled beside this one (two marketplaces' `oh-my-claudecode@…` both on): Claude Code runs every
   * enabled plugin's Stop hook, and any one that blocks holds the agent. Each session is judged by every book among
   * them, a block winning (sessions/verdicts.ts); every surface warns (doctor, a problem line, the source's words).
   */
  alongside?: readonly OmcInstall[];
  /**
   * A running monitor's answer found before a file in `refused` could no longer be read, kept until it can be
   * (omc-kept.ts): this answer is that one, its source saying so. Unset: found by this look.
   */
  keptFrom?: OmcInstall;
  /**
   * The directories the plugin registry names for an enabled OMC plugin that are not there (the plugin cache cleared,
   * a reinstall half done): the version is then the registry's word alone, and whether Claude Code loads the plugin
   * at all is not known (missingPluginDirWords). Unset when there is none.
   */
  pluginDirMissing?: readonly string[];
}

export interface OmcFileRefusal {
  path: string;
  /** The safe read path's reason, in words ("is a FIFO, not a regular file; not read"). */
  why: string;
}

/**
 * Pinned by the user (`--omc-version X`): a what-if ("what would X do here"), not the OMC that runs the hooks. What
 * such a process judges is its own view: it is never the project's shared answer (the status cache, status-cache.ts).
 */
export const isPinnedInstall = (i: OmcInstall): boolean => i.sourceTag === '--omc-version';

/** The rule books the verdict engine has, newest first. */
export const SUPPORTED_RULES = RULE_BOOKS;

const PLUGIN_NAME = 'oh-my-claudecode';
const NPM_NAME = 'oh-my-claude-sisyphus';

/** The book that judges an OMC version (omc-books.ts); the newest for an unknown one. */
export function rulesFor(version: string | null): RulesVersion {
  return bookFor(version).rules;
}

const VERSION_RE = /^v?\d+\.\d+\.\d+[0-9A-Za-z.+-]{0,40}$/;
const cleanVersion = (v: unknown): string | null =>
  typeof v === 'string' && VERSION_RE.test(v.trim()) ? v.trim().replace(/^v/, '') : null;

/**
 * The reads of one round of looks (a fleet's every project on the same tick: omc-recheck.ts's ticker): a file
 * every project shares (Claude's registry and user settings, the user's CLAUDE.md, a plugin's manifest) is read
 * once per round, not once per project. Keyed by how it was read; a round is a few milliseconds, so it is one look.
 */
export type OmcReadMemo = Map<string, unknown>;

const memoized = <T>(memo: OmcReadMemo | undefined, key: string, read: () => T): T => {
  if (!memo) return read();
  if (memo.has(key)) return memo.get(key) as T;
  const value = read();
  memo.set(key, value);
  return value;
};

/** The version a package directory says it is (package.json, then the plugin manifest). */
function versionAt(dir: string, memo?: OmcReadMemo): string | null {
  for (const rel of ['package.json', '.claude-plugin/plugin.json']) {
    const r = memoized(memo, `pkg\0${dir}\0${rel}`, () => readJsonSync(dir, rel, 1024 * 1024));
    if (r.ok) {
      const v = cleanVersion(obj(r.value)?.version);
      if (v) return v;
    }
  }
  return null;
}

/**
 * The version of the OMC package or plugin in `dir`; null when `dir` holds some other plugin (or none, or is caught
 * mid-copy). `reads`: the round's shared reads (a directory many Claudes loaded is read once per round).
 */
export function omcVersionAt(dir: string, reads?: OmcReadMemo): string | null {
  return memoized(reads, `omc\0${dir}`, () => {
    for (const [rel, name] of [
      ['package.json', NPM_NAME],
      ['.claude-plugin/plugin.json', PLUGIN_NAME],
    ] as const) {
      const r = readJsonSync(dir, rel, 1024 * 1024);
      const o = r.ok ? obj(r.value) : null;
      if (o?.name === name) {
        const v = cleanVersion(o.version);
        if (v) return v;
      }
    }
    return null;
  });
}

/**
 * How the release in a plugin directory is read: as it is now (omcVersionAt), or as an answer in force read it
 * (claude/session-installs.ts: one release per directory until the next look says it moved).
 */
export type ReleaseAt = (dir: string) => string | null;
const releaseNow: ReleaseAt = (dir) => omcVersionAt(dir);

/**
 * The user's own settings files: a symlink is followed wherever it points (stow and home-manager link them into a
 * dotfiles repo or /nix/store, and Claude Code reads them there), through the safe read path's bounded read of a
 * regular file. A file that is there and refused is noted, never a silent "not found".
 */
const OWN_FILE = { followLink: true } as const;
const PROJECT_READ = { rootLabel: 'the project directory' };

function noteRefusal(refused: OmcFileRefusal[], dir: string, rel: string, r: { code: string; message: string }) {
  // Missing is the ordinary case: nothing to say.
  if (r.code === 'missing') return;
  refused.push({ path: path.join(dir, rel), why: cleanLine(r.message) });
}

/**
 * An empty settings file or plugin registry, in words. A look takes it as the file's state: a writer that truncates
 * and then writes is caught so only for a moment, and a running monitor takes a new answer only when its second
 * look, a moment later, agrees (omc-recheck.ts), so an empty file it names is one that stayed empty. What Claude Code
 * makes of such a file is not in the research (no run of it), so the words say that, not a guess.
 */
export const emptyFileWords = (bytes: number): string =>
  `${emptyTextWords(bytes)}: what Claude Code makes of ` + 'an empty file here is not known to omc-top';

/**
 * What a look that finds no OMC because a file is refused cannot see: a running monitor that found a version before
 * keeps it until the file reads again (omc-kept.ts), and judges by it meanwhile.
 */
export const KEPT_BY_MONITOR_WORDS =
  'an omc-top monitor running since before the file became so keeps judging by the OMC version it found then, ' +
  'until the file reads again';

/**
 * A JSON file's read, with the size of the bytes behind an empty one (emptyFileWords). Both files that decide the
 * plugin hold an object; any other JSON (`null`, `[]`, `42`) is refused like broken JSON, not read as "no plugin", so
 * a running monitor keeps the version it found (omc-kept.ts) and every surface names the file.
 */
function readJsonFile(dir: string, rel: string, label: { rootLabel: string }): JsonResult {
  const r = readTextSync(dir, rel, 4 * 1024 * 1024, { ...OWN_FILE, ...label });
  if (!r.ok) return r;
  const parsed = parseJsonText(r.text, r);
  if (!parsed.ok) return parsed.code === 'empty' ? { ...parsed, message: emptyFileWords(r.bytes) } : parsed;
  const v = parsed.value;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return parsed;
  const found = Array.isArray(v) ? 'an array' : v === null ? 'null' : `a ${typeof v}`;
  return { ok: false, code: 'invalid-json', message: `expected a JSON object, found ${found}` };
}

/** A settings file or the plugin registry as read: its object, or why not (`empty`: the file is there, empty). */
interface DeciderRead {
  value: Obj | null;
  refusal: OmcFileRefusal | null;
  empty: boolean;
}

/** `label`: what `dir` is called in a refusal (Claude's config directory, or the project's). */
function readDecider(dir: string, rel: string, label: { rootLabel: string }, memo?: OmcReadMemo): DeciderRead {
  const r = memoized(memo, `json\0${dir}\0${rel}`, () => readJsonFile(dir, rel, label));
  if (r.ok) return { value: obj(r.value), refusal: null, empty: false };
  const noted: OmcFileRefusal[] = [];
  noteRefusal(noted, dir, rel, r);
  return { value: null, refusal: noted[0] ?? null, empty: r.code === 'empty' };
}

/** The OMC plugin keys a settings file enables or disables. */
function enabledIn(settings: Obj | null): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const ep = obj(settings?.enabledPlugins);
  if (!ep) return out;
  for (const [k, v] of Object.entries(ep)) if (k.startsWith(`${PLUGIN_NAME}@`) && typeof v === 'boolean') out.set(k, v);
  return out;
}

/** `<!-- OMC:VERSION:x.y.z -->` in a CLAUDE.md OMC manages. */
function markerVersion(dir: string, rel: string, refused: OmcFileRefusal[], memo?: OmcReadMemo): string | null {
  const r = memoized(memo, `text\0${dir}\0${rel}`, () => readTextSync(dir, rel, 1024 * 1024, OWN_FILE));
  if (!r.ok) {
    noteRefusal(refused, dir, rel, r);
    return null;
  }
  return cleanVersion(/<!--\s*OMC:VERSION:([^\s]+)\s*-->/i.exec(r.text)?.[1]);
}

/** An install as found elsewhere (a test, a remote's report): the book follows from the version. */
export const makeOmcInstall = (
  version: string | null,
  source: string,
  sourceTag = source,
  assumed = version === null,
): OmcInstall => installOf(version, source, sourceTag, [], [], assumed);

function installOf(
  version: string | null,
  source: string,
  sourceTag: string,
  candidates: OmcInstall['candidates'],
  refused: OmcInstall['refused'] = [],
  assumed = false,
): OmcInstall {
  const book = bookFor(version);
  return { version, source, sourceTag, assumed, rules: book.rules, book, candidates, refused };
}

/** A refused file as one line: "~/.claude/settings.json: is not a regular file (a FIFO, a named pipe)". */
export const refusalWords = (r: OmcFileRefusal): string => `${shownPath(r.path)}: ${r.why}`;

/** What makes two answers the same for the monitor: a change of any is a change of what judges. */
export const installKey = (i: OmcInstall): string =>
  JSON.stringify([
    i.version,
    i.source,
    i.assumed,
    i.refused.map((r) => [r.path, r.why]),
    (i.alongside ?? []).map((a) => [a.version, a.source]),
    i.pluginDirMissing ?? [],
  ]);

/** Where this OMC was found, without the other enabled plugins the first one's source names too. */
export const ownSource = (i: OmcInstall): string => i.source.replace(/; also enabled: .*$/, '');

/** "plugin oh-my-claudecode@omc 4.4.4": another enabled OMC plugin, as the warnings name it. */
const pluginWords = (i: OmcInstall): string =>
  `${ownSource(i).replace(/ \(enabled in [^)]*\)$/, '')} ${i.version ?? '?'}`;

/**
 * The warning every surface gives when two OMC plugins are enabled at once (doctor, the problem line), or null: both
 * Stop hooks run, so omc-top judges each session by each release's rules and the block wins.
 */
export function alongsideWords(i: OmcInstall): string | null {
  if (!i.alongside || i.alongside.length === 0) return null;
  const all = [i, ...i.alongside].map(pluginWords).join(' and ');
  return (
    `${i.alongside.length + 1} OMC plugins are enabled at once (${all}): Claude Code runs each one's Stop hook and ` +
    'any that blocks holds the agent, so each session is judged by every one of their rules (a block wins); ' +
    'disable all but one (claude plugin disable)'
  );
}

/**
 * The warning every surface gives when the registry names a plugin directory that is not there (doctor, the problem
 * line), or null. What Claude Code 2.1.332 does then was not observed (the research has no run of it): it may not
 * load the plugin, and then no OMC hook runs. omc-top keeps judging by the registry's version, and says so.
 */
export function missingPluginDirWords(i: OmcInstall): string | null {
  const dirs = i.pluginDirMissing ?? [];
  if (dirs.length === 0) return null;
  return (
    `Claude's plugin registry names ${dirs.map(shownPath).join(' and ')} for OMC, and it does not exist (the plugin ` +
    'cache cleared, or a reinstall not finished): what Claude Code does then is not known to omc-top (it may not ' +
    `load the plugin, and then no OMC hook runs); judged by the registry's version (${i.version ?? '?'}) meanwhile; ` +
    'reinstall the plugin'
  );
}

/**
 * What a live Claude Code process says about the OMC its hooks run: the OMC among its
 * `--plugin-dir` directories, or null (none, or the command line cannot be read).
 */
export function installForProcess(
  e: Pick<RegistryEntry, 'pid' | 'cwd' | 'procStart'>,
  releaseAt: ReleaseAt = releaseNow,
): OmcInstall | null {
  return installAtDirs(pluginDirsOf(e.pid, e.cwd), e, releaseAt);
}

/**
 * The OMC among a live process's `--plugin-dir` directories (`dirs`, as its command line named them: read once per
 * process), by the release each holds as `releaseAt` reads it.
 */
export function installAtDirs(
  dirs: readonly string[] | null,
  e: Pick<RegistryEntry, 'pid' | 'procStart'>,
  releaseAt: ReleaseAt = releaseNow,
): OmcInstall | null {
  for (const d of dirs ?? []) {
    const version = releaseAt(d);
    if (version)
      return {
        ...installOf(version, `--plugin-dir ${cleanLine(d)} (claude pid ${e.pid})`, '--plugin-dir', [
          { version, source: '--plugin-dir', path: d },
        ]),
        process: { pid: e.pid, procStart: e.procStart, dir: d },
      };
  }
  return null;
}

/**
 * The OMC a session's Claude process loaded with `--plugin-dir`, from the flags omc-top recorded off its command
 * line while it lived (claude/launch-flags.ts), for when that process is gone: `r` resumes with the same flags, so
 * that OMC's hooks are the ones that would judge its next Stop, not the project's (which may be none). The source
 * says it plainly: the process ran with it and is gone. Null when the flags name no directory holding OMC now.
 */
export function installForRecorded(
  flags: readonly string[],
  pid: number,
  releaseAt: ReleaseAt = releaseNow,
): OmcInstall | null {
  for (const d of pluginDirsIn(flags, null)) {
    const version = releaseAt(d);
    if (version)
      return installOf(
        version,
        `--plugin-dir ${cleanLine(d)} (claude pid ${pid} ran with it; process gone)`,
        '--plugin-dir',
        [{ version, source: '--plugin-dir', path: d }],
      );
  }
  return null;
}

/** The plugin directory a skill's directory (`<root>/skills/<name>`) is in, or null when it is not a plugin's skill. */
export const skillRootOf = (skillDir: string): string | null =>
  path.basename(path.dirname(skillDir)) === 'skills' ? path.dirname(path.dirname(skillDir)) : null;

/** The tag of an install a session's transcript decided (installForTranscript): the header says it so. */
export const TRANSCRIPT_TAG = 'transcript';

/**
 * The OMC a session's Claude loaded its skills from, by Claude Code's own line in the session's transcript (the Skill
 * tool's "Base directory for this skill: <root>/skills/<name>", transcript-facts.ts `omcSkillDir`): for a session
 * whose process is gone and whose command line omc-top never read (a fresh `--json`, a monitor started after it), the
 * one thing left on disk that names an OMC no settings file names (`--plugin-dir`). Null when the directory is not a
 * plugin's skill or holds no OMC now.
 */
export function installForTranscript(skillDir: string, releaseAt: ReleaseAt = releaseNow): OmcInstall | null {
  const root = skillRootOf(skillDir);
  if (root === null) return null;
  const version = releaseAt(root);
  if (!version) return null;
  return installOf(
    version,
    `OMC's skills loaded from ${cleanLine(root)} (the session's transcript says so; its Claude process is gone)`,
    TRANSCRIPT_TAG,
    [{ version, source: TRANSCRIPT_TAG, path: root }],
  );
}

/**
 * The OMC a session's transcript names (installForTranscript), read from the transcript Claude files under `cwd`: for
 * a one-shot command that judges one session (`cancel`) without the Claude side's readers. Null when there is none.
 */
export function sessionTranscriptInstall(env: NodeJS.ProcessEnv, sessionId: string, cwd: string): OmcInstall | null {
  if (!path.isAbsolute(cwd)) return null;
  const reader = new TranscriptReader(findClaudeConfigDir(env).dir, transcriptRel(cwd, sessionId));
  reader.refresh();
  const dir = reader.factsIfAny?.omcSkillDir?.dir;
  return dir === undefined ? null : installForTranscript(dir);
}

/** The OMC a session's own live Claude process loaded (its --plugin-dir), or null. */
export function sessionInstall(env: NodeJS.ProcessEnv, sessionId: string, probe?: LivenessProbe): OmcInstall | null {
  const p = probe ?? systemProbe();
  for (const e of readRegistry(findClaudeConfigDir(env).dir).entries) {
    if (e.sessionId !== sessionId || judgeProcess(e, p).status === 'gone') continue;
    const found = installForProcess(e);
    if (found) return found;
  }
  return null;
}

const inside = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export function detectOmcInstall(opts: {
  env: NodeJS.ProcessEnv;
  projectDir: string | null;
  override?: string;
  /** Look at the live Claude processes of this project (their --plugin-dir); default true. */
  processes?: boolean;
  probe?: LivenessProbe;
  /** The reads of this round of looks, shared by every project looked at in it (OmcReadMemo). */
  reads?: OmcReadMemo;
  /**
   * The config directory the project's Claudes use, as found before (project-config.ts): its plugin judges. Unset:
   * found now from the project's live Claudes when `processes` is not false, else omc-top's own.
   */
  claudeConfig?: ProjectClaudeConfig;
}): OmcInstall {
  const candidates: Array<{
    version: string | null;
    source: string;
    path: string;
    tag: string;
    process?: OmcInstall['process'];
  }> = [];
  const { env, projectDir, reads } = opts;
  const refused: OmcFileRefusal[] = [];

  // Candidates are collected in precedence order; the first with a version decides.
  const pluginRoot = env.CLAUDE_PLUGIN_ROOT;
  if (typeof pluginRoot === 'string' && pluginRoot.trim() !== '' && path.isAbsolute(pluginRoot)) {
    candidates.push({ version: versionAt(pluginRoot), source: 'CLAUDE_PLUGIN_ROOT', path: pluginRoot, tag: 'env' });
  }

  const own = findClaudeConfigDir(env).dir;
  const looked =
    opts.claudeConfig ??
    (opts.processes !== false && projectDir !== null ? projectClaudeConfig(projectDir, env) : null);
  // The hooks of a Claude started with CLAUDE_CONFIG_DIR run the OMC enabled there, not in omc-top's own directory.
  const config = looked?.config.dir ?? own;
  const registryRead = readDecider(config, 'plugins/installed_plugins.json', CLAUDE_DIR_READ, reads);
  if (registryRead.refusal) refused.push(registryRead.refusal);
  const registry = obj(registryRead.value?.plugins);
  // Narrowest scope first: local > project > user (Claude Code's settings precedence).
  const layerReads: Array<{ scope: string; read: DeciderRead }> = [
    ...(projectDir !== null
      ? [
          { scope: 'local', read: readDecider(projectDir, '.claude/settings.local.json', PROJECT_READ, reads) },
          { scope: 'project', read: readDecider(projectDir, '.claude/settings.json', PROJECT_READ, reads) },
        ]
      : []),
    { scope: 'user', read: readDecider(config, 'settings.json', CLAUDE_DIR_READ, reads) },
  ];
  // An empty settings layer (a `touch`ed settings.local.json) can change the answer only where an OMC plugin is
  // installed for it to enable or disable, or where the registry cannot say whether one is: otherwise it reads as
  // a missing one, never a warning about a file that changes nothing.
  const installed =
    registryRead.refusal !== null || Object.keys(registry ?? {}).some((k) => k.startsWith(`${PLUGIN_NAME}@`));
  for (const { read } of layerReads) if (read.refusal && (!read.empty || installed)) refused.push(read.refusal);
  const layers = layerReads.map(({ scope, read }) => ({ scope, map: enabledIn(read.value) }));
  const decided = new Map<string, { on: boolean; scope: string }>();
  const missingDirs: string[] = [];
  for (const l of layers) for (const [k, on] of l.map) if (!decided.has(k)) decided.set(k, { on, scope: l.scope });
  // An empty registry is why no OMC is found only when a settings layer enables an OMC plugin (its entry would give
  // the version), or one that could do so cannot be read; else the source does not name it as the reason.
  const registryNotReason =
    registryRead.empty &&
    ![...decided.values()].some((d) => d.on) &&
    !layerReads.some(({ read }) => read.refusal !== null && refused.includes(read.refusal));
  for (const [key, { on, scope }] of decided) {
    if (!on) continue;
    const entries = Array.isArray(registry?.[key]) ? (registry?.[key] as unknown[]).map(obj) : [];
    const here = (e: Obj | null) =>
      e !== null &&
      (e.scope === 'user' ||
        (typeof e.projectPath === 'string' && projectDir !== null && path.resolve(e.projectPath) === projectDir));
    const entry = entries.find((e) => here(e) && e?.scope === scope) ?? entries.find(here) ?? null;
    const installPath = typeof entry?.installPath === 'string' ? entry.installPath : null;
    const absent =
      installPath !== null &&
      path.isAbsolute(installPath) &&
      memoized(reads, `gone\0${installPath}`, () => nothingAtSync(installPath));
    if (absent) missingDirs.push(installPath);
    const version =
      (installPath && path.isAbsolute(installPath) ? versionAt(installPath, reads) : null) ??
      cleanVersion(entry?.version);
    // Where a Claude's own config directory decided, the file says which (omc-top's own reads as before).
    const where =
      scope === 'user' && config !== own ? shownPath(path.join(config, 'settings.json')) : `${scope} settings`;
    candidates.push({
      version,
      source: `plugin ${cleanLine(key)} (enabled in ${where})`,
      path: installPath ?? path.join(config, 'plugins', 'installed_plugins.json'),
      tag: 'plugin',
    });
  }

  // The marker OMC's setup writes into the CLAUDE.md it manages: the project's (local setup) first.
  for (const [dir, rel, where] of [
    ...(projectDir !== null
      ? ([
          [projectDir, '.claude/CLAUDE.md', "the project's .claude/CLAUDE.md"],
          [projectDir, 'CLAUDE.md', "the project's CLAUDE.md"],
        ] as const)
      : []),
    [config, 'CLAUDE.md', `${cleanLine(config)}/CLAUDE.md`],
  ] as const) {
    const version = markerVersion(dir, rel, refused, reads);
    if (version)
      candidates.push({
        version,
        source: `OMC:VERSION marker in ${where}`,
        path: path.join(dir, rel),
        tag: 'CLAUDE.md',
      });
  }

  // A global npm install (hooks copied into settings by `omc setup`): under npm's global prefix, found as npm
  // finds it (its environment, ~/.npmrc, the global npmrc, next to node: npm-prefix.ts), named in the source.
  const prefix = npmGlobalPrefix(env, process.execPath, (file) =>
    memoized(reads, `npmrc\0${file}`, () => readNpmrc(file)),
  );
  const globalDir = path.join(prefix.dir, 'lib', 'node_modules', NPM_NAME);
  const globalVersion = versionAt(globalDir, reads);
  if (globalVersion)
    candidates.push({
      version: globalVersion,
      source: `global npm install (prefix from ${prefix.from})`,
      path: globalDir,
      tag: 'npm',
    });

  if (opts.processes !== false && projectDir !== null) {
    // Running Claude processes of this project started with `--plugin-dir`: what each was started with is what its
    // own hooks run, and its session is judged by that (session-installs.ts), never the project's other sessions. A
    // session beside it runs the project's plugin; only where the project names no OMC at all (nothing enabled, no
    // marker, no npm install) is such a process's OMC the best guess left for a session without one of its own.
    // Those of the registry omc-top reads, and those found working here with another config directory.
    const probe = opts.probe ?? systemProbe();
    const live: Array<Pick<RegistryEntry, 'pid' | 'cwd' | 'procStart'>> = readRegistry(own).entries.filter(
      (e) => e.cwd !== null && inside(projectDir, e.cwd) && judgeProcess(e, probe).status !== 'gone',
    );
    for (const c of looked?.claudes ?? []) if (!live.some((e) => e.pid === c.pid)) live.push(c);
    for (const e of live) {
      const found = installForProcess(e, (d) => omcVersionAt(d, reads));
      if (found)
        candidates.push({
          version: found.version,
          source: found.source,
          // The plugin directory the process was started with (its own candidate), as doctor names it.
          path: found.candidates[0]?.path ?? '',
          tag: '--plugin-dir',
          process: found.process,
        });
    }
  }

  const listed = candidates.map(({ version, source, path: p }) => ({ version, source, path: p }));
  const override = opts.override === undefined ? null : cleanVersion(opts.override);
  if (override !== null) return installOf(override, '--omc-version', '--omc-version', listed, refused);
  const found = candidates.find((c) => c.version !== null);
  if (found) {
    const install = {
      ...installOf(found.version, found.source, found.tag, listed, refused),
      ...(found.tag === 'plugin' && missingDirs.length > 0 ? { pluginDirMissing: missingDirs } : {}),
    };
    if (found.process) return { ...install, process: found.process };
    // Every enabled OMC plugin's hooks run, not only the first one named: the others judge beside it.
    const others = found.tag === 'plugin' ? candidates.filter((c) => c !== found && c.tag === 'plugin') : [];
    const alongside = others.flatMap((c) => (c.version === null ? [] : [installOf(c.version, c.source, c.tag, [])]));
    if (alongside.length === 0) return install;
    const also = alongside.map(pluginWords).join(', ');
    return { ...install, source: `${install.source}; also enabled: ${also} (both Stop hooks run)`, alongside };
  }
  // Not found because a file was refused is not the same as none there: the source names the file and why. A monitor
  // that found a version before the file turned so keeps it (omc-kept.ts), which this look cannot know: said, so that
  // a fresh --json or doctor disagreeing with a running monitor's screen says why.
  const reasons = refused.filter((r) => !(registryNotReason && r === registryRead.refusal));
  const source =
    reasons.length > 0
      ? `not found (${reasons.map(refusalWords).join('; ')}; ${KEPT_BY_MONITOR_WORDS}): assuming the newest rules`
      : 'not found: assuming the newest rules';
  return installOf(null, source, 'assumed', listed, refused, true);
}

/**
 * The install that judges a session of a project with several OMC plugins enabled (`base.alongside`) where `other`'s
 * Stop hook blocks and `base`'s would not: the source says which blocks and that the other runs too.
 */
export function blockingInstall(other: OmcInstall, base: OmcInstall): OmcInstall {
  return {
    ...other,
    source:
      `${other.source}, whose Stop hook blocks here (OMC ${base.version ?? '?'}'s, enabled too, would let it stop; ` +
      'Claude Code runs both and a block wins)',
    alongside: [base, ...(base.alongside ?? []).filter((a) => a !== other)],
  };
}

/** What a running monitor says once when another OMC judges now: "OMC 5.5.0 now (was 4.4.4): verdicts re-judged". */
export function omcChangeWords(next: OmcInstall, was: OmcInstall): string | null {
  const v = (i: OmcInstall) => (i.assumed || i.version === null ? `? (${i.rules} rules assumed)` : i.version);
  if (v(next) === v(was)) return null;
  const newer = next.assumed ? null : newerThanKnownWords(next.version);
  return `OMC ${v(next)} now (was ${v(was)}): verdicts re-judged${newer ? `; ${newer}` : ''}`;
}
