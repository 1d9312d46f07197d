/**
 * Finds the .omc root the way OMC does (getOmcRoot in OMC's
 * src/lib/worktree-paths.ts, 4.15.10 and 5.5.0): OMC_STATE_DIR/<project id> > .omc-workspace marker >
 * git top-level (submodules climb to the outermost superproject) > fallback.
 * The rules changed between releases (omc-books.ts `rootFlavor`): when the OMC
 * version is known its own rules apply, with a notice wherever the user's setting
 * is one that version ignores (OMC_STATE_DIR before 4.15, a marker…). Unknown:
 * the newest rules, and where 4.x and 5.x disagree, an existing 4.x location is
 * used and said so, so trees from every release open.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { isDirectorySync, listDirSync, readTextSync } from '../io/safe-fs/index.js';
import { cleanLine } from '../io/sanitize.js';
import { shownPath } from '../io/shown-path.js';
import { realGit, type GitProbe } from '../io/git.js';
import { notUtf8Message, usablePath } from '../io/not-utf8-path.js';
import { lossyText, parentPath } from '../io/safe-fs/byte-paths.js';
import { findAncestorOmcDir, findGitTopByWalk, gitBinaryMissing } from './omc56/root-56.js';
import type { RootFlavor } from './omc-books.js';
import { isObj } from '../io/json.js';
import { homeDir } from '../io/home-dir.js';
import { SYMLINK_LOOP } from '../io/watch/root-presence.js';
import { stateDirOfHooks } from './state-dir-setting.js';

export type RootRule =
  | 'override'
  | 'state-dir'
  | 'marker'
  | 'git'
  | 'non-git-ancestor'
  | 'non-git-home'
  | 'cwd-4x'
  /** The start path (current directory, --cwd, --root) is not valid UTF-8: nothing can be opened through it. */
  | 'unusable-path';

export interface RootResolution {
  /** Absolute path of the .omc root (it may not exist; see `exists`). */
  root: string;
  rule: RootRule;
  /** One line for the header: how the root was found. */
  explain: string;
  exists: boolean;
  /** Every location considered, in order, for the "no .omc found" message. */
  looked: string[];
  /** Things the user should know (ignored marker, a second .omc elsewhere, 4.x fallback). */
  notices: string[];
  /**
   * The `.omc` directories a notice already names (the one of the subdirectory omc-top started in): the notice of
   * the search for nested roots (sessions/nested-roots.ts) leaves them out, so the same fact is said once.
   */
  noticed?: string[];
  projectId?: string;
  /** A root given with --root that holds none of OMC's files: why it may show nothing (noOmcStateWords). */
  noOmcState?: string;
  /** The Claude settings file whose `env` set the OMC_STATE_DIR used, in words; absent: an environment's. */
  stateDirFrom?: string;
  /**
   * The project directory OMC would anchor on (git top-level or cwd). OMC 4.x
   * kept team runtime state under <projectDir>/.omc even with OMC_STATE_DIR set.
   */
  projectDir: string;
}

/** OMC_STATE_DIR keeps one directory per project id, `<name>-<16 hex>` (or "non-git"): the name is its first part. */
export const stateDirProjectName = (name: string): string => name.replace(/-[0-9a-f]{16}$/, '');

/**
 * The project's name on every surface (header, title, `status {project}`, `watch --json`, `serve`, push), by
 * `nameOf` (shownName to show it, shownBasename for a raw JSON field): the directory a `.omc` sits in, or for a
 * root given with --root that is not a `.omc` (a state directory's), that root's own name as the fleet shows it.
 * Never the directory omc-top happened to start in: it is not that root's project.
 */
export function projectNameOf(
  res: Pick<RootResolution, 'root' | 'rule' | 'projectDir'>,
  nameOf: (p: string) => string,
): string {
  if (res.rule === 'override' && path.basename(res.root) !== '.omc') return stateDirProjectName(nameOf(res.root));
  return nameOf(res.projectDir ?? path.dirname(res.root));
}

