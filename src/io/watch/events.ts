/** What the tree watcher reports: one path under the watched root and what happened to it. */
export type WatchEventType = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

export interface WatchEvent {
  type: WatchEventType;
  /** Relative to the .omc root, POSIX separators. */
  rel: string;
}
