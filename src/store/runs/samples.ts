/**
 * omc-top's own samples of live loops: when each iteration was first seen, so
 * an ended run still says how far it got (OMC deletes the state at the end),
 * and the stretch omc-top saw each loop live in (also a mode with no iteration:
 * ultrawork, ralplan, OMC 5.5's autopilot), so its spend stays under its mode
 * once OMC 5.5's state file (the only record of its window) is deleted.
 * Kept outside .omc, in `$XDG_STATE_HOME/omc-top/` (default
 * `~/.local/state/omc-top/`), one file per .omc root, bounded: the newest
 * 200 runs, 100 iteration times each. Written through fsx's atomic write with
 * that directory as its root (in the background while the monitor runs, synchronously at its end); a damaged
 * file is ignored and replaced.
 */
import path from 'node:path';
import { createHash } from 'node:crypto';
import { bytesOfPath } from '../../io/safe-fs/byte-paths.js';
import { LatestFileWrite, ensureOwnDir, readJsonSync, statSync } from '../../io/safe-fs/index.js';
import { homeDir } from '../../io/home-dir.js';
import { ownStateDir } from '../../io/state-dir.js';

export const MAX_RUNS = 200;
export const MAX_TIMES = 100;
const FILE_MAX_BYTES = 512 * 1024;

export interface RunSample {
  mode: string;
  sessionId: string | null;
  startedMs: number | null;
  /** -1: no iteration seen (a mode whose state holds none: ultrawork, ralplan, OMC 5.5's autopilot). */
  maxIteration: number;
  /** [iteration, first seen at] pairs, newest last. */
  times: Array<[number, number]>;
  lastSeenMs: number;
  /** When omc-top saw the loop's state go (deleted or no longer active); null while live or not seen going. */
  endedMs: number | null;
}

/** A loop's time window as omc-top saw it (null start: never given one). */
export interface SeenWindow {
  mode: string;
  fromMs: number;
  toMs: number;
}

/** What the cost rollup reads: the windows omc-top saw, per session; `version` changes with them. */
export interface SeenWindows {
  readonly version: number;
  of(sessionId: string): readonly SeenWindow[];
}

/** omc-top's own state directory (io/state-dir.ts): the samples live beside its other files. */
export function samplesDir(env: NodeJS.ProcessEnv, home = homeDir(env)): string {
  return ownStateDir(env, home);
}