export interface ResolveOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  tmpdir?: string;
  git?: GitProbe;
  /** --root: use this .omc directory as is. */
  rootOverride?: string;
  /** How the OMC that runs the hooks finds its root (null/absent: not known, the newest rules). */
  flavor?: RootFlavor | null;
  /** That OMC in words, for notices: "OMC 4.4.4 (plugin oh-my-claudecode@omc …)". */
  omcWords?: string;
  /**
   * The environment that names Claude's config directory, whose settings' `env` can set OMC_STATE_DIR
   * (state-dir-setting.ts); default `env`. False: those settings are not read (`env` alone decides).
   */
  claudeSettings?: { claudeEnv?: NodeJS.ProcessEnv; managedDir?: string } | false;
  /**
   * That OMC's version, for the rule's words ("git top-level (OMC 4.4.4)"): the release that decided where to look,
   * named, since sessions of another release may run there too (the header's "OMC 4.4.4/5.5.0 (per session)").
   */
  omcVersion?: string | null;
}

export const WORKSPACE_MARKER = '.omc-workspace';

const sha16 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 16);

/** OMC replaces every UTF-16 code unit outside [a-zA-Z0-9_-] with "_" (so non-BMP chars become "__"). */
export function sanitizeIdPart(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    out += /[a-zA-Z0-9_-]/.test(c) ? c : '_';
  }
  return out;
}

/** Names OMC writes at the top of its tree (hooks, notepad, project memory, wiki, logs, plans, skills, runs…). */
const OMC_TOP_NAMES = new Set([
  'state',
  'sessions',
  'notepad.md',
  'notepads',
  'project-memory.json',
  'wiki',
  'logs',
  'plans',
  'skills',
  'specs',
  'research',
  'drafts',
  'graph-runs',
  'ultragoal',
  'autopilot',
  'prd.json',
  'boulder.json',
  'config.json',
  'update-check.json',
  'hud-config.json',
]);
/** Whether a directory holds anything OMC writes there (an empty one: a fresh .omc, said as nothing yet). */
function holdsOmcNames(dir: string): boolean {
  const list = listDirSync(dir, '');
  return !list.ok || list.entries.length === 0 || list.entries.some((e) => OMC_TOP_NAMES.has(e.name));
}

const exists = (p: string) => fs.existsSync(p);

/**
 * The words for a root given with --root that is a directory holding none of OMC's files (empty, or someone else's
 * directory): not refused, since a fresh root OMC will fill is legitimate, but said, so "no loops" is not read as
 * "OMC is idle here". Null for a directory holding any of them, or none at all (that is said as missing).
 */
export function noOmcStateWords(root: string): string | null {
  if (!isDirectorySync(root)) return null;
  const list = listDirSync(root, '');
  if (!list.ok || list.entries.some((e) => OMC_TOP_NAMES.has(e.name))) return null;
  return `${shownPath(root)} holds no OMC state (no state/, notepad.md, project-memory.json, wiki/…): no loop shows here until OMC's hooks write there`;
}

/**
 * Why `p` cannot be the .omc root, in a few words for the "looked in" lines and doctor: it is missing, or something
 * other than a directory is there (`--root` given a file's path should say so, not "not found").
 */
export function rootPathFault(p: string): string {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'does not exist';
    if (code === 'ENOTDIR') return 'does not exist (a parent of it is a file)';
    if (code === 'ELOOP') return SYMLINK_LOOP;
    return `cannot be read (${code ?? 'error'})`;
  }
  if (st.isDirectory()) return 'is a directory';
  return st.isFile() ? 'is a file, not a directory' : 'is not a directory';
}

/** Walks up from `start` for a .omc-workspace file; stops before $HOME (not checking it) or at "/". */
export function findWorkspaceMarker(start: string, home: string, env: NodeJS.ProcessEnv): string | null {
  if (env.OMC_DISABLE_MULTIREPO === '1') return null;
  let cur = path.resolve(start);
  const homeAbs = path.resolve(home);
  for (;;) {
    if (cur === homeAbs) return null;
    if (exists(path.join(cur, WORKSPACE_MARKER))) return cur;
    const parent = parentPath(cur);
    if (parent === cur) return null;
    cur = parent;
  }
}

/** A marker holds `{"id": …}`; anything past this is not one. */
const MARKER_MAX_BYTES = 64 * 1024;

