/**
 * What a scan (a rescan: the root back, the watches' `ready`, a poll tick) no longer finds is not taken as gone at
 * once, by any list: a miss can be a moment's (an editor's save by rename, a file replaced, the first half of an
 * `rm -rf .omc`, which takes the files before the directories), and a row dropped on it flickers away and back, and a
 * selection on it moves. One rule for every domain that lists files:
 * - watched by events: the misses go to the tree watcher's removal hold (io/watch/removal-hold.ts), which delivers
 *   each as an `unlink` event once removals are quiet, if the root is still there and the file is not; the domain's
 *   own `refresh` then drops it, as it drops a file an event said was removed;
 * - polled: a miss is gone when the next scan misses it too (a tick inside an `rm -rf` says nothing);
 * - neither (no watch, closed): gone now.
 * The store sets `hold` and `secondLook` on every domain's ScanMisses (store.ts); each domain keeps its own. A list
 * outside the watched root (the teams' project location) is polled by its domain: `secondLook` always, no `hold`.
 */
export class ScanMisses {
  /** The watcher's removal hold: true when it took the misses (they come back as events). */
  hold: ((rels: readonly string[]) => boolean) | null = null;
  /** Polling: a miss is gone on the second scan that misses it. */
  secondLook = false;
  /** What the last scan missed, waiting for the next (only while `secondLook`). */
  private missedLast = new Set<string>();

  /**
   * Of the files this scan did not find, those to drop now; the rest are kept as they were. `away`: the root is not
   * there, so nothing is dropped (and what was waiting is looked at afresh once it is back).
   */
  gone(missed: readonly string[], away = false, within?: (rel: string) => boolean): readonly string[] {
    // `within`: this scan listed only part of the list (one team's directory), so only what waits from that part is
    // settled by it; the rest waits for the scan of its own part.
    const others = within ? [...this.missedLast].filter((rel) => !within(rel)) : [];
    if (away) {
      this.missedLast = new Set(others);
      return [];
    }
    if (this.secondLook) {
      const gone = missed.filter((rel) => this.missedLast.has(rel));
      this.missedLast = new Set([...others, ...missed.filter((rel) => !this.missedLast.has(rel))]);
      return gone;
    }
    this.missedLast = new Set(others);
    if (missed.length === 0 || this.hold?.(missed)) return [];
    return missed;
  }
}