const keyOf = (mode: string, sid: string | null, started: number | null) => `${mode}|${sid ?? ''}|${started ?? ''}`;
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export class IterationSamples implements SeenWindows {
  readonly file: string;
  /** Bumped at every change: the cost rollup's memo tells a new window from the same again. */
  version = 0;
  private runs = new Map<string, RunSample>();
  private dirty = false;
  private readonly writer: LatestFileWrite;
  /**
   * Each run's JSON text as last written, dropped when the run changes: at the bound (200 runs × 100 times, ~400 KB)
   * one JSON.stringify of everything cost 3–6 ms on the main thread each second a loop moved, for the one or two
   * runs that did.
   */
  private readonly texts = new WeakMap<RunSample, string>();

  constructor(
    readonly dir: string,
    omcRoot: string,
  ) {
    this.file = `iterations-${createHash('sha256')
      .update(bytesOfPath(path.resolve(omcRoot)))
      .digest('hex')
      .slice(0, 16)}.json`;
    // A failed background write keeps its content unconfirmed: the next flush, or the one at exit, writes it.
    this.writer = new LatestFileWrite(dir, this.file);
    this.load();
  }

  /**
   * Notes the iteration a live loop is on; true when it is new. `iteration` null: a mode whose state holds no
   * iteration, seen live (its state changed): true when the run is new to the samples, and its "last seen" moves
   * (written, as a new iteration's would be: it is where its window ends when no monitor sees it go).
   */
  record(
    mode: string,
    sessionId: string | null,
    startedMs: number | null,
    iteration: number | null,
    atMs: number,
  ): boolean {
    if (iteration !== null && (!Number.isSafeInteger(iteration) || iteration < 0)) return false;
    const k = keyOf(mode, sessionId, startedMs);
    const run = this.runs.get(k) ?? {
      mode,
      sessionId,
      startedMs,
      maxIteration: -1,
      times: [],
      lastSeenMs: atMs,
      endedMs: null,
    };
    run.lastSeenMs = atMs;
    run.endedMs = null;
    this.version += 1;
    this.texts.delete(run);
    this.runs.delete(k);
    this.runs.set(k, run); // most recently seen last: the bound drops the oldest
    if (iteration === null) {
      this.bound();
      this.dirty = true;
      return true;
    }
    if (iteration <= run.maxIteration) return false;
    run.maxIteration = iteration;
    run.times.push([iteration, atMs]);
    if (run.times.length > MAX_TIMES) run.times.splice(0, run.times.length - MAX_TIMES);
    this.bound();
    this.dirty = true;
    return true;
  }

  private bound(): void {
    while (this.runs.size > MAX_RUNS) this.runs.delete(this.runs.keys().next().value as string);
  }

  /**
   * Highest iteration seen for a run: same mode and session, started within
   * 10 minutes of the ledger's start (the ledger's ts and the state's
   * started_at are written moments apart); the latest one when the start is unknown.
   */
  iterationsOf(mode: string, sessionId: string | null, startedMs: number | null): number | null {
    let best: RunSample | null = null;
    for (const r of this.runs.values()) {
      if (r.mode !== mode || r.sessionId !== sessionId) continue;
      if (startedMs !== null && (r.startedMs === null || Math.abs(r.startedMs - startedMs) > 600_000)) continue;
      if (!best || r.lastSeenMs > best.lastSeenMs) best = r;
    }
    return best && best.maxIteration >= 0 ? best.maxIteration : null;
  }

  /** omc-top saw the loop's state go at `atMs` (deleted, or no longer active). False when no sample of it is kept. */
  sawEnd(mode: string, sessionId: string | null, startedMs: number | null, atMs: number): boolean {
    const run = this.runs.get(keyOf(mode, sessionId, startedMs));
    if (!run || run.endedMs !== null || atMs < run.lastSeenMs) return false;
    run.endedMs = atMs;
    this.texts.delete(run);
    this.version += 1;
    this.dirty = true;
    return true;
  }

  /**
   * The windows omc-top saw this session's loops in: from the state's start to when it saw the state go, or to
   * when it last saw the loop on a new iteration (no monitor watched when it went): never a stretch it did not see.
   */
  of(sessionId: string): SeenWindow[] {
    const out: SeenWindow[] = [];
    for (const r of this.runs.values())
      if (r.sessionId === sessionId && r.startedMs !== null && r.startedMs <= (r.endedMs ?? r.lastSeenMs))
        out.push({ mode: r.mode, fromMs: r.startedMs, toMs: r.endedMs ?? r.lastSeenMs });
    return out;
  }

  all(): RunSample[] {
    return [...this.runs.values()];
  }

  /**
   * Hands what changed to the background write (at most one in flight, the newest written after it): the
   * fsync'd replace runs off the main thread. False when nothing changed. Throws when the directory cannot be made.
   */
  flushSoon(): boolean {
    if (!this.dirty) return false;
    ensureOwnDir(this.dir);
    this.writer.write(this.serialize());
    this.dirty = false;
    return true;
  }

  /**
   * Writes now, synchronously, whatever is not yet on disk (changed, or still in a background write): for an
   * exit, which cannot wait. Throws on failure (the caller decides how loud).
   */
  flush(): boolean {
    if (!this.dirty && !this.writer.unconfirmed) return false;
    ensureOwnDir(this.dir);
    const wrote = this.writer.flushSync(this.dirty ? this.serialize() : undefined);
    this.dirty = false;
    return wrote;
  }

  /** Resolves when no background write is in flight. */
  settled(): Promise<void> {
    return this.writer.idle();
  }

  /** The same text as JSON.stringify({ version: 1, runs: this.all() }), from each unchanged run's last text. */
  private serialize(): string {
    const parts: string[] = [];
    for (const run of this.runs.values()) {
      let text = this.texts.get(run);
      if (text === undefined) this.texts.set(run, (text = JSON.stringify(run)));
      parts.push(text);
    }
    return `{"version":1,"runs":[${parts.join(',')}]}`;
  }

  private load(): void {
    // No directory yet: nothing to load (and no failed lookup for fsx to remember).
    if (!statSync(this.dir, '.')) return;
    const r = readJsonSync(this.dir, this.file, FILE_MAX_BYTES);
    if (!r.ok) return;
    const v = r.value as { version?: unknown; runs?: unknown };
    if (!v || v.version !== 1 || !Array.isArray(v.runs)) return;
    for (const raw of v.runs.slice(-MAX_RUNS)) {
      const o = raw as Partial<RunSample> | null;
      if (!o || typeof o.mode !== 'string' || !finite(o.maxIteration) || !finite(o.lastSeenMs)) continue;
      const sid = typeof o.sessionId === 'string' ? o.sessionId : null;
      const started = finite(o.startedMs) ? o.startedMs : null;
      const times = Array.isArray(o.times)
        ? o.times
            .filter((t): t is [number, number] => Array.isArray(t) && finite(t[0]) && finite(t[1]))
            .slice(-MAX_TIMES)
        : [];
      this.runs.set(keyOf(o.mode, sid, started), {
        mode: o.mode.slice(0, 64),
        sessionId: sid,
        startedMs: started,
        maxIteration: o.maxIteration,
        times,
        lastSeenMs: o.lastSeenMs,
        endedMs: finite(o.endedMs) ? o.endedMs : null,
      });
    }
  }
}
