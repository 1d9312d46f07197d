/**
 * OMC hooks started with their cwd in a subdirectory keep state in `<repo>/sub/.omc` (5.5 addendum
 * §1.1: a hook passes its raw cwd, and a git subdirectory gets its own .omc). Those loops are real
 * (the hook there blocks) but invisible from the repo top. A bounded search under the project finds
 * them, so the monitor can say so and point at `--root`.
 */
import path from 'node:path';
import { listDirSync } from '../../io/safe-fs/index.js';
import { shellArg, shownPath } from '../../io/shown-path.js';
import { SlicedScan } from '../../io/sliced-scan.js';

/** Never searched: dependencies, VCS and build output (big, and never where a session runs). */
const SKIP = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  '.next',
  'vendor',
  '.venv',
  '__pycache__',
]);

export interface NestedRoot {
  /** The .omc directory, relative to the project directory. */
  rel: string;
  abs: string;
  /** Session directories under it (state/sessions/*). */
  sessions: number;
}

export interface NestedSearch {
  roots: NestedRoot[];
  /** The search stopped at its bounds before seeing everything. */
  truncated: boolean;
}

/**
 * Where to look for nested roots: the project of the root being watched. Given `--root <dir>/.omc`, that is `<dir>`
 * (OMC keeps a project's state in `<project>/.omc`), wherever omc-top was started: from `/tmp`, `--root
 * /tmp/proj/.omc` searched all of `/tmp` and named every other project's `.omc` there. Otherwise the project the
 * root was resolved for (the git top level or the directory omc-top runs in); null: nowhere to look.
 */
export function nestedSearchBase(res: {
  rule: string;
  root: string;
  projectDir?: string | undefined;
  exists?: boolean;
}): string | null {
  if (res.rule === 'override') {
    // A root given by hand: its own project's nested roots, and none for a state directory's (not a `.omc`): the
    // directory omc-top started in is not its project, and roots under it are not this one's. Unless the root
    // given does not exist: then what is there is what the user may have meant.
    if (path.basename(res.root) === '.omc') return path.dirname(res.root);
    return res.exists === false ? (res.projectDir ?? null) : null;
  }
  return res.projectDir ?? null;
}

export interface NestedSearchBounds {
  maxDepth?: number;
  maxDirs?: number;
}

/**
 * Breadth-first under `projectDir`, at most `maxDepth` levels and `maxDirs` directories listed,
 * skipping SKIP and dot-directories; `.omc` directories other than `mainRoot` are reported into `out`.
 * One `yield` per directory listed, so a monitor can spread it over turns (NestedRootsSearch).
 */
function* searchSteps(
  projectDir: string,
  mainRoot: string,
  opts: NestedSearchBounds,
  out: NestedSearch,
): Generator<void, void> {
  const maxDepth = opts.maxDepth ?? 4;
  const maxDirs = opts.maxDirs ?? 2_000;
  const queue: Array<{ rel: string; depth: number }> = [{ rel: '', depth: 0 }];
  let next = 0;
  let listed = 0;
  while (next < queue.length) {
    const { rel, depth } = queue[next++] as { rel: string; depth: number };
    if (listed >= maxDirs) {
      out.truncated = true;
      break;
    }
    listed += 1;
    const l = listDirSync(projectDir, rel);
    if (l.ok) {
      const entries = l.entries;
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i] as (typeof entries)[number];
        if (e.kind !== 'dir') continue;
        const child = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.name === '.omc') {
          const abs = path.join(projectDir, child);
          if (path.resolve(abs) === path.resolve(mainRoot) || rel === '') continue;
          const s = listDirSync(projectDir, `${child}/state/sessions`);
          const sessions = s.ok ? s.entries.filter((x) => x.kind === 'dir').length : 0;
          out.roots.push({ rel: child, abs, sessions });
          continue;
        }
        if (e.name.startsWith('.') || SKIP.has(e.name)) continue;
        if (depth + 1 < maxDepth) queue.push({ rel: child, depth: depth + 1 });
        else out.truncated = true;
      }
    }
    yield;
  }
  out.roots.sort((a, b) => a.rel.localeCompare(b.rel));
}