function readMarkerId(anchor: string): string | null {
  // The one safe read, with the anchor as its root: a FIFO or device as the marker cannot hang
  // start-up, a link to /dev/zero cannot bloat it, a link out of the anchor is not followed.
  const r = readTextSync(anchor, WORKSPACE_MARKER, MARKER_MAX_BYTES);
  if (!r.ok) return null;
  const text = r.text;
  try {
    if (text.trim() === '') return null;
    const v = JSON.parse(text) as unknown;
    if (isObj(v)) {
      const id = v.id;
      if (typeof id === 'string' && id.trim() !== '') return id.trim();
    }
  } catch {
    /* unparseable marker = {} */
  }
  return null;
}

const SENSITIVE_NAMES = new Set(
  '.ssh .gnupg .aws .azure .gcloud .kube ssh .pki .config .claude .claude.json .codex .gemini .cursor .vscode .ollama .docker .npm .cache .local desktop documents downloads pictures photos music movies videos public library'.split(
    ' ',
  ),
);

/** 5.5.0 ignores workspace markers at "sensitive" places (addendum §1.1). */
export function isSensitiveLocation(anchor: string, home: string, tmpdir: string): boolean {
  // OMC judges the text Node gives it: for a held directory (a name not UTF-8), that lossy text.
  const abs = path.resolve(lossyText(anchor));
  if (abs === path.resolve(home)) return true;
  if (abs === '/' || abs === '/tmp' || abs === '/private/tmp') return true;
  for (const part of abs.split(path.sep).filter(Boolean)) {
    if (part.startsWith('.') && part !== '.omc') return true;
    if (SENSITIVE_NAMES.has(part.toLowerCase())) return true;
  }
  const inside = (base: string) => {
    const rel = path.relative(path.resolve(base), abs);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  return [tmpdir, '/var', '/usr', '/etc', '/opt', '/private/var'].some(inside);
}

/** Outermost superproject working tree, or the git top-level, or null outside git. */
function gitAnchor(dir: string, git: GitProbe): string | null {
  let cur = git.topLevel(dir);
  if (!cur) return null;
  for (let i = 0; i < 32; i++) {
    const sup = git.superproject(cur);
    if (!sup) break;
    cur = sup;
  }
  return cur;
}

/** OMC 5.5.0's getProjectIdentifier for the centralised OMC_STATE_DIR layout. */
export function projectIdentifier(
  root: string,
  home: string,
  env: NodeJS.ProcessEnv,
  git: GitProbe,
  flavor: '5.5' | '4.x',
): string {
  const marker = findWorkspaceMarker(root, home, env);
  if (marker) {
    const id = readMarkerId(marker);
    if (id) {
      const safe = sanitizeIdPart(id);
      return `${safe}-${sha16(safe)}`;
    }
    // OMC hashes the text Node gives it: a held directory's lossy text.
    return `${sanitizeIdPart(path.basename(lossyText(marker)))}-${sha16(lossyText(marker))}`;
  }
  const top = git.topLevel(root);
  if (!top && flavor === '5.5') return 'non-git';
  let primary = root;
  const common = top ? git.commonDir(root) : null;
  if (common && path.basename(common) === '.git' && !common.includes(`${path.sep}.git${path.sep}modules`)) {
    primary = path.dirname(common);
  }
  const source = git.remoteOrigin(root) ?? lossyText(flavor === '5.5' ? primary : root);
  return `${sanitizeIdPart(path.basename(lossyText(primary)))}-${sha16(source)}`;
}

export function resolveOmcRoot(opts: ResolveOptions): RootResolution {
  const env = opts.env ?? process.env;
  const home = opts.home ?? homeDir(env);
  const tmpdir = opts.tmpdir ?? os.tmpdir();
  const git = opts.git ?? realGit;
  const looked: string[] = [];
  const notices: string[] = [];

  // Before anything is run or opened there: a path Node decoded lossily names no file (git would fail with
  // ENOENT). Its bytes are recovered and the directory held open by them (io/not-utf8-path.ts); the text paths
  // from here on are /proc/self/fd/N/…, shown with the bad bytes as \xNN by the one sanitiser.
  const lossyCwd = path.resolve(opts.cwd);
  const usableCwd = usablePath(lossyCwd);
  const lossyStart = opts.rootOverride ? path.resolve(lossyCwd, opts.rootOverride) : lossyCwd;
  const usableStart = opts.rootOverride ? usablePath(lossyStart) : usableCwd;
  if (!usableCwd.ok || !usableStart.ok) {
    const bad = !usableStart.ok ? usableStart : (usableCwd as { ok: false; shown: string });
    const what = !usableStart.ok && opts.rootOverride ? 'the --root path' : 'the directory';
    const explain = notUtf8Message(what, cleanLine(bad.shown));
    return {
      root: lossyStart,
      rule: 'unusable-path',
      explain,
      exists: false,
      // A path, as every entry of `looked` is (shown with shownPath where it is shown): the explanation names it in \xNN.
      looked: [lossyStart],
      notices,
      projectDir: lossyCwd,
    };
  }
  const cwd = usableCwd.path;
  // A starting directory that is not one (a --cwd mistyped, a file's path) is said as itself: every rule below would
  // only fail in it (git cannot run there) and name $HOME/.omc as if that were the question.
  if (!opts.rootOverride && !isDirectorySync(cwd)) {
    return {
      root: path.join(cwd, '.omc'),
      rule: 'unusable-path',
      explain: `${shownPath(cwd)} ${rootPathFault(cwd)}: no directory to look for .omc from`,
      exists: false,
      looked: [path.join(cwd, '.omc')],
      notices,
      projectDir: cwd,
    };
  }
  if (cwd !== lossyCwd || usableStart.path !== lossyStart)
    notices.push(
      `the path is not valid UTF-8 (shown with its bytes as \\xNN): Claude Code does not start in such a directory (2.1.332 says "Can't access working directory"), so no Claude process or transcript is shown for it`,
    );

  if (opts.rootOverride) {
    let root = usableStart.path;
    // `--root proj` where `proj/.omc` is OMC's tree (the project given for its `.omc`, the commonest slip): read
    // as `proj/.omc`, said once, never as an empty root that says "no loops" in a status line for days.
    const inner = path.join(root, '.omc');
    if (path.basename(root) !== '.omc' && isDirectorySync(inner) && !isDirectorySync(path.join(root, 'state'))) {
      notices.push(
        `--root ${shownPath(root)} is the project: reading its ${shownPath(inner)}, where OMC keeps its state`,
      );
      root = inner;
    } else if (path.basename(root) !== '.omc' && exists(inner) && isDirectorySync(root) && !holdsOmcNames(root)) {
      // `proj/.omc` is there but is no directory (a file, a device): that is the tree the user meant, and its fault
      // is what to say (noRootMessage), not an empty root's "no loops".
      root = inner;
    }
    // A directory with none of OMC's files (someone else's, or empty) is said once, by noOmcState: doctor's warning,
    // status's note, the monitor's and --json's problem line (store/root-state.ts), not also as a notice.
    const noOmcState = noOmcStateWords(root);
    return {
      ...(noOmcState ? { noOmcState } : {}),
      root,
      rule: 'override',
      explain: '--root',
      exists: isDirectorySync(root),
      looked: [root],
      notices,
      // `<dir>/.omc` is the tree OMC's hooks keep for a session started in `<dir>`: that is the project its
      // `project_path` names, wherever omc-top runs. Another root (a state directory's) names no project.
      projectDir: path.basename(root) === '.omc' ? path.dirname(root) : (git.topLevel(cwd) ?? cwd),
    };
  }

  const flavor = opts.flavor ?? null;
  const who = opts.omcWords ?? 'this OMC';
  // OMC_STATE_DIR as the hooks get it: a Claude settings file's `env` beats the environment given.
  const hooks =
    opts.claudeSettings === false
      ? { value: env.OMC_STATE_DIR, from: null }
      : stateDirOfHooks({ env, projectDir: git.topLevel(cwd) ?? cwd, git, ...opts.claudeSettings });
  if (flavor === 'cwd')
    return resolveCwdFlavor(
      cwd,
      hooks.value,
      env,
      home,
      git,
      who,
      opts.omcVersion ? `OMC ${opts.omcVersion}` : 'OMC 4.x',
      looked,
      notices,
    );

  const stateDir = hooks.value;
  if (stateDir) {
    // OMC joins the value to the project id as it is (getOmcRoot: `join(customDir, projectId)`, 4.15 to 5.6), so a
    // relative value is taken from the hook's working directory (Claude's, where omc-top is run too) and a `~` is
    // a directory named "~": Claude Code does not expand it in a settings file's `env` (2.1.332 gives the hook
    // "~/omc-state" as written), nor does OMC.
    const base = path.resolve(cwd, stateDir);
    if (stateDir === '~' || stateDir.startsWith('~/'))
      notices.push(
        `OMC_STATE_DIR=${cleanLine(stateDir)}${hooks.from ? ` (from ${hooks.from})` : ''}: neither Claude Code nor OMC expands "~", so OMC's hooks keep state under ${shownPath(base)}; write the full path to use your home directory`,
      );
    const by = hooks.from ? ` (set in ${hooks.from})` : '';
    const from = hooks.from ? { stateDirFrom: hooks.from } : {};
    const projectRoot = git.topLevel(cwd) ?? cwd;
    const id55 = projectIdentifier(projectRoot, home, env, git, '5.5');
    const root55 = path.join(base, id55);
    looked.push(root55);
    const local = path.join(gitAnchor(cwd, git) ?? cwd, '.omc');
    if (isDirectorySync(root55)) {
      if (isDirectorySync(local))
        notices.push(`a project-local ${shownPath(local)} also exists; OMC uses the OMC_STATE_DIR location`);
      return {
        root: root55,
        rule: 'state-dir',
        explain: `OMC_STATE_DIR/${id55}${by}`,
        exists: true,
        looked,
        notices,
        projectId: id55,
        projectDir: projectRoot,
        ...from,
      };
    }
    const id4 = projectIdentifier(projectRoot, home, env, git, '4.x');
    if (id4 !== id55) {
      const root4 = path.join(base, id4);
      looked.push(root4);
      if (isDirectorySync(root4)) {
        notices.push(`using the OMC 4.x project id ${id4}; OMC 5.5.0 would use ${id55}`);
        return {
          root: root4,
          rule: 'state-dir',
          explain: `OMC_STATE_DIR/${id4} (4.x id)${by}`,
          exists: true,
          looked,
          notices,
          projectId: id4,
          projectDir: projectRoot,
          ...from,
        };
      }
    }
    return {
      root: root55,
      rule: 'state-dir',
      explain: `OMC_STATE_DIR/${id55}${by}`,
      exists: false,
      looked,
      notices,
      projectId: id55,
      projectDir: projectRoot,
      ...from,
    };
  }

  const marker = findWorkspaceMarker(cwd, home, env);
  if (marker) {
    const root = path.join(marker, '.omc');
    // 4.15 had no sensitivity veto; 5.5 added it.
    if (flavor === '4.15' || !isSensitiveLocation(marker, home, tmpdir)) {
      looked.push(root);
      return {
        root,
        rule: 'marker',
        explain: `${WORKSPACE_MARKER} at ${shownPath(marker)}`,
        exists: isDirectorySync(root),
        looked,
        notices,
        projectDir: marker,
      };
    }
    notices.push(
      `ignored ${WORKSPACE_MARKER} at ${shownPath(marker)}: OMC 5.5.0 ignores markers under temp, home and dot-directories`,
    );
  }

  // OMC 5.6 finds the top level by its .git entry when the git binary is missing; 5.5 cannot (it falls
  // to $HOME/.omc below), 4.15 keeps the hook's cwd as it is.
  const fromGit = gitAnchor(cwd, git);
  // Whether git can be found is a fact of the PATH git is run with: the given env's when it has one.
  const noGitBinary = !fromGit && gitBinaryMissing(env.PATH === undefined ? process.env : env);
  const byWalk = noGitBinary ? findGitTopByWalk(cwd) : null;
  if (byWalk && flavor === '5.5') {
    const homeRoot = path.join(home, '.omc');
    looked.push(homeRoot);
    notices.push(
      `git is not on PATH: ${who} then keeps this project's state in ${shownPath(homeRoot)} (OMC 5.6 would use ${shownPath(path.join(byWalk, '.omc'))})`,
    );
    return {
      root: homeRoot,
      rule: 'non-git-home',
      explain: `git not on PATH: $HOME/.omc (OMC 5.5)`,
      exists: isDirectorySync(homeRoot),
      looked,
      notices,
      projectDir: byWalk,
    };
  }
  if (byWalk && flavor === '4.15') {
    const root = path.join(cwd, '.omc');
    looked.push(root);
    return {
      root,
      rule: 'git',
      explain: 'git is not on PATH: the hooks keep their cwd (OMC 4.15)',
      exists: isDirectorySync(root),
      looked,
      notices,
      projectDir: cwd,
    };
  }
  if (byWalk && flavor === null)
    notices.push(
      `git is not on PATH: OMC 5.6 keeps state in ${shownPath(path.join(byWalk, '.omc'))} (shown), OMC 5.0–5.5 in ${shownPath(path.join(home, '.omc'))}; the OMC version was not found (use --omc-version or --root)`,
    );
  const walked = byWalk;
  const anchor = fromGit ?? walked;
  if (anchor) {
    const root = path.join(anchor, '.omc');
    looked.push(root);
    const sub = path.join(cwd, '.omc');
    const noticed: string[] = [];
    if (cwd !== anchor && isDirectorySync(sub)) {
      notices.push(
        `${shownPath(sub)} also exists: OMC hooks started in this subdirectory keep state there (use --root to view it)`,
      );
      noticed.push(sub);
    }
    const explain = walked ? 'git is not on PATH: top level found by its .git entry (OMC 5.6)' : 'git top-level';
    return { root, rule: 'git', explain, exists: isDirectorySync(root), looked, notices, noticed, projectDir: anchor };
  }

  // Not in git. 5.5.0 maps this to $HOME/.omc; 4.x used <cwd>/.omc. When git could not run at all
  // (rather than answering "not a repository"), say so: OMC falls back the same way, but the user
  // is likely in a repository and should know why its .omc was not used.
  const gitFailed = git.failure?.(cwd) ?? null;
  if (gitFailed)
    notices.push(
      `git could not answer in ${shownPath(cwd)}: ${gitFailed}. The root came from a no-git rule instead (use --root to choose)`,
    );
  // 4.15 keeps the hook's cwd outside git.
  if (flavor === '4.15') {
    const root = path.join(cwd, '.omc');
    looked.push(root);
    return {
      root,
      rule: 'cwd-4x',
      explain: 'not a git repo: ./.omc (OMC 4.15)',
      exists: isDirectorySync(root),
      looked,
      notices,
      projectDir: cwd,
    };
  }
  // OMC 5.6 adopts the nearest non-sensitive ancestor with a .omc/ directory before $HOME/.omc (5.5 does not).
  const ancestor = flavor === '5.5' ? null : findAncestorOmcDir(cwd, home, (d) => isSensitiveLocation(d, home, tmpdir));
  if (ancestor) {
    const root = path.join(ancestor, '.omc');
    looked.push(root);
    return {
      root,
      rule: 'non-git-ancestor',
      explain: `not a git repo: nearest .omc/ at ${shownPath(ancestor)} (OMC 5.6)`,
      exists: true,
      looked,
      notices,
      projectDir: ancestor,
    };
  }
  // Why git gave no answer, in its own words ("git did not answer within 5 s"), not only that it failed.
  const noGit = gitFailed ?? 'not a git repo';
  const homeRoot = path.join(home, '.omc');
  const cwdRoot = path.join(cwd, '.omc');
  looked.push(homeRoot);
  if (isDirectorySync(homeRoot) && exists(path.join(homeRoot, 'state'))) {
    if (cwdRoot !== homeRoot && isDirectorySync(cwdRoot)) {
      notices.push(
        `${shownPath(cwdRoot)} (OMC 4.x layout) also exists; showing ${shownPath(homeRoot)} as OMC 5.5.0 does (use --root to view the other)`,
      );
    }
    return {
      root: homeRoot,
      rule: 'non-git-home',
      explain: `${noGit}: $HOME/.omc (OMC 5.5.0)`,
      exists: true,
      looked,
      notices,
      projectDir: cwd,
    };
  }
  looked.push(cwdRoot);
  if (isDirectorySync(cwdRoot) && flavor === null) {
    notices.push(
      `${noGit}: using ${shownPath(cwdRoot)} as OMC 4.x did (OMC 5.5.0 keeps non-git state in ${shownPath(homeRoot)})`,
    );
    return {
      root: cwdRoot,
      rule: 'cwd-4x',
      explain: `${noGit}: ./.omc (OMC 4.x)`,
      exists: true,
      looked,
      notices,
      projectDir: cwd,
    };
  }
  return {
    root: homeRoot,
    rule: 'non-git-home',
    explain: `${noGit}: $HOME/.omc (OMC 5.5.0)`,
    exists: isDirectorySync(homeRoot),
    looked,
    notices,
    projectDir: cwd,
  };
}

/**
 * OMC up to 4.14: every hook uses `<cwd>/.omc` as it runs (no OMC_STATE_DIR, no marker, no climb out
 * of a submodule, no $HOME/.omc). omc-top runs at the project top, where Claude Code is started.
 */
function resolveCwdFlavor(
  cwd: string,
  stateDir: string | undefined,
  env: NodeJS.ProcessEnv,
  home: string,
  git: GitProbe,
  who: string,
  /** The deciding release, short ("OMC 4.4.4"), for the rule. */
  decider: string,
  looked: string[],
  notices: string[],
): RootResolution {
  const top = git.topLevel(cwd);
  // The hook keeps state in `<its cwd>/.omc` (4.4.4's persistent-mode.cjs and keyword hook: `data.cwd`), and Claude
  // Code gives it the directory Claude was started in: a Claude started in a subdirectory keeps its own `.omc` there.
  // Run lower than the Claude it watches (the top level's `.omc` there, none here), omc-top reads the top level's.
  const own = path.join(cwd, '.omc');
  const topRoot = top !== null && top !== cwd ? path.join(top, '.omc') : null;
  const anchor = topRoot !== null && !isDirectorySync(own) && isDirectorySync(topRoot) ? (top as string) : cwd;
  const root = path.join(anchor, '.omc');
  looked.push(root);
  if (stateDir)
    notices.push(
      `OMC_STATE_DIR is set, but ${who} ignores it: its hooks keep state in ${shownPath(root)} (shown); OMC 4.15 and later use OMC_STATE_DIR`,
    );
  const marker = findWorkspaceMarker(cwd, home, env);
  if (marker) notices.push(`ignored ${WORKSPACE_MARKER} at ${shownPath(marker)}: ${who} does not read it`);
  const sup = top ? git.superproject(top) : null;
  if (sup)
    notices.push(
      `this is a submodule of ${shownPath(sup)}: ${who} keeps its state here in ${shownPath(root)} (OMC 4.15 and later use ${shownPath(path.join(sup, '.omc'))})`,
    );
  const atTop = top !== null && anchor === top;
  if (topRoot !== null && anchor === cwd && isDirectorySync(topRoot))
    notices.push(
      `${shownPath(topRoot)} also exists: OMC hooks started at the top level keep state there (use --root to view it)`,
    );
  return {
    root,
    rule: atTop ? 'git' : 'cwd-4x',
    // The release that decided, as the 5.5 rule names its own ("$HOME/.omc (OMC 5.5.0)"): what it ignores
    // (OMC_STATE_DIR, a marker) is a notice when it is there, not part of every header.
    explain: atTop
      ? `${sup ? 'submodule' : 'git'} top-level (${decider})`
      : top !== null
        ? `./.omc where the hooks run (${decider})`
        : `not a git repo: ./.omc (${decider})`,
    exists: isDirectorySync(root),
    looked,
    notices,
    projectDir: anchor,
  };
}

/** Why there is no root to show, in one line: "no .omc directory found (how it was looked for)", or the path's fault. */
export function noRootMessage(r: RootResolution): string {
  if (r.rule === 'unusable-path') return r.explain;
  // Something there that is not a directory is said on every surface (watch, status, cancel, serve, ack, wiki).
  const fault = rootPathFault(r.root);
  // The path given with --root is named even when it is simply not there: the one path the user typed.
  const named = fault !== 'is a directory' && (r.rule === 'override' || fault !== 'does not exist');
  const there = named ? `: ${shownPath(r.root)} ${fault}` : '';
  // One line on every surface: the explanation can name a directory from disk (a workspace marker's).
  return cleanLine(`no .omc directory found (${r.explain})${there}`);
}
