/** Shared shapes of the store layer. Nothing here imports React. */
import type { WatchEvent } from '../io/watch/events.js';

export type { WatchEvent, WatchEventType } from '../io/watch/events.js';
export type { Subscribable } from '../io/snapshot-cell.js';

export interface Problem {
  /** Path relative to the .omc root, POSIX separators. */
  path: string;
  /** Specific and actionable: what is wrong with the file, not just "error". */
  message: string;
  severity: 'error' | 'warning' | 'info';
}

/**
 * A slice of .omc that one part of the UI cares about (sessions, notepad, …).
 * The tree watcher asks every domain which paths it wants, and hands each one
 * the coalesced events for its paths.
 */
export interface Domain {
  readonly name: string;
  /** Should the watcher look at this path? `isDir` is undefined when unknown yet. */
  wants(rel: string, isDir: boolean | undefined): boolean;
  /**
   * A directory that only holds files and may exist by the thousand (a
   * session dir): watched with one plain fs.watch instead of chokidar.
   */
  isLeafDir?(rel: string): boolean;
  /** A leaf directory whose subdirectories may be leaves too (`state/sessions`): the watcher walks it for them. */
  holdsLeaves?(rel: string): boolean;
  /**
   * Full synchronous read. Called at start, on every poll tick, when the root reappears, and after the watcher is
   * ready (the one-shot start; the progressive start only for domains read before it: OmcStore.startProgressively).
   */
  scan(): void;
  /**
   * Optional sliced first scan: do part of the initial read, stop at
   * `deadline` (performance.now()), return true when complete. Lets the first
   * frame appear before a big tree is fully read.
   */
  scanStep?(deadline: number): boolean;
  /**
   * Re-read what these events touched. Called on the leading and again on the
   * trailing edge of a burst; keep each file by the last-good rule (last-good.ts).
   */
  refresh(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void;
  /** Stops the domain's own timers (time-driven re-derives, polls) so a closed store keeps nothing alive. */
  dispose?(): void;
  /** Problems this domain currently shows (for the problem lines and --json). */
  problems?(): readonly Problem[];
  /** Extra top-level keys for the --json document (e.g. "teams"). */
  report?(): Record<string, unknown>;
  /** Change notifications, used to keep the aggregated problem list current. */
  subscribe?(listener: () => void): () => void;
}

export type Clock = () => number;

/**
 * What a burst of reading (the progressive start-up read of .omc) may ask of the engine around it: the app
 * passes terminal/young-gen.ts's policy (a young generation with room while the burst runs). `roomy()` is
 * called when the burst starts; what it returns, once when it ends.
 *
 * The transcripts' catch-up after live is not a burst: measured with room (2 GB of transcripts), it still
 * promoted ~20 MB, V8's memory-reducing collection still came, and it came later, into the idle after the
 * catch-up (issue 26's idle window: 1.25 % in one of two rounds) with RSS higher until then.
 */
export interface ReadBursts {
  roomy(): () => void;
}
