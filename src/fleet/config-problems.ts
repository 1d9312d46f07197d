/**
 * The fleet's problems with omc-top's own config file, kept while the fleet runs. The fleet reads the file once at
 * start (its hosts, notifications, push, prices) and goes on with what it read; a bad file was said once on the
 * message line and then nowhere. This looks at the file again every few seconds (a stat; read only when it moved,
 * compared with the text read last, parsed only when that changed) and holds one problem line for as long as the file is bad: the
 * fleet's message line and its `!` list show it (panes/fleet), and it leaves when the file is fixed.
 *
 * The settings in force stay those read at start (the last good ones, or the defaults and the valid parts when the
 * file was bad then): a file broken later says so, not the start's "using the defaults".
 */
import { configPath, loadConfig, type LoadedConfig } from '../config/config-file.js';
import { readConfigText } from '../config/config-path.js';
import { followedStampKey } from '../io/file-stamp.js';
import { SnapshotCell } from '../io/snapshot-cell.js';
import type { Problem } from '../store/types.js';

/** How often the file is looked at: as often as the fleet reads Claude's registry. */
export const CONFIG_LOOK_MS = 3_000;

export interface ConfigProblems {
  /** The config file's problem now (at most one line), none while it is in force whole or missing. */
  getSnapshot(): readonly Problem[];
  subscribe(l: () => void): () => void;
  stop(): void;
}

/** The words of a file that is bad now, given what the process read at start (`atStart`). */
export function configProblemWords(now: LoadedConfig, atStart: LoadedConfig): string | null {
  if (now.fault === null) return null;
  // Bad the same way as at start: what the start made of it is what is in force (the monitor's line).
  if (now.reason === atStart.reason) return `config file: ${now.reason}`;
  return `config file: ${now.fault} (not applied: omc-top goes on with the settings it read at start)`;
}

export function watchConfigProblems(opts: {
  /** What the process read at start (run-fleet's loadConfig). */
  atStart: LoadedConfig;
  file?: string;
  everyMs?: number;
  /** The file was bad at start and is whole now: said once (its settings apply from the next start). */
  onFixed?: (words: string) => void;
}): ConfigProblems {
  const file = opts.file ?? opts.atStart.path ?? configPath();
  const problemOf = (loaded: LoadedConfig): Problem[] => {
    const words = configProblemWords(loaded, opts.atStart);
    return words === null ? [] : [{ path: loaded.path, message: words, severity: 'error' }];
  };
  const cell = new SnapshotCell<readonly Problem[]>(problemOf(opts.atStart));
  // What was read last (the text, or why there was none): a file that did not change is not parsed again, and one
  // whose stat did not move is not read again (a stat every few seconds at rest, as HookEnv looks at settings files).
  const read = () => {
    const r = readConfigText(file);
    return r.ok ? `text:${r.text}` : `none:${r.code}:${r.message}`;
  };
  let stamp = followedStampKey(file);
  let last = read();
  let fixedSaid = false;
  const look = () => {
    const now = followedStampKey(file);
    if (now !== null && now === stamp) return;
    stamp = now;
    const seen = read();
    if (seen === last) return;
    last = seen;
    const loaded = loadConfig(file);
    const next = problemOf(loaded);
    const before = cell.getSnapshot();
    if (next.length !== before.length || next[0]?.message !== before[0]?.message) cell.set(next);
    if (loaded.fault === null && opts.atStart.fault !== null && !fixedSaid) {
      fixedSaid = true;
      opts.onFixed?.(`config file fixed: ${loaded.path} is read when omc-top --all starts again`);
    }
  };
  const timer = setInterval(look, opts.everyMs ?? CONFIG_LOOK_MS);
  timer.unref();
  return {
    getSnapshot: () => cell.getSnapshot(),
    subscribe: (l) => cell.subscribe(l),
    stop: () => clearInterval(timer),
  };
}
