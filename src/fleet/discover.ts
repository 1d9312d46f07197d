/**
 * Which .omc roots this machine has, for `omc-top --all`: the root of every
 * live Claude Code session (its registry cwd through the same resolution a
 * plain `omc-top` in that directory would use), every project directory
 * under $OMC_STATE_DIR, and $HOME/.omc; and when the fleet starts (`history`),
 * the roots of the last 30 days' Claudes that have exited since (the registry
 * entries a killed CLI leaves behind), of the projects omc-top watched
 * (known-projects.ts) and of the projects Claude's recent transcripts name
 * (transcript-history.ts: a Claude that exited cleanly leaves no entry), so a fleet started after a project's Claude died still
 * shows its orphaned loop, as one started before does. Roots are deduplicated by identity
 * (device + inode), so a symlinked path or two sessions in one project are
 * one root. Each root is grouped under its repository: git's common dir, so
 * the worktrees of one repository sit together.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ClaudeConfigDir } from '../store/claude/config-dir.js';
import { judgeProcess, systemProbe, type LivenessProbe } from '../store/claude/process-status.js';
import { lastSignOfLife, readRegistry, type RegistryEntry, type RegistryRead } from '../store/claude/registry.js';
import { listDirSync } from '../io/safe-fs/index.js';
import { gitOnePass, realGit, type GitProbe } from '../io/git.js';
import { resolveOmcRoot, stateDirProjectName, type RootResolution } from '../store/root.js';
import { claudeRoots, type ClaudeRootsMemo } from './claude-root.js';
import { cleanLine } from '../io/sanitize.js';
import { shownName } from '../io/shown-path.js';
import { homeDir } from '../io/home-dir.js';
import { ownStateDir } from '../io/state-dir.js';
import { KNOWN_MAX, KNOWN_MAX_AGE_MS, KNOWN_PROJECTS_FILE, readKnownProjects } from './known-projects.js';
import { transcriptCwds } from './transcript-history.js';

/**
 * 'exited': the cwd of a Claude that has exited (its entry left behind); 'known': a project omc-top watched;
 * 'transcript': a project whose Claude's transcripts are recent (transcript-history.ts: one that exited cleanly).
 */
export type RootSource = 'claude' | 'state-dir' | 'home' | 'exited' | 'known' | 'transcript';

export interface FleetRoot {
  /** The root's identity: "<dev>:<ino>". */
  id: string;
  root: string;
  projectDir: string;
  rule: RootResolution['rule'];
  explain: string;
  sources: RootSource[];
  /** The repository this root belongs to (git's common dir), or the root itself outside git. */
  group: string;
  /** The repository's name, for the group header. */
  groupLabel: string;
  /** This root's own name inside its group (the worktree's directory name). */
  label: string;
  /** The directory it was first resolved from (a Claude's cwd), remembered by the fleet; absent for the others. */
  cwd?: string;
}

export interface Discovery {
  roots: FleetRoot[];
  /** Live Claude Code sessions on this machine (registry entries whose process is not gone). */
  liveClaude: RegistryEntry[];
  problems: string[];
}

export interface DiscoverOptions {
  env?: NodeJS.ProcessEnv;
  home?: string;
  config: ClaudeConfigDir;
  git?: GitProbe;
  probe?: LivenessProbe;
  /** The registry as last read (the fleet's shared reader); read here when absent. */
  registry?: RegistryRead;
  /**
   * Resolutions from earlier discoveries, by cwd: resolving runs git several times, and the fleet
   * re-reads the registry every few seconds; a cwd is resolved once (its root is then watched).
   */
  cache?: Map<string, RootResolution>;
  /** Each live Claude's OMC_STATE_DIR, read once per process (claude-root.ts); pruned to the live ones. */
  stateDirs?: ClaudeRootsMemo['stateDirs'];
  /**
   * Repository groups from earlier discoveries, by project dir: finding one runs git twice, and an idle fleet
   * re-reads the registry every few seconds (40 git processes every 3 s at 20 projects, the event loop blocked
   * meanwhile). Kept while the project's `.git` entry is the same file or directory.
   */
  groups?: Map<string, { mark: string; group: string; label: string }>;
  /**
   * A Claude session's directory to its root, as the OMC that runs that project's hooks places it (the fleet:
   * store/omc-root.ts resolveRootAndOmc, as a lone monitor in that directory finds it), with `env` the Claude's
   * own OMC_STATE_DIR in place of the fleet's (claude-root.ts); default: the newest rules.
   */
  resolve?: (cwd: string, env: NodeJS.ProcessEnv) => RootResolution;
  /**
   * Also the roots of Claudes that have exited (the registry's entries whose process is gone) and of the projects
   * omc-top watched, the last KNOWN_MAX_AGE_MS of either. The fleet asks once, when it starts: a root it opens stays
   * open, so later discoveries need only the live sessions (no stat per dead entry every few seconds).
   */
  history?: { now: number };
}

