/**
 * Claude Code's background jobs (`claude --bg`, 2.1.332, observed offline:
 * /work/notes/claude-2.1.332-protocols.md §5): one `jobs/<short>/state.json`
 * per job under the config dir — `state` (working, blocked, done, failed,
 * stopped: a classifier's verdict, the last "stopped" is the CLI's own),
 * `detail`, the prompt (`intent`), its session id and cwd, when it was made
 * and last updated. The directory is the machine's (every project's jobs):
 * one reader follows it, for one project (bg-jobs.ts) or for every project
 * of a fleet. Read-only, through the safe read path; one fs.watch on `jobs/`
 * and one per job directory while live. Before any `--bg` job has run there is
 * no `jobs/`: the config directory is watched for its creation instead (an
 * event, where a 10 s re-listing used to run all day); only a config directory
 * that is itself missing is looked at again now and then.
 */
import { obj } from '../../io/json.js';
import fs from 'node:fs';
import path from 'node:path';
import { LastGoodFile } from '../../io/last-good.js';
import { listDirSync, parseJsonText, statSync } from '../../io/safe-fs/index.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import { CLAUDE_DIR_READ, type ClaudeConfigDir } from './config-dir.js';

export const MAX_JOBS = 64;
const JOB_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface BgJob {
  id: string;
  state: string;
  detail: string | null;
  prompt: string;
  sessionId: string | null;
  cwd: string | null;
  createdMs: number | null;
  updatedMs: number | null;
  /** When it last reached an end state (done, failed, stopped). */
  endedMs: number | null;
  /** The classifier asked for the user (its `needs`), when blocked. */
  needs: string | null;
}

const text = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim() !== '' ? truncate(cleanLine(v).trim(), max) : null;
const time = (v: unknown) => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : null;
};

export function parseJobState(id: string, v: unknown): { ok: true; value: BgJob } | { ok: false; problem: string } {
  const o = obj(v);
  if (!o) return { ok: false, problem: 'not a JSON object (Claude Code writes {state, detail, intent, sessionId, …})' };
  const state = text(o.state, 30);
  if (!state) return { ok: false, problem: '"state" is missing' };
  return {
    ok: true,
    value: {
      id,
      state,
      detail: text(o.detail, 200),
      prompt: text(o.intent, 300) ?? '',
      sessionId: text(o.sessionId, 80),
      cwd: typeof o.cwd === 'string' && path.isAbsolute(o.cwd) ? o.cwd : null,
      createdMs: time(o.createdAt),
      updatedMs: time(o.updatedAt),
      endedMs: time(o.lastTerminalAt) ?? time(o.firstTerminalAt),
      needs: text(o.needs, 200),
    },
  };
}

/** A directory watch: `on` gets the entry an event names (null when the platform does not say). */
export type WatchDir = (dir: string, on: (name: string | null) => void) => Pick<fs.FSWatcher, 'close' | 'on'>;

const watchDir: WatchDir = (dir, on) =>
  fs.watch(dir, { persistent: false }, (_type, name) => on(typeof name === 'string' ? name : null));

/** How often a missing config directory is looked at again (the only case left without an event). */
export const NO_CONFIG_DIR_POLL_MS = 10_000;

export class BgJobsReader {
  readonly dir: string;
  /** Every job's state file by job id (at most MAX_JOBS), each kept by the last-good rule. */
  readonly files = new Map<string, LastGoodFile<BgJob>>();
  private watchers = new Map<string, Pick<fs.FSWatcher, 'close' | 'on'>>();
  /** On the config directory while it has no `jobs/` (one is made with the first `--bg` job). */
  private parentWatch: Pick<fs.FSWatcher, 'close' | 'on'> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;
  private readonly listeners = new Set<() => void>();
  private readonly watchImpl: WatchDir;

  constructor(private readonly opts: { config: ClaudeConfigDir; live?: boolean; watch?: WatchDir }) {
    this.dir = opts.config.dir;
    this.watchImpl = opts.watch ?? watchDir;
  }

  /** Calls `l` after every read; returns the way to stop. */
  onChange(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** `only`: the job whose directory an event named (null: list `jobs/` again). */
  read(only: string | null): void {
    if (this.disposed) return;
    const dir = this.dir;
    if (only === null) {
      const list = listDirSync(dir, 'jobs', CLAUDE_DIR_READ);
      const ids = list.ok
        ? list.entries
            .filter((e) => e.kind === 'dir' && !e.invalidName && JOB_ID.test(e.name))
            .map((e) => e.name)
            .slice(0, MAX_JOBS)
        : [];
      // jobs/ itself gone: its watch is dead, and one made again must be watched afresh.
      if (!list.ok && list.code === 'missing') this.unwatch('');
      for (const id of [...this.files.keys()])
        if (!ids.includes(id)) {
          this.files.delete(id);
          this.watchers.get(id)?.close();
          this.watchers.delete(id);
        }
      for (const id of ids)
        if (!this.files.has(id))
          this.files.set(
            id,
            new LastGoodFile(dir, `jobs/${id}/state.json`, {
              ...CLAUDE_DIR_READ,
              parse: (r) => {
                const j = parseJsonText(r.text, r);
                return j.ok ? parseJobState(id, j.value) : { ok: false, problem: j.message };
              },
            }),
          );
      for (const f of this.files.values()) f.readIfChanged('scan');
      if (this.opts.live !== false) this.watchAll(ids);
    } else this.files.get(only)?.read('trailing');
    for (const l of [...this.listeners]) l();
  }

  private watchAll(ids: string[]): void {
    this.watch('', () => this.read(null));
    for (const id of ids) this.watch(id, () => this.read(id));
    if (this.watchers.has('')) this.stopAwaiting();
    else this.awaitJobsDir();
  }

  /** No `jobs/` yet (no --bg job ever ran): its creation in the config directory is an event. */
  private awaitJobsDir(): void {
    if (this.parentWatch || this.timer || this.disposed) return;
    try {
      const w = this.watchImpl(this.dir, (name) => {
        if (name === null || name === 'jobs') this.read(null);
      });
      w.on('error', () => {
        w.close();
        if (this.parentWatch !== w) return;
        this.parentWatch = null;
        // The config directory went away under its watch: back to looking now and then.
        this.pollForJobsDir();
      });
      this.parentWatch = w;
    } catch {
      // The config directory itself is missing: look again now and then.
      this.pollForJobsDir();
      return;
    }
    // Made after the listing but before this watch: no event will name it, so it is looked for once now.
    if (statSync(this.dir, 'jobs')?.isDirectory()) this.read(null);
  }

  private pollForJobsDir(): void {
    if (this.timer || this.disposed) return;
    this.timer = setInterval(() => {
      if (!this.watchers.has('')) this.read(null);
    }, NO_CONFIG_DIR_POLL_MS);
    this.timer.unref();
  }

  private stopAwaiting(): void {
    this.parentWatch?.close();
    this.parentWatch = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private watch(id: string, on: () => void): void {
    if (this.watchers.has(id) || this.disposed) return;
    try {
      const w = this.watchImpl(path.join(this.dir, 'jobs', id), () => on());
      w.on('error', () => this.unwatch(id));
      this.watchers.set(id, w);
    } catch {
      /* not there yet */
    }
  }

  private unwatch(id: string): void {
    this.watchers.get(id)?.close();
    this.watchers.delete(id);
  }

  dispose(): void {
    this.listeners.clear();
    this.disposed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.stopAwaiting();
  }
}
