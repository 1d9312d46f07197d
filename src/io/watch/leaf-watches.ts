/**
 * Directories whose entries the domains name themselves — a session's
 * `state/sessions/<id>/`, `state/sessions/` itself, `wiki/` — are "leaves":
 * each is watched with one plain fs.watch, and chokidar is told to skip them.
 * Measured at 2,000 session directories, chokidar's bookkeeping costs ~40 MB of
 * RSS even for directories alone, fs.watch ~1 MB; and chokidar's walk of
 * `state/sessions` offered all 10,000 entries of a 10,000-session tree to
 * `ignored` (an lstat each) and was the last thing start-up waited for.
 *
 * A leaf appearing or vanishing is seen by its parent's watch (a chokidar
 * directory or another leaf: session directories are leaves inside the
 * `state/sessions` leaf), and a leaf that appears is walked for the leaves
 * already inside it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { WatchEventType } from './events.js';
import { absOf, relOf } from './rel-paths.js';

export interface LeafWatchesOptions {
  root: string;
  wants(rel: string, isDir: boolean | undefined): boolean;
  isLeaf(rel: string): boolean;
  /** Leaves whose subdirectories may be leaves too (`state/sessions`: its session directories). */
  holdsLeaves(rel: string): boolean;
  /** One event for the coalescer (`trailing: false`: see Coalescer.push). */
  report(type: WatchEventType, abs: string, opt?: { trailing?: boolean }): void;
  /** An fs.watch failed: fall back to polling if it was for lack of watches. */
  onWatchFailure(err: unknown): void;
  /** Closed or polling: no more leaves are attached. */
  stopped(): boolean;
}

/** The leaf a plain fs.watch belongs to (rel), kept on the watcher itself. */
const LEAF_REL = Symbol('leaf');
type LeafWatcher = fs.FSWatcher & { [LEAF_REL]?: string };

export class LeafWatches {
  private readonly leaves = new Map<string, fs.FSWatcher>();
  /** Leaves with leaves inside them (`state/sessions`): when one goes, the watches inside it go too. */
  private readonly parentsOfLeaves = new Set<string>();
  /**
   * Leaves holding leaves that a caller attached with watchLeaf() before listing them: that caller watches each
   * leaf inside before listing it too (the progressive start), so the walk at `ready` does not (it would attach,
   * and announce, every session directory the sliced read has not reached yet, in one long batch).
   */
  private readonly ownedParents = new Set<string>();
  /** The inode each leaf holding leaves was attached on. */
  private readonly parentInodes = new Map<string, number>();
  // One listener for every leaf, told which leaf by the watcher it is called on (EventEmitter's `this`): two
  // closures and their scopes per session directory were ~0.2 KB each at 10,000 sessions.
  private readonly onLeafChange: (this: LeafWatcher, ev: string, name: string | Buffer | null) => void;
  private readonly onLeafError: (this: LeafWatcher) => void;

