/**
 * The chokidar watch of the tree's skeleton: the directories that are not
 * leaves (the root, state/, notepad, memory, team runtime…).
 *
 * chokidar is asked to watch directories only. A directory watch already
 * reports every change to the files in it (the `raw` event names the file), so
 * watching each file as well — chokidar's default — would triple the inotify
 * watches and add ~75 MB at 2,000 sessions for nothing. Files are read when
 * their directory says they changed. Leaves are skipped (see leaf-watches.ts).
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { relOf } from './rel-paths.js';

export interface SkeletonOptions {
  root: string;
  wants(rel: string, isDir: boolean | undefined): boolean;
  isLeaf(rel: string): boolean;
  /** For tests: replaces chokidar's watch(). */
  watchImpl?: typeof watch;
  /** A directory appeared (`ready`: after the initial walk, when its subtree needs a look for leaves). */
  onAddDir(abs: string, ready: boolean): void;
  onUnlinkDir(abs: string): void;
  /** A directory watch named one of its entries: a file written, renamed over, created or removed. */
  onEntry(abs: string): void;
  /** The initial walk is done and every directory is watched. */
  onReady(): void;
  onError(err: unknown): void;
}

/** Starts chokidar on the skeleton; throws when no watcher can be made at all. */
export function watchSkeleton(opts: SkeletonOptions): FSWatcher {
  // Directories we need are watched; files never are, and leaves are ours.
  const ignored = (p: string, stats?: { isDirectory(): boolean }) => {
    const rel = relOf(opts.root, p);
    if (rel.startsWith('..') || opts.isLeaf(rel)) return true;
    if (stats) return !stats.isDirectory() || !opts.wants(rel, true);
    return !(opts.wants(rel, true) || opts.wants(rel, false));
  };
  let ready = false;
  const c = (opts.watchImpl ?? watch)(opts.root, {
    ignoreInitial: true,
    followSymlinks: false,
    ignored,
    persistent: true,
  });
  c.on('addDir', (p) => opts.onAddDir(p, ready));
  c.on('raw', (_event: unknown, name: string | null, details: unknown) => {
    const dir = (details as { watchedPath?: string } | undefined)?.watchedPath;
    if (!dir || !name) return;
    opts.onEntry(path.join(dir, name));
  });
  c.on('unlinkDir', (p) => opts.onUnlinkDir(p));
  c.on('ready', () => {
    ready = true;
    opts.onReady();
  });
  c.on('error', (err: unknown) => opts.onError(err));
  return c;
}
