/**
 * One reader of Claude Code's registry for many Claude domains (the projects of
 * `omc-top --all`): every project's domain would otherwise set its own watch on
 * `sessions/`, re-read every entry on each event, and ask every registered
 * process on its own liveness tick — the same files and the same /proc reads
 * once per project. Here the registry is read once per event, the liveness tick
 * runs once, and within one tick a process is asked once: every domain that
 * asks again gets that answer. The domains still judge, remember departures
 * and follow transcripts each for itself (what they show is their own).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { StartIdentity } from '../../io/process-start.js';
import type { ClaudeConfigDir } from './config-dir.js';
import { systemProbe, type LivenessProbe } from './process-status.js';
import { readRegistry, type RegistryEntry, type RegistryRead } from './registry.js';
import { pluginDirsOf } from './plugin-dir.js';

/**
 * How often the liveness tick runs: a registry directory that is not there yet, a transcript folder without its
 * watch, and a process that could not be held (judged by path) are tried again this often.
 */
export const LIVENESS_MS = 2_000;

/**
 * How often a process held open and seen running is asked again. A clean exit (/exit, SIGTERM, SIGHUP) removes
 * its registry entry, a file event seen at once; only a SIGKILL or a crash leaves the entry, and only this check
 * finds it: such a Claude is shown gone within this long. Each check is one read per process: 200 of them cost
 * 0.34 ms back to back but ~0.8 ms every 2 s (cold caches), ~24 ms of CPU a minute, most of the registry's idle cost.
 */
export const HELD_CHECK_MS = 10_000;

/** Liveness ticks from one check of the held processes to the next. */
export const HELD_CHECK_TICKS = Math.max(1, Math.round(HELD_CHECK_MS / LIVENESS_MS));

export interface RegistryFollower {
  /** The registry was read again (an entry was written, added or removed): `current()` is the new read. */
  registry(): void;
  /**
   * A liveness tick: ask the probe again (answers are shared until the next tick or read). `heldCheck`: this tick
   * asks the processes held open too (every HELD_CHECK_MS, the same tick for every follower, so each is asked once).
   */
  tick(heldCheck: boolean): void;
}

export class SharedRegistry {
  readonly dir: string;
  /** The probe every follower judges with: its answers hold until the next tick or registry read. */
  readonly probe: LivenessProbe;
  private readonly base: LivenessProbe;
  private last: RegistryRead | null = null;
  private readonly followers = new Set<RegistryFollower>();
  private readonly running = new Map<string, boolean | null>();
  private readonly identities = new Map<number, StartIdentity>();
  private readonly pluginDirs = new Map<string, readonly string[] | null>();
  private watcher: fs.FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reread: NodeJS.Timeout | null = null;
  private closed = false;
  private ticks = 0;

  constructor(config: ClaudeConfigDir, opts: { probe?: LivenessProbe } = {}) {
    this.dir = config.dir;
    this.base = opts.probe ?? systemProbe();
    const holds = this.base.holds;
    this.probe = {
      pidDomain: this.base.pidDomain,
      startIdentity: (pid) => {
        if (!this.identities.has(pid)) this.identities.set(pid, this.base.startIdentity(pid));
        return this.identities.get(pid) as StartIdentity;
      },
      holds: holds && {
        hold: (pid, identity) => holds.hold(pid, identity),
        stillRunning: (pid, identity) => {
          const key = `${pid}:${identity}`;
          if (!this.running.has(key)) this.running.set(key, holds.stillRunning(pid, identity));
          return this.running.get(key) as boolean | null;
        },
        // The processes held are the registry's: this reader lets go of the others after each read.
        retain: () => undefined,
      },
    };
  }

  /** The last read (read now if there was none). */
  current(): RegistryRead {
    if (!this.last) this.read();
    return this.last as RegistryRead;
  }

  /**
   * A process's --plugin-dir directories: its command line cannot change, so it is read once per process for every
   * project (the release in a directory can: that is each project's look, session-installs.ts).
   */
  pluginDirsFor(e: Pick<RegistryEntry, 'pid' | 'procStart' | 'cwd'>): readonly string[] | null {
    const key = `${e.pid}:${e.procStart}`;
    if (!this.pluginDirs.has(key)) this.pluginDirs.set(key, pluginDirsOf(e.pid, e.cwd));
    return this.pluginDirs.get(key) ?? null;
  }

  /** Calls `f` after every read and tick from now on (the watch and the tick start with the first follower). */
  follow(f: RegistryFollower): () => void {
    this.followers.add(f);
    this.startWatching();
    return () => this.followers.delete(f);
  }

  private read(): void {
    this.forget();
    this.last = readRegistry(this.dir);
    const pids = new Set(this.last.entries.map((e) => e.pid));
    this.base.holds?.retain(pids);
    const live = new Set(this.last.entries.map((e) => `${e.pid}:${e.procStart}`));
    for (const k of this.pluginDirs.keys()) if (!live.has(k)) this.pluginDirs.delete(k);
  }

  /** A new tick or read: every process is asked again. */
  private forget(): void {
    this.running.clear();
    this.identities.clear();
  }

  private notify(what: 'registry' | 'tick'): void {
    const heldCheck = what === 'tick' && this.ticks % HELD_CHECK_TICKS === 0;
    for (const f of [...this.followers]) if (!this.closed) f[what](heldCheck);
  }

  private startWatching(): void {
    if (this.closed) return;
    this.watch();
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), LIVENESS_MS);
      this.timer.unref();
    }
  }

  private tick(): void {
    if (this.closed) return;
    // The sessions/ directory may appear later (the first CLI start): watch it then, and read what it holds.
    if (!this.watcher && this.watch()) {
      this.read();
      this.notify('registry');
    }
    this.forget();
    this.ticks += 1;
    this.notify('tick');
  }

  /** Returns true when a new watch was set up. */
  private watch(): boolean {
    if (this.watcher || this.closed) return false;
    try {
      const w = fs.watch(path.join(this.dir, 'sessions'), { persistent: false }, () => {
        // Coalesce a burst (a status change rewrites the file: several events), as one read for every follower.
        if (this.reread) return;
        this.reread = setTimeout(() => {
          this.reread = null;
          if (this.closed) return;
          this.read();
          this.notify('registry');
        }, 25);
      });
      w.on('error', () => {
        w.close();
        if (this.watcher === w) this.watcher = null; // the tick sets it up again
      });
      this.watcher = w;
      return true;
    } catch {
      return false; // not there yet: the tick tries again
    }
  }

  close(): void {
    this.closed = true;
    this.followers.clear();
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearInterval(this.timer);
    if (this.reread) clearTimeout(this.reread);
    this.base.holds?.retain(new Set());
  }
}