/** More roots than this are not opened (one store each); the rest get one problem line. */
export const MAX_ROOTS = 64;

function identity(dir: string): string | null {
  try {
    const st = fs.statSync(dir);
    return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
}

/**
 * Whether a root opened earlier (identity `id`) is still at its path: 'gone' when nothing is there now, or another
 * directory (removed and made again, a file in its place); 'unknown' when the path cannot be looked at (no
 * permission on a parent): that root stays, and its own store says what it cannot read.
 */
export function rootStillThere(root: string, id: string): 'here' | 'gone' | 'unknown' {
  try {
    const st = fs.statSync(root);
    return st.isDirectory() && `${st.dev}:${st.ino}` === id ? 'here' : 'gone';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'unknown';
  }
}

/** A live (or unverifiable, never guessed gone) registry entry. */
export function liveEntries(entries: readonly RegistryEntry[], probe: LivenessProbe): RegistryEntry[] {
  return entries.filter((e) => judgeProcess(e, probe).status !== 'gone');
}

/** Which `.git` a project dir has now (its identity, "none" without one): a new one means a new grouping. */
function gitMark(projectDir: string): string {
  try {
    const st = fs.statSync(path.join(projectDir, '.git'));
    return `${st.dev}:${st.ino}`;
  } catch {
    return 'none';
  }
}

function groupOf(
  projectDir: string,
  git: GitProbe,
  cache: DiscoverOptions['groups'],
): { group: string; label: string } {
  const mark = cache ? gitMark(projectDir) : '';
  const kept = cache?.get(projectDir);
  if (kept && kept.mark === mark) return kept;
  const g = findGroup(projectDir, git);
  cache?.set(projectDir, { mark, ...g });
  return g;
}

function findGroup(projectDir: string, git: GitProbe): { group: string; label: string } {
  const common = git.topLevel(projectDir) ? git.commonDir(projectDir) : null;
  if (common) {
    const repo = path.basename(common) === '.git' ? path.dirname(common) : common;
    return { group: common, label: shownName(repo) };
  }
  return { group: projectDir, label: shownName(projectDir) || projectDir };
}

export function discoverRoots(opts: DiscoverOptions): Discovery {
  const env = opts.env ?? process.env;
  const home = opts.home ?? homeDir(env);
  const git = gitOnePass(opts.git ?? realGit);
  const probe = opts.probe ?? systemProbe();
  const problems: string[] = [];
  const byId = new Map<string, FleetRoot>();
  const add = (res: RootResolution, source: RootSource, group?: { group: string; label: string }, cwd?: string) => {
    if (!res.exists) return;
    const id = identity(res.root);
    if (id === null) return;
    const known = byId.get(id);
    if (known) {
      if (!known.sources.includes(source)) known.sources.push(source);
      return;
    }
    if (byId.size >= MAX_ROOTS) {
      if (byId.size === MAX_ROOTS)
        problems.push(`more than ${MAX_ROOTS} .omc roots: only the first ${MAX_ROOTS} are shown`);
      return;
    }
    const g = group ?? groupOf(res.projectDir, git, opts.groups);
    byId.set(id, {
      id,
      root: res.root,
      projectDir: res.projectDir,
      rule: res.rule,
      explain: res.explain,
      sources: [source],
      group: g.group,
      groupLabel: cleanLine(g.label),
      label: cleanLine(shownName(res.projectDir) || res.projectDir),
      ...(cwd === undefined ? {} : { cwd }),
    });
  };

  const registry = opts.registry ?? readRegistry(opts.config.dir);
  for (const p of registry.problems) problems.push(`${opts.config.dir}/${p.rel}: ${p.message}`);
  const liveClaude = liveEntries(registry.entries, probe);
  // Each Claude's root as its own hooks find it: with its own OMC_STATE_DIR, not the fleet's (claude-root.ts).
  const claudes = claudeRoots(liveClaude, {
    env,
    home,
    git,
    resolve: opts.resolve,
    memo: { stateDirs: opts.stateDirs ?? new Map(), roots: opts.cache ?? new Map() },
  });
  problems.push(...claudes.problems);
  for (const { res, cwd } of claudes.roots) add(res, 'claude', undefined, cwd);

  const stateDir = env.OMC_STATE_DIR;
  if (stateDir && path.isAbsolute(stateDir)) {
    const list = listDirSync(stateDir, '.');
    if (list.ok) {
      for (const e of list.entries
        .filter((x) => x.kind === 'dir' && !x.invalidName)
        .sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const root = path.join(stateDir, e.name);
        add(
          {
            root,
            rule: 'state-dir',
            explain: `OMC_STATE_DIR/${e.name}`,
            exists: true,
            looked: [root],
            notices: [],
            projectDir: root,
          },
          'state-dir',
          { group: root, label: stateDirProjectName(e.name) },
        );
      }
    } else if (list.code !== 'missing') problems.push(`$OMC_STATE_DIR (${stateDir}): ${list.message}`);
  }

  const homeRoot = path.join(home, '.omc');
  add(
    {
      root: homeRoot,
      rule: 'non-git-home',
      explain: '$HOME/.omc',
      exists: identity(homeRoot) !== null,
      looked: [homeRoot],
      notices: [],
      projectDir: home,
    },
    'home',
    { group: homeRoot, label: '~/.omc' },
  );

  if (opts.history) {
    const live = new Set(liveClaude);
    const exited = registry.entries.filter((e) => !live.has(e));
    const stateDir = ownStateDir(env, home);
    const known = readKnownProjects(stateDir, opts.history.now);
    if (!known.ok) problems.push(`${path.join(stateDir, KNOWN_PROJECTS_FILE)}: ${known.problem}`);
    const transcripts = transcriptCwds(opts.config.dir, opts.history.now);
    if (transcripts.problem) problems.push(`${opts.config.dir}/${transcripts.problem}`);
    for (const h of historyCwds(exited, known.ok ? known.projects : [], opts.history.now, transcripts.cwds)) {
      if (identity(h.cwd) === null) continue; // the project was removed since
      // Resolved once, found or not: a Claude that has exited makes no .omc (a live one in the same cwd looks again).
      // With the fleet's own OMC_STATE_DIR: an exited Claude's environment is gone with it (the key as claude-root.ts's).
      const key = `${env.OMC_STATE_DIR ?? ''}\u0000${h.cwd}`;
      let res = opts.cache?.get(key);
      if (!res) {
        res = opts.resolve ? opts.resolve(h.cwd, env) : resolveOmcRoot({ cwd: h.cwd, env, home, git });
        opts.cache?.set(key, res);
      }
      add(res, h.source, undefined, h.cwd);
    }
  }
  return { roots: [...byId.values()], liveClaude, problems };
}

type HistorySource = 'exited' | 'known' | 'transcript';

/**
 * The directories of the fleet's history: the cwds of Claudes that have exited (dated by their entry's last sign of
 * life), the projects omc-top watched and those Claude's transcripts name (transcript-history.ts), of the last
 * KNOWN_MAX_AGE_MS, each once (its latest date), newest first, at
 * most KNOWN_MAX: the newest are the ones a user comes back to, and a fleet opens no more roots than that anyway.
 */
export function historyCwds(
  exited: readonly RegistryEntry[],
  known: ReadonlyArray<{ cwd: string; at: number }>,
  now: number,
  transcripts: ReadonlyArray<{ cwd: string; at: number }> = [],
): Array<{ cwd: string; at: number; source: HistorySource }> {
  const byCwd = new Map<string, { cwd: string; at: number; source: HistorySource }>();
  const put = (cwd: string, at: number, source: HistorySource) => {
    if (at < now - KNOWN_MAX_AGE_MS || !path.isAbsolute(cwd)) return;
    const had = byCwd.get(cwd);
    if (!had || had.at < at) byCwd.set(cwd, { cwd, at, source });
  };
  for (const e of exited) if (e.cwd !== null) put(e.cwd, lastSignOfLife(e), 'exited');
  for (const k of known) put(k.cwd, k.at, 'known');
  for (const t of transcripts) put(t.cwd, t.at, 'transcript');
  return [...byCwd.values()].sort((a, b) => b.at - a.at || (a.cwd < b.cwd ? -1 : 1)).slice(0, KNOWN_MAX);
}
