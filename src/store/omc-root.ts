/**
 * Which OMC runs this project's hooks and where its state is: the two questions depend on each
 * other (the enabled plugin is found from the project directory; where a release keeps `.omc`
 * depends on the release), so they are answered together: the install first, from the git
 * top level (or cwd), then the root by that release's rules, then the install again if the root
 * named another project directory.
 */
import path from 'node:path';
import { gitOnePass, realGit, type GitProbe } from '../io/git.js';
import { detectOmcInstall, type OmcInstall, type OmcReadMemo } from './omc-install.js';
import {
  configReadWords,
  envWithConfig,
  projectClaudeConfig,
  type ProjectClaudeConfig,
} from './claude/project-config.js';
import type { ClaudeHere } from './claude/claudes-here.js';
import { resolveOmcRoot, type RootResolution } from './root.js';
import { homeDir } from '../io/home-dir.js';
import { shownPath } from '../io/shown-path.js';
import { RULE_NAMES, upwardDirs, type RootCandidates } from '../io/watch/root-candidates.js';

/** No process looked at: omc-top's own config directory (claudesLater). */
const noScan = (): ClaudeHere[] => [];

/** "OMC 4.4.4 (plugin oh-my-claudecode@omc …)" for notices. */
export const omcWords = (o: OmcInstall): string => `OMC ${o.version ?? '?'} (${o.source})`;

export function resolveRootAndOmc(opts: {
  cwd: string;
  rootOverride?: string;
  /** --omc-version */
  override?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  git?: GitProbe;
  /** Look at the project's live Claude processes (their --plugin-dir) too; default true (detectOmcInstall). */
  processes?: boolean;
  /**
   * The full-screen app: which config directory the project's Claudes use is not looked for now (a scan of every
   * process, before the first frame) but by the running store after it (config-look.ts, `lookLater`): omc-top's own
   * directory is the first guess, its plugin judges and its registry's processes are looked at until then.
   */
  claudesLater?: boolean;
}): {
  res: RootResolution;
  omc: OmcInstall;
  /** The same finding of the install made again (for a running monitor: omc-recheck.ts); the root stays. */
  redetect: (reads?: OmcReadMemo, processes?: boolean) => OmcInstall;
  /**
   * The root looked for again, as `install`'s release places it (a running monitor whose OMC changed: 4.x and 5.5
   * put it in different places), from the same start, with git asked afresh. `from`: from that directory instead
   * (the process's own directory, renamed under it: kernel-cwd.ts); a root found there is this project's start from
   * then on (its later looks and the OMC's).
   */
  rootFor: (install: OmcInstall, from?: string) => RootResolution;
  /**
   * The environment the project's Claude side is read with: `env` with the CLAUDE_CONFIG_DIR of the live Claudes
   * working in the project when they use another config directory than `env` says (project-config.ts).
   */
  claudeEnv: NodeJS.ProcessEnv;
  /**
   * Git's answers this resolution got (the project's top level, its common dir): the monitor's first store takes
   * them for its Claude settings instead of running git again before the first frame (store.ts `git`).
   */
  gitAnswers: GitProbe;
} {
  const env = opts.env ?? process.env;
  // One answer per question: the install and the root both start from the top level of the working directory.
  const git = gitOnePass(opts.git ?? realGit);
  let cwd = path.resolve(opts.cwd);
  // `--root <project>/.omc` names its project (store/root.ts takes its parent): the working directory's repository
  // is not asked about (a git run before the first frame for an answer the override would replace).
  const named = opts.rootOverride ? path.resolve(cwd, opts.rootOverride) : null;
  const guess =
    (named !== null && path.basename(named) === '.omc' ? path.dirname(named) : null) ?? git.topLevel(cwd) ?? cwd;
  // The project's Claudes as they run now: the config directory whose plugin judges and whose registry joins.
  const claudeConfigOf = (dir: string): ProjectClaudeConfig | undefined =>
    opts.processes === false ? undefined : projectClaudeConfig(dir, env, opts.claudesLater ? noScan : undefined);
  let claudeConfig = claudeConfigOf(guess);
  const first = detectOmcInstall({
    env,
    projectDir: guess,
    override: opts.override,
    processes: opts.processes,
    claudeConfig,
  });
  const rootBy = (install: OmcInstall, probe: GitProbe, at = cwd) =>
    resolveOmcRoot({
      cwd: at,
      env,
      home: opts.home ?? homeDir(env),
      git: probe,
      rootOverride: opts.rootOverride,
      flavor: install.assumed ? null : install.book.rootFlavor,
      omcWords: omcWords(install),
      // The settings of the config directory the project's Claudes use: their `env` can set OMC_STATE_DIR.
      claudeSettings: { claudeEnv: claudeConfig ? envWithConfig(env, claudeConfig.config) : env },
      omcVersion: install.assumed ? null : install.version,
    });
  const res = rootBy(first, git);
  let projectDir = res.projectDir === guess ? guess : res.projectDir;
  // The files only: a live Claude process's --plugin-dir is read once per process by the claude domain, and a look
  // at every live process's command line on each tick would cost a monitor at rest per process (issue 30). Only
  // when the process whose --plugin-dir decided is gone are they looked at, once (omc-recheck.ts).
  // The config directory found at the start stays the one looked in (a Claude's environment cannot change); the
  // rare look at the processes again finds it again too.
  const redetect = (reads?: OmcReadMemo, processes = false) => {
    if (processes && projectDir !== null) claudeConfig = projectClaudeConfig(projectDir, env);
    return detectOmcInstall({ env, projectDir, override: opts.override, processes, reads, claudeConfig });
  };
  const rootFor = (install: OmcInstall, from?: string) => {
    const at = from === undefined ? cwd : path.resolve(from);
    const found = rootBy(install, opts.git ?? realGit, at);
    if (at !== cwd && found.exists) {
      cwd = at;
      projectDir = found.projectDir;
    }
    return found;
  };
  if (res.projectDir !== guess && res.projectDir !== null) claudeConfig = claudeConfigOf(res.projectDir);
  const omc =
    res.projectDir === guess
      ? first
      : detectOmcInstall({
          env,
          projectDir: res.projectDir,
          override: opts.override,
          processes: opts.processes,
          claudeConfig,
        });
  // Said where the roots' notices are (the monitor's notice line, --json's notices): the Claudes this monitor does
  // not read first (the monitor flashes the first notice), then which directory is read and why.
  for (const n of claudeConfig?.notes ?? []) res.notices.push(n);
  const read = claudeConfig ? configReadWords(claudeConfig) : null;
  if (read) res.notices.push(read);
  return {
    res,
    omc,
    redetect,
    rootFor,
    claudeEnv: claudeConfig ? envWithConfig(env, claudeConfig.config) : env,
    gitAnswers: git,
  };
}

