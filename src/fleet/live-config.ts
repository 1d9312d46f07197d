/**
 * omc-top's own config file, followed while the fleet runs. A user who fixes a typo or adds a host should not have
 * to restart: the file's directory is watched (io/watch/own-file.ts: an editor replaces the file by rename) and its
 * stat looked at every few seconds as well (a symlinked file, home-manager's or stow's, changes where no watch of
 * this directory sees it). Each read goes through the last-good rule (io/last-good.ts) and is taken as a start takes
 * it: a valid file, or one with bad fields (those are left out, the rest is kept: config/drop-invalid.ts), is handed
 * to `onApply` (the caller applies what it can and says what), and a file left in part says so on its problem line
 * ("left out: title; the rest of the file applies"). A file of which nothing can be kept (not JSON, not an object,
 * not readable) is not applied: the settings in force stay, and one problem line names the file and where it breaks
 * until it is fixed. A read that changes nothing (the same bytes, or the same settings written another way) applies
 * nothing and says nothing.
 *
 * The settings in force at start are what the start made of the file (the last good ones, or the defaults and the
 * valid parts when it was bad then): a file still bad the same way says what the start said.
 */
import path from 'node:path';
import { configOfRead, keptNothing, partsShown, type LoadedConfig, type OmcTopConfig } from '../config/config-file.js';
import { CONFIG_MAX_BYTES } from '../config/config-path.js';
import { followedStampKey } from '../io/file-stamp.js';
import { LastGoodFile, type ReadEdge } from '../io/last-good.js';
import { SnapshotCell } from '../io/snapshot-cell.js';
import { cleanLine } from '../io/sanitize.js';
import { TRAILING_MS } from '../io/watch/coalescer.js';
import { watchOwnFile } from '../io/watch/own-file.js';
import type { Problem } from '../store/types.js';

/** How often the file's stat is looked at besides the watch: as often as the fleet reads Claude's registry. */
export const CONFIG_LOOK_MS = 3_000;

/**
 * How long a file found gone must stay gone before its settings are dropped: a save that removes the file and writes
 * it again later than the trailing read (a slow or non-atomic editor, a loaded machine) would otherwise end every
 * config host's ssh and connect it again, saying a change that did not happen.
 */
export const MISSING_CONFIRM_MS = 1_000;

/** What a bad file now is said as, while the settings in force stay. */
export const NOT_APPLIED = '(not applied: omc-top goes on with the settings it had before this change)';

export interface LiveConfig {
  /** The settings in force now. */
  inForce(): OmcTopConfig;
  /** The config file's problem now (at most one line), none while the file in force is whole or missing. */
  getSnapshot(): readonly Problem[];
  subscribe(l: () => void): () => void;
  stop(): void;
}

/** Settings equal as data (a file rewritten with other spacing or key order is no change). */
const sameSettings = (a: OmcTopConfig, b: OmcTopConfig): boolean => stableJson(a) === stableJson(b);

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Whether one part of the settings differs between two configs. */
export const partChanged = (a: OmcTopConfig, b: OmcTopConfig, key: keyof OmcTopConfig): boolean =>
  stableJson(a[key] ?? null) !== stableJson(b[key] ?? null);