/** The whole search at once (--json, and a monitor asked before its slices are done). */
export function findNestedRoots(projectDir: string, mainRoot: string, opts: NestedSearchBounds = {}): NestedSearch {
  return new NestedRootsSearch(projectDir, mainRoot, opts).result();
}

/**
 * The search as a monitor runs it: in slices once it is live (`step`), so a project of thousands of directories
 * (2,000 listings: 25–40 ms warm, ~180 ms cold on this VM when quiet, up to 350 ms cold under load) neither delays
 * `live` nor holds a key; `result()` finishes it
 * at once when it is wanted sooner (O pressed before the slices are done).
 */
export class NestedRootsSearch {
  private readonly found: NestedSearch = { roots: [], truncated: false };
  private readonly scan: SlicedScan;
  private over = false;

  constructor(projectDir: string, mainRoot: string, opts: NestedSearchBounds = {}) {
    this.scan = new SlicedScan(() => searchSteps(projectDir, mainRoot, opts, this.found));
  }

  get done(): boolean {
    return this.over;
  }

  /** Lists directories until `deadline` (performance.now()); true once the search is over (one pass, never two). */
  step(deadline: number): boolean {
    if (!this.over) this.over = this.scan.step(deadline);
    return this.over;
  }

  /** Everything found, the rest of the search run now if it is not over. */
  result(): NestedSearch {
    this.step(Infinity);
    return this.found;
  }
}

/**
 * The path to give `--root` from `cwd`: relative when that is shorter, else absolute. Not the root's path within the
 * project (NestedRoot.rel): the user is not at the project's top when they run omc-top from a subdirectory of it
 * (from `repo/src`, `--root packages/api/.omc` would name `repo/src/packages/api/.omc`).
 */
export function rootArgFrom(cwd: string | null, abs: string): string {
  if (cwd === null) return abs;
  const rel = path.relative(cwd, abs);
  return rel !== '' && rel.length < abs.length ? rel : abs;
}

/** The directory omc-top runs in; null when it was removed under us (process.cwd() throws then). */
function currentDir(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

/**
 * The first root found, its sessions in words, and how many more there are: what both notices say. Each notice is
 * one line: the paths in it are directory names from disk, and a newline or escape sequence in one would break the
 * line on stderr or reach the terminal, while removing it would name another directory. So they are shown with
 * every byte, controls as escapes (`where`, `dir`: io/shown-path.ts), and the `--root` to type is quoted for the
 * shell. `--json`'s nested_roots keep the exact paths.
 */
function firstFound(
  found: NestedSearch,
  noticed: readonly string[],
): { first: NestedRoot; where: string; dir: string; sessions: string; more: string } | null {
  // A root another notice names already (RootResolution.noticed: the subdirectory omc-top started in) is not said twice.
  const roots = found.roots.filter((r) => !noticed.includes(r.abs));
  const first = roots[0];
  if (first === undefined) return null;
  return {
    first,
    where: shownPath(first.rel),
    dir: shownPath(path.posix.dirname(first.rel)),
    sessions: `${first.sessions} session${first.sessions === 1 ? '' : 's'}`,
    more: roots.length > 1 ? ` (+${roots.length - 1} more)` : '',
  };
}

/** The notice for the header / --json: where in the project, how many sessions, and how to look from here. */
export function nestedNotice(
  found: NestedSearch,
  cwd: string | null = currentDir(),
  noticed: readonly string[] = [],
): string | null {
  const f = firstFound(found, noticed);
  if (f === null) return null;
  return `OMC state also in ${f.where} (${f.sessions}): hooks started in ${f.dir}/ write there; see it with ${shellArg(rootArgFrom(cwd, f.first.abs), (w) => `--root ${w}`)}${f.more}`;
}

/**
 * The monitor's notice: what `O` does instead of a command line to type, so it stays two lines at 60 columns (the
 * command-line notice took three).
 */
export function nestedMonitorNotice(found: NestedSearch, noticed: readonly string[] = []): string | null {
  const f = firstFound(found, noticed);
  if (f === null) return null;
  return `OMC state also in ${f.where} (${f.sessions}, from hooks started in ${f.dir}/): O switches to it${f.more}`;
}
