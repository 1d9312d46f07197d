/**
 * Claude Code's background jobs (`claude --bg`, 2.1.332, observed offline:
 * /work/notes/claude-2.1.332-protocols.md §5): one `jobs/<short>/state.json`
 * per job under the config dir — `state` (working, blocked, done, failed,
 * stopped: a classifier's verdict, the last "stopped" is the CLI's own),
 * `detail`, the prompt (`intent`), its session id and cwd, when it was made
 * and last updated. The directory is the machine's (every project's jobs):
 * one reader follows it, for one project (bg-jobs.ts) or for every project
 * of a fleet. Read-only, through the safe read path; one fs.watch on `jobs/`
 * and one per job directory while live.
 */
import { obj } from '../../io/json.js';
import fs from 'node:fs';
import path from 'node:path';
import { LastGoodFile } from '../../io/last-good.js';
import { listDirSync, parseJsonText } from '../../io/safe-fs/index.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import type { ClaudeConfigDir } from './config-dir.js';

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

export class BgJobsReader {
  readonly dir: string;
  /** Every job's state file by job id (at most MAX_JOBS), each kept by the last-good rule. */
  readonly files = new Map<string, LastGoodFile<BgJob>>();
  private watchers = new Map<string, fs.FSWatcher>();
  private timer: NodeJS.Timeout | null = null;
  private disposed = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly opts: { config: ClaudeConfigDir; live?: boolean }) {
    this.dir = opts.config.dir;
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
      const list = listDirSync(dir, 'jobs');
      const ids = list.ok
        ? list.entries
            .filter((e) => e.kind === 'dir' && !e.invalidName && JOB_ID.test(e.name))
            .map((e) => e.name)
            .slice(0, MAX_JOBS)
        : [];
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
    if (!this.timer && !this.watchers.has('')) {
      // No jobs/ directory yet (no --bg job ever ran): look again now and then.
      this.timer = setInterval(() => {
        if (!this.watchers.has('')) this.read(null);
      }, 10_000);
      this.timer.unref();
    }
  }

  private watch(id: string, on: () => void): void {
    if (this.watchers.has(id) || this.disposed) return;
    try {
      const w = fs.watch(path.join(this.dir, 'jobs', id), { persistent: false }, () => on());
      w.on('error', () => {
        w.close();
        this.watchers.delete(id);
      });
      this.watchers.set(id, w);
    } catch {
      /* not there yet */
    }
  }

  dispose(): void {
    this.listeners.clear();
    this.disposed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.timer) clearInterval(this.timer);
  }
}
