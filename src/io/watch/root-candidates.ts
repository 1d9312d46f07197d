/**
 * Waiting for a root that is not there yet. A monitor started before OMC made any `.omc` waits on the one path the
 * start's rule picked ($HOME/.omc outside git), but which path OMC then writes depends on what happens next: a
 * `git init` makes the git top level's `.omc` the answer, OMC 4.x writes `./.omc`, a workspace marker or another
 * state directory can appear. So everything the rule looks at is watched here: the directories where such a name
 * would appear (their own watch, no cost at rest), and a slow look at a fixed list of paths (one stat each, a few
 * dozen every few seconds) for what the watches cannot see (a `.git` made in a parent directory, a watch refused).
 * `onChange` is called when what stands at any of those paths changed; what it means is the caller's (the rule is
 * run again there, once, not per look).
 */
import fs from 'node:fs';
import path from 'node:path';

/** How often the paths are looked at while nothing is there: the bound on a change the watches missed. */
export const CANDIDATE_LOOK_MS = 3_000;

export interface RootCandidates {
  /** Directories to watch for a name appearing or going (the start directory, home, a state directory's base…). */
  watchDirs: readonly string[];
  /** Paths whose presence (and kind) decides the rule's answer: each looked at with one stat per slow look. */
  paths: readonly string[];
}

const present = (p: string): boolean => {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * What stands at each path, in one string: "d" a directory, "f" anything else, "-" nothing (or unreachable); a `.git`
 * directory is "g" once git would take it for a repository (its HEAD, objects and refs there). A `git init` is seen
 * by the watch the moment `.git` is made, before git has filled it: the rule run then still finds no repository, so
 * the filled one must read as another change, or the wait would stay on the old path.
 */
function fingerprint(paths: readonly string[]): string {
  let out = '';
  for (const p of paths) {
    let kind = '-';
    try {
      kind = fs.statSync(p).isDirectory() ? 'd' : 'f';
    } catch {
      /* nothing there, or not reachable: the same to the rule */
    }
    if (
      kind === 'd' &&
      path.basename(p) === '.git' &&
      ['HEAD', 'objects', 'refs'].every((n) => present(path.join(p, n)))
    )
      kind = 'g';
    out += kind;
  }
  return out;
}

/**
 * The names the rule looks for next to a directory it climbs through: OMC's tree, git's entry (a repository made
 * there), a workspace marker.
 */
export const RULE_NAMES = ['.omc', '.git', '.omc-workspace'] as const;

/** Each directory from `start` up to the file system's root, nearest first (the rule's upward walks). */
export function upwardDirs(start: string): string[] {
  const out: string[] = [];
  let cur = path.resolve(start);
  for (let i = 0; i < 64; i++) {
    out.push(cur);
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  return out;
}

/**
 * Watches `c` until closed: `onChange` once per batch of changes (a watch event, or a slow look that finds another
 * fingerprint). The watches and the timer hold nothing: the monitor's own store keeps the process alive.
 */
export function watchRootCandidates(c: RootCandidates, onChange: () => void, lookMs = CANDIDATE_LOOK_MS): () => void {
  let closed = false;
  let last = fingerprint(c.paths);
  let queued = false;
  const look = () => {
    queued = false;
    if (closed) return;
    const now = fingerprint(c.paths);
    if (now === last) return;
    last = now;
    onChange();
  };
  const soon = () => {
    if (queued || closed) return;
    queued = true;
    setImmediate(look);
  };
  const watches: fs.FSWatcher[] = [];
  for (const dir of new Set(c.watchDirs)) {
    try {
      const w = fs.watch(dir, { persistent: false }, soon);
      w.on('error', () => undefined);
      watches.push(w);
    } catch {
      // No watch there (not a directory yet, no inotify watch left): the slow look still sees it.
    }
  }
  const timer = setInterval(look, lookMs);
  timer.unref();
  return () => {
    closed = true;
    clearInterval(timer);
    for (const w of watches) w.close();
  };
}
