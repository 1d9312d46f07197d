/** Shared shapes of the store layer. Nothing here imports React. */
import type { WatchEvent } from '../io/watch/events.js';
import type { ScanMisses } from './scan-misses.js';

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
  /** A list's misses: what a scan no longer finds, held before it is dropped (scan-misses.ts); set up by the store. */
  readonly misses?: ScanMisses;
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
  /**
   * The wall clock jumped apart from monotonic time (a suspend and resume, an NTP step): re-judge now whatever
   * depends on the wall clock, since timers armed on monotonic time would fire late or never (clock-jumps.ts).
   */
  clockJumped?(): void;
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