export function watchConfig(opts: {
  /** What the process read at start (its loadConfig): in force until a valid change. */
  atStart: LoadedConfig;
  file?: string;
  everyMs?: number;
  /**
   * A change: `after` is in force from now (the caller applies it and says what it applied). `line` is the problem
   * line that comes with it (the parts left out, or none): its subscribers hear of it after this call.
   */
  onApply(after: OmcTopConfig, before: OmcTopConfig, line: readonly Problem[]): void;
}): LiveConfig {
  const file = opts.file ?? opts.atStart.path;
  const dir = path.dirname(file);
  const name = path.basename(file);
  const atStart = opts.atStart;
  let inForce = atStart.config;
  // Whether a change was applied since start: until then a file bad the way it was at start says the start's words.
  let appliedSinceStart = false;
  const lg = new LastGoodFile<LoadedConfig>(dir, name, {
    maxBytes: CONFIG_MAX_BYTES,
    followLink: true,
    // A file with bad fields is a value (its good parts apply, as at a start); only one of which nothing is kept fails.
    parse: (r) => {
      const loaded = configOfRead(file, r);
      return keptNothing(loaded) ? { ok: false, problem: loaded.fault ?? 'not read' } : { ok: true, value: loaded };
    },
    onReadFailure: (r) => ({ ok: false, problem: configOfRead(file, r).fault ?? r.message }),
  });
  /**
   * The line for a file that is not applied (`failure`), or one applied but for its bad fields (`partly`). Push is
   * never switched under a running fleet, so a line after a change names the parts left out but not push's fate.
   */
  const problemOf = (failure: string | null, partly: LoadedConfig | null): Problem[] => {
    const fault = failure ?? partly?.fault ?? null;
    if (fault === null) return [];
    const words =
      !appliedSinceStart && fault === atStart.fault
        ? `config file: ${atStart.reason}`
        : failure !== null
          ? `config file: ${fault} ${NOT_APPLIED}`
          : cleanLine(
              `config file: ${fault} (left out: ${partsShown(partly?.dropped ?? [])}; the rest of the file applies)`,
            );
    return [{ path: file, message: words, severity: 'error' }];
  };
  const cell = new SnapshotCell<readonly Problem[]>(
    keptNothing(atStart) ? problemOf(atStart.fault, null) : problemOf(null, atStart),
  );
  const setProblem = (next: Problem[]) => {
    const before = cell.getSnapshot();
    if (next.length !== before.length || next[0]?.message !== before[0]?.message) cell.set(next);
  };
  let trailing: NodeJS.Timeout | null = null;
  // The look that decides a file gone is gone (MISSING_CONFIRM_MS after it was first found so), while one is due.
  let confirmGone: NodeJS.Timeout | null = null;
  let stopped = false;
  const look = (edge: ReadEdge, confirming = false) => {
    if (stopped) return;
    lg.read(edge);
    // A file gone (or unreadable, half written) on the leading edge may be an editor's save under way (the old file
    // moved aside or removed first): the trailing read decides, so its hosts are not dropped and connected again.
    if (edge === 'leading' && (lg.pending !== null || lg.missing)) return;
    if (!lg.missing && confirmGone) {
      clearTimeout(confirmGone);
      confirmGone = null;
    }
    // Gone at the trailing read too: dropped only if still gone a while later (settings already the defaults: no
    // wait, nothing to drop).
    if (lg.missing && !confirming && !sameSettings({}, inForce)) {
      if (!confirmGone) {
        confirmGone = setTimeout(() => {
          confirmGone = null;
          look('trailing', true);
        }, MISSING_CONFIRM_MS);
        confirmGone.unref?.();
      }
      return;
    }
    if (lg.failure !== null) {
      setProblem(problemOf(lg.failure, null));
      return;
    }
    // Valid, valid but for the parts left out, or gone (the defaults, as at a start without the file).
    const next = lg.value?.config ?? {};
    const before = inForce;
    const changes = !sameSettings(next, before);
    if (changes) appliedSinceStart = true;
    // The line first: a line that changes clears the message line (run-fleet.tsx), which then says what applied.
    setProblem(problemOf(null, lg.value ?? null));
    if (!changes) return;
    inForce = next;
    opts.onApply(next, before, cell.getSnapshot());
  };
  const changed = () => {
    look('leading');
    // Read again once the writer is done: a file caught mid-write is only pending until then (the last-good rule).
    if (trailing) clearTimeout(trailing);
    trailing = setTimeout(() => {
      trailing = null;
      look('trailing');
    }, TRAILING_MS);
    trailing.unref?.();
  };
  // The bytes behind the start's settings (read again here: a change since is applied at once, as any other).
  look('scan');
  const unwatch = watchOwnFile(dir, name, changed, { loadAtStart: false });
  let stamp = followedStampKey(file);
  const timer = setInterval(() => {
    const now = followedStampKey(file);
    if (now !== null && now === stamp) return;
    stamp = now;
    // A change seen here is one the watch may not have seen yet, caught in the same gap: read as the watch reads.
    changed();
  }, opts.everyMs ?? CONFIG_LOOK_MS);
  timer.unref();
  return {
    inForce: () => inForce,
    getSnapshot: () => cell.getSnapshot(),
    subscribe: (l) => cell.subscribe(l),
    stop: () => {
      stopped = true;
      unwatch();
      clearInterval(timer);
      if (trailing) clearTimeout(trailing);
      if (confirmGone) clearTimeout(confirmGone);
    },
  };
}