/**
 * Why a running monitor looks for its root again: another OMC runs the hooks (`omc`, omc-recheck.ts), or the
 * OMC_STATE_DIR of Claude's settings changed (`state-dir-setting`: Claude Code applies an `env` it finds added or
 * changed in a settings file to its running hooks at once, so OMC writes there from the next hook on).
 */
export type RootLookCause = 'omc' | 'state-dir-setting';

/**
 * The monitor's words when the state is read elsewhere now: "state read from ~/p/.omc now (was ~/q/.omc)", after
 * a settings change led with what changed ("OMC_STATE_DIR set in the project's .claude/settings.json: state read …").
 */
export function rootMovedWords(next: RootResolution, wasRoot: string, cause: RootLookCause = 'omc'): string {
  const waiting = next.exists ? '' : ': not there yet, waiting for it';
  const moved = `state read from ${shownPath(next.root)} now (was ${shownPath(wasRoot)})${waiting}`;
  if (cause === 'omc') return moved;
  if (next.stateDirFrom) return `OMC_STATE_DIR set in ${next.stateDirFrom}: ${moved}`;
  // Taken out of the settings: read where a Claude started now keeps it. A Claude that was running keeps the value
  // it was given until it restarts (Claude Code 2.1.332 does not take a removed `env` key back from its hooks), so
  // the hooks of such a Claude still write under the old root: said, since omc-top cannot see that from outside.
  return (
    `OMC_STATE_DIR no longer set in Claude's settings: ${moved}; ` +
    `a Claude started before the change keeps writing under ${shownPath(wasRoot)} until it restarts`
  );
}

/**
 * Where a project's state is once another OMC runs its hooks (`next`), as that release places it (4.x and 5.5 place
 * `.omc` differently: OMC_STATE_DIR, markers, submodules, outside git), or once Claude's settings give its hooks
 * another OMC_STATE_DIR (`cause`): the one rule every surface watching one project follows (the monitor,
 * `watch --json`, `serve`). `res` is the root found again (its `explain` is the new one's), `moved` the words when
 * it is another directory than `wasRoot` (rootMovedWords), else null.
 */
export function followRoot(
  rootFor: (install: OmcInstall) => RootResolution,
  next: OmcInstall,
  wasRoot: string,
  cause: RootLookCause = 'omc',
): { res: RootResolution; moved: string | null } {
  const res = rootFor(next);
  return { res, moved: res.root === wasRoot ? null : rootMovedWords(res, wasRoot, cause) };
}

/**
 * Everything the start's rule looks at, for a monitor waiting for a root that is not there yet (`res`, found from
 * `cwd`): each directory from `cwd` up (a `.omc`, a `.git` or a workspace marker made there changes the answer),
 * $HOME's `.omc` and its `state/`, the path waited on and every other one the rule looked at, and the state
 * directory's base when OMC_STATE_DIR decided. Watched: the directories where OMC's hooks or `git init` would make
 * one (the start directory, the project's, home, the waited path's parent).
 */
export function rootCandidates(res: RootResolution, cwd: string, home: string): RootCandidates {
  const paths: string[] = [];
  for (const dir of upwardDirs(cwd)) for (const name of RULE_NAMES) paths.push(path.join(dir, name));
  const homeRoot = path.join(home, '.omc');
  paths.push(homeRoot, path.join(homeRoot, 'state'), res.root, path.dirname(res.root), ...res.looked);
  const watchDirs = [cwd, res.projectDir, home, path.dirname(res.root)];
  return { paths: [...new Set(paths)], watchDirs };
}
