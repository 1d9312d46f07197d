/**
 * Which `.omc` the hooks of a Claude process read: OMC's hooks pass their raw cwd to its root resolution (research
 * omc-contract.md §1.1, the 5.5 addendum: "a git subdirectory still gets <subdir>/.omc"), so a process started in
 * another project, or in a subdirectory of this one, keeps its loops somewhere else. The Claude join asks this
 * before it lets a process carry this root's loop (store/claude/domain.ts).
 *
 * The rules are resolveOmcRoot's (OMC_STATE_DIR, workspace marker, git, the non-git fallbacks, by the release's
 * flavor), with the one difference of the hooks: the directory is used as it is, not lifted to its git top level,
 * unless it is inside a submodule (then the outermost superproject, as resolveOmcRoot climbs too).
 */
import path from 'node:path';
import { gitOnePass, realGit, type GitProbe } from '../io/git.js';
import { homeDir } from '../io/home-dir.js';
import { realpathText } from '../io/safe-fs/byte-paths.js';
import type { RootFlavor } from './omc-books.js';
import { resolveOmcRoot } from './root.js';

export interface HookRootContext {
  env?: NodeJS.ProcessEnv;
  home?: string;
  git?: GitProbe;
  /** How the OMC that runs the hooks finds its root (null: not known, the newest rules). */
  flavor?: RootFlavor | null;
}

/** The `.omc` a hook whose cwd is `cwd` reads; null when no rule can place it (a path that names nothing). */
export function hookRootOf(cwd: string, ctx: HookRootContext = {}): string | null {
  const env = ctx.env ?? process.env;
  const git = gitOnePass(ctx.git ?? realGit);
  const flavor = ctx.flavor ?? null;
  // Up to 4.14 every hook uses `<cwd>/.omc` as it runs.
  if (flavor === 'cwd') return path.join(cwd, '.omc');
  const res = resolveOmcRoot({ cwd, env, home: ctx.home ?? homeDir(env), git, flavor });
  if (res.rule === 'unusable-path') return null;
  // resolveOmcRoot anchors at the top level (or the superproject); the hook keeps its own directory unless it
  // climbed out of a submodule, i.e. unless the anchor is not the directory's own top level.
  if (res.rule === 'git' && git.topLevel(cwd) === res.projectDir) return path.join(cwd, '.omc');
  return res.root;
}

/** Rules under which a hook outside the project directory cannot read its root (only OMC_STATE_DIR could). */
const ROOT_IN_PROJECT = new Set(['git', 'cwd-4x', 'non-git-ancestor', 'marker']);

export interface HooksReadRootOptions extends HookRootContext {
  /** The .omc root being watched. */
  root: string;
  /** The project it was resolved for (RootResolution.projectDir). */
  projectDir: string | null;
  /** How it was found (RootResolution.rule); anything else: no shortcut, every directory is resolved. */
  rule?: string;
}

/** More directories than this remembered: the memo starts over (a few processes run at once). */
const MEMO_MAX = 256;

const realOrSelf = (p: string): string => {
  try {
    return realpathText(p);
  } catch {
    return path.resolve(p);
  }
};

/**
 * A test of whether the hooks of a process working in a directory read `root`: true, false, or null when that cannot
 * be told (no directory). The project's own directory is the answer without asking anything; a directory outside the
 * project, for a root that lives in its project, is not (nothing is run); any other is resolved once and remembered
 * (git is asked there, as OMC's hooks ask it).
 */
export function hooksReadRoot(opts: HooksReadRootOptions): (cwd: string | null) => boolean | null {
  // By the registry's text: the same directory is asked about at every judgement of its process.
  const memo = new Map<string, boolean | null>();
  let rootReal: string | null = null;
  const project = opts.projectDir === null ? null : path.resolve(opts.projectDir);
  const inProject = (d: string) => project !== null && (d === project || d.startsWith(project + path.sep));
  return (cwd) => {
    if (cwd === null) return null;
    // Asked for every running process whenever the domain judges them: the common answers build nothing.
    if (opts.rule !== 'override' && cwd === project) return true;
    const known = memo.get(cwd);
    if (known !== undefined) return known;
    if (!path.isAbsolute(cwd)) return null;
    const d = path.resolve(cwd);
    const answer = decide(d);
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(cwd, answer);
    return answer;
  };

  function decide(d: string): boolean | null {
    if (opts.rule !== 'override' && d === project) return true;
    if (opts.rule !== undefined && ROOT_IN_PROJECT.has(opts.rule) && !inProject(d)) return false;
    const hook = hookRootOf(d, opts);
    rootReal ??= realOrSelf(opts.root);
    return hook === null ? null : hook === opts.root || realOrSelf(hook) === rootReal;
  }
}