  constructor(private readonly opts: LeafWatchesOptions) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the listeners' own `this` is the fs.watch
    const self = this;
    this.onLeafChange = function (this: LeafWatcher, _ev, name) {
      const rel = this[LEAF_REL];
      if (rel === undefined) return;
      const abs = absOf(self.opts.root, rel);
      if (name) self.entry(path.join(abs, name.toString()));
      else self.opts.report('addDir', abs); // the kernel lost track: re-read the whole directory
    };
    this.onLeafError = function (this: LeafWatcher) {
      this.close();
      const rel = this[LEAF_REL];
      if (rel !== undefined && self.leaves.get(rel) === this) self.leaves.delete(rel);
    };
  }

  has(rel: string): boolean {
    return this.leaves.has(rel);
  }

  /** A file (or leaf directory) named by a directory watch changed, appeared or vanished. */
  entry(abs: string): void {
    const rel = relOf(this.opts.root, abs);
    if (rel.startsWith('..')) return;
    if (this.opts.isLeaf(rel)) {
      this.sync(rel, abs);
      return;
    }
    if (!this.opts.wants(rel, false)) return;
    // Domains see the usual event kinds: gone files as unlink, everything else as change.
    this.opts.report(fs.existsSync(abs) ? 'change' : 'unlink', abs);
  }

  /**
   * For a caller about to list leaf `rel`: watch it now (see TreeWatcher.watchLeaf). Attached by the walk first,
   * its leaves are the walk's too; attached here first, they are the caller's.
   */
  watchForCaller(rel: string): boolean {
    const had = this.leaves.has(rel);
    if (!this.attach(rel, absOf(this.opts.root, rel))) return false;
    if (!had && this.opts.holdsLeaves(rel)) this.ownedParents.add(rel);
    return true;
  }

  /** One fs.watch on a leaf directory. False when none could be set (then we may be polling now). */
  private attach(rel: string, abs: string): boolean {
    if (this.leaves.has(rel)) return true;
    // A leaf holding leaves is one directory, watched before anything knows what is at its path: a file there
    // (state/sessions replaced by one) must not get the watch, or the directory coming back would be a no-op.
    // Its inode is kept, so a different directory at the same path is seen as one (see sync).
    let ino: number | null = null;
    if (this.opts.holdsLeaves(rel)) {
      try {
        const st = fs.lstatSync(abs);
        if (!st.isDirectory()) return false;
        ino = st.ino;
      } catch {
        return false;
      }
    }
    try {
      const w = fs.watch(abs, { persistent: false }, this.onLeafChange) as LeafWatcher;
      w[LEAF_REL] = rel;
      w.on('error', this.onLeafError);
      this.leaves.set(rel, w);
      if (ino !== null) this.parentInodes.set(rel, ino);
      const slash = rel.lastIndexOf('/');
      if (slash > 0 && this.leaves.has(rel.slice(0, slash))) this.parentsOfLeaves.add(rel.slice(0, slash));
      return true;
    } catch (err) {
      // A leaf inside a watched leaf that this user may not read (another user's session directory, 0700: inotify
      // needs read permission). Its parent's watch still names it when its permissions change (IN_ATTRIB), and
      // the domain says it cannot list it: the rest of the tree stays on events instead of polling for its sake.
      const code = (err as NodeJS.ErrnoException)?.code;
      const slash = rel.lastIndexOf('/');
      if ((code === 'EACCES' || code === 'EPERM') && slash > 0 && this.leaves.has(rel.slice(0, slash))) return false;
      this.opts.onWatchFailure(err);
      return false;
    }
  }

  /** Closes one leaf's watch and those of the leaves inside it. */
  private drop(rel: string): void {
    this.leaves.get(rel)?.close();
    this.leaves.delete(rel);
    this.ownedParents.delete(rel);
    this.parentInodes.delete(rel);
    if (!this.parentsOfLeaves.delete(rel)) return;
    const prefix = `${rel}/`;
    for (const [r, w] of this.leaves)
      if (r.startsWith(prefix)) {
        w.close();
        this.leaves.delete(r);
        this.parentsOfLeaves.delete(r);
      }
  }

  /**
   * Attach or drop the fs.watch of one leaf directory, telling the domains as addDir / unlinkDir. A leaf that
   * appears is walked for the leaves already inside it (`walk: false` when the caller is that walk).
   */
  private sync(rel: string, abs: string, walk = true): void {
    let isDir = false;
    let ino = -1;
    try {
      const st = fs.lstatSync(abs);
      isDir = st.isDirectory() || (st.isSymbolicLink() && this.linksToDirInside(abs));
      ino = st.ino;
    } catch {
      isDir = false;
    }
    let have = this.leaves.get(rel);
    if (have && isDir && this.parentInodes.has(rel) && this.parentInodes.get(rel) !== ino) {
      // Another directory at this path (moved away and another moved in): its watch is on the old one.
      this.drop(rel);
      this.opts.report('unlinkDir', abs);
      have = undefined;
    }
    if (isDir && this.opts.wants(rel, true)) {
      if (!have) {
        if (!this.attach(rel, abs) && this.opts.stopped()) return;
        // Watched before the domain lists it (on the leading edge): a file landing after the attach is an
        // event, one before it is in the listing, so no trailing re-list is needed.
        this.opts.report('addDir', abs, { trailing: false });
        // A `mkdir -p state/sessions/<id>` makes the session directory before any watch on state/sessions.
        if (walk && this.opts.holdsLeaves(rel)) this.attachAll(abs);
      } else {
        // The same directory, still watched, named by its parent's watch: its attributes changed (IN_ATTRIB: a
        // chmod, a chown). Whether it may be listed now is the domain's to look at (a session directory made
        // unreadable is `unreadable`, not the verdict it had); its own watch says nothing of its own mode.
        this.opts.report('change', abs);
      }
      return;
    }
    if (have) {
      this.drop(rel);
      this.opts.report('unlinkDir', abs);
    } else {
      // Not (or no longer) a watchable directory: let the domains look at it.
      this.opts.report(fs.existsSync(abs) ? 'change' : 'unlink', abs);
    }
  }

  /**
   * A symlinked session directory whose target stays inside the root: OMC's Stop hook reads through it, so it is
   * watched as the directory it leads to (fs.watch follows it). One that leads out of the root is not watched: the
   * domain does not read it either (it is unreadable there).
   */
  private linksToDirInside(abs: string): boolean {
    try {
      const real = fs.realpathSync(abs);
      const root = fs.realpathSync(this.opts.root);
      return (real === root || real.startsWith(`${root}/`)) && fs.statSync(real).isDirectory();
    } catch {
      return false;
    }
  }

  /**
   * Every leaf under the directories chokidar watches: found when watching starts, and under each directory
   * that appears later (a `mkdir -p state/sessions/<id>` makes the leaf before any watch on its parent
   * exists, so no event would ever name it; chokidar ignores leaves, so it does not report them either).
   */
  attachAll(from = this.opts.root): void {
    const walk = (relDir: string, depth: number) => {
      if (depth > 4 || this.opts.stopped()) return;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(absOf(this.opts.root, relDir), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        if (!e.isDirectory() && !e.isSymbolicLink()) continue;
        const rel = relDir === '' ? e.name : `${relDir}/${e.name}`;
        // A symlinked session directory (see linksToDirInside); any other symlink is no directory to walk.
        if (!e.isDirectory() && (!this.opts.isLeaf(rel) || this.opts.holdsLeaves(rel))) continue;
        if (this.opts.isLeaf(rel)) {
          if (!this.leaves.has(rel)) this.sync(rel, absOf(this.opts.root, rel), false);
          // Leaves inside a leaf (session directories in state/sessions) are found by the same walk.
          if (this.leaves.has(rel) && !this.ownedParents.has(rel) && this.opts.holdsLeaves(rel)) walk(rel, depth + 1);
        } else if (this.opts.wants(rel, true)) walk(rel, depth + 1);
      }
    };
    const rel = relOf(this.opts.root, from);
    if (rel.startsWith('..')) return;
    walk(rel, rel === '' ? 0 : rel.split('/').length);
  }

  closeAll(): void {
    for (const w of this.leaves.values()) w.close();
    this.leaves.clear();
    this.parentsOfLeaves.clear();
    this.ownedParents.clear();
    this.parentInodes.clear();
  }
}
