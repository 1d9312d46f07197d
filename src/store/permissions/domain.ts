/**
 * The permission requests the hook hands to omc-top (protocol.ts), for this project: read from omc-top's own
 * state directory (outside the .omc root: its own watches and timer), validated and sanitised. A listening
 * monitor (the full-screen app, not --readonly) registers itself, so the hook asks only while one runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runningStartIdentity, ownStartIdentity, type StartIdentity } from '../../io/process-start.js';
import {
  atomicWriteSync,
  ensureDirUnder,
  ensureOwnDir,
  listDirSync,
  ownDirFault,
  isDirectorySync,
  ownDirProblem,
  readJsonSync,
  unlinkUnder,
} from '../../io/safe-fs/index.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import type { Clock, Domain, Problem } from '../types.js';
import { askerRegistry } from './asker-registry.js';
import { claudeGone, isLive } from './liveness.js';
import { subjectOf } from './subject.js';
import { EMPTY_PERMISSIONS, type PermissionRequestView, type PermissionsSnapshot, type ReceiptView } from './model.js';
import {
  ANSWERS,
  FILE_MAX_BYTES,
  LISTENERS,
  PERMISSIONS_DIR,
  RECEIPTS,
  REQUESTS,
  ReceiptSchema,
  RequestSchema,
  alwaysRefusal,
  idOfName,
  inProject,
  requestDigest,
} from './protocol.js';

/** Receipts older than this are not shown and are removed by a listening monitor. */
/** "Always" offered, or why not (alwaysRefusal): worked out once per request read. */
function alwaysOf(
  toolName: string,
  input: Record<string, unknown>,
): { alwaysOffered: boolean; alwaysRefused: string | null } {
  const alwaysRefused = alwaysRefusal(toolName, input);
  return { alwaysOffered: alwaysRefused === null, alwaysRefused };
}

export const RECEIPT_KEEP_MS = 10 * 60_000;
/** How often pending requests are re-judged (expiry, the hook's life). */
export const TICK_MS = 1_000;
/** Requests read at most. */
const MAX_REQUESTS = 200;

export interface PermissionsDomainOptions {
  stateDir: string;
  projectDir: string | null;
  clock?: Clock;
  live?: boolean;
  /** Register as a monitor that answers (the hook asks only then). */
  listen?: boolean;
  /**
   * The store's state-dir domain says when the state directory itself is unusable (with what stops working, the
   * permission listener included): this domain then adds no second line on the same fault.
   */
  stateDirSaidElsewhere?: boolean;
  startIdentity?: (pid: number) => StartIdentity;
  /**
   * Where Claude's registry is (whether the Claude that asked still runs); process.env when absent. A function: the
   * directory a running monitor reads now (config-look.ts).
   */
  claudeEnv?: NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv);
}

export class PermissionsDomain implements Domain {
  readonly name = 'permissions';
  readonly cell = new SnapshotCell<PermissionsSnapshot>(EMPTY_PERMISSIONS);
  private readonly clock: Clock;
  private readonly startIdentity: (pid: number) => StartIdentity;
  private watchers = new Map<string, fs.FSWatcher>();
  /** While REQUESTS or RECEIPTS is not there: a watch on the nearest directory above, for them to appear. */
  private above: { dir: string; w: fs.FSWatcher } | null = null;
  private timer: NodeJS.Timeout | null = null;
  private listening = false;
  /** Why the last registration failed: the path it is about and the reason, for the problem line. */
  private notListening: { path: string; reason: string } | null = null;
  private listenerRel: string | null = null;
  private lastKey = '';
  private version = 0;
  private disposed = false;

  constructor(private readonly opts: PermissionsDomainOptions) {
    this.clock = opts.clock ?? Date.now;
    this.startIdentity = opts.startIdentity ?? runningStartIdentity;
  }

  get stateDir(): string {
    return this.opts.stateDir;
  }

  subscribe = (l: () => void) => this.cell.subscribe(l);
  getSnapshot = () => this.cell.getSnapshot();
  problems = (): readonly Problem[] => this.cell.getSnapshot().problems;
  private claudeEnv(): NodeJS.ProcessEnv {
    const e = this.opts.claudeEnv;
    return typeof e === 'function' ? e() : (e ?? process.env);
  }
  wants(): boolean {
    return false;
  }
  refresh(): void {}

  scan(): void {
    if (this.disposed) return;
    if (this.opts.listen && !this.listening) this.register();
    this.read();
    if (this.opts.live !== false) this.watch();
  }

  /** Writes this monitor's listener file (omc-top's own state dir only). */
  private register(): void {
    const project = this.opts.projectDir;
    if (!project) return;
    try {
      ensureOwnDir(this.opts.stateDir);
      for (const d of [LISTENERS, REQUESTS, ANSWERS, RECEIPTS]) ensureDirUnder(this.opts.stateDir, d, 'private');
      const own = ownStartIdentity();
      this.listenerRel = `${LISTENERS}/${process.pid}.json`;
      atomicWriteSync(
        this.opts.stateDir,
        this.listenerRel,
        JSON.stringify({
          v: 1,
          pid: process.pid,
          proc_start: typeof own === 'string' && own !== 'absent' ? own : null,
          project_dir: path.resolve(project),
          started_at: this.clock(),
        }),
      );
      this.listening = true;
      this.notListening = null;
    } catch (e) {
      this.listening = false; // the hook then leaves every prompt to the terminal; `problems` says why
      this.notListening = ownDirProblem(this.opts.stateDir, e);
    }
  }

  /** The state directory itself is unusable and the store's state-dir domain says so (a few system calls, asked only on a fault). */
  private dirSaidElsewhere(): boolean {
    return this.opts.stateDirSaidElsewhere === true && ownDirFault(this.opts.stateDir) !== null;
  }

  private hookAlive(pid: number, start: string | null): boolean {
    return isLive(this.startIdentity, pid, start);
  }

  private read(): void {
    const dir = this.opts.stateDir;
    const now = this.clock();
    const problems: Problem[] = [];
    const unregistered = this.opts.listen === true && !this.listening;
    if (unregistered && !this.dirSaidElsewhere())
      problems.push({
        // The path the failure is about (the file in the way of the state directory, the full or read-only one).
        path: this.notListening?.path ?? `${dir}/${LISTENERS}`,
        message: `${this.notListening ? `${this.notListening.reason}; ` : ''}cannot register as a listener: permission prompts stay in Claude’s terminal`,
        severity: 'warning',
      });
    const requests: PermissionRequestView[] = [];
    const list = listDirSync(dir, REQUESTS);
    if (list.ok) {
      for (const e of list.entries.slice(0, MAX_REQUESTS * 2)) {
        const id = idOfName(e.name);
        if (e.kind !== 'file' || id === null) continue;
        const rel = `${REQUESTS}/${e.name}`;
        const r = readJsonSync(dir, rel, FILE_MAX_BYTES);
        if (!r.ok) {
          if (r.code !== 'missing') problems.push({ path: `${dir}/${rel}`, message: r.message, severity: 'warning' });
          continue;
        }
        const p = RequestSchema.safeParse(r.value);
        if (!p.success || p.data.id !== id) {
          problems.push({
            path: `${dir}/${rel}`,
            message: 'not a request the hook writes; ignored',
            severity: 'warning',
          });
          continue;
        }
        const f = p.data;
        const { digest, ...rest } = f;
        if (requestDigest(rest) !== digest) {
          problems.push({
            path: `${dir}/${rel}`,
            message: 'its digest does not match its content; ignored',
            severity: 'warning',
          });
          continue;
        }
        if (this.opts.projectDir && !inProject(this.opts.projectDir, f.cwd)) continue;
        const alive = this.hookAlive(f.hook_pid, f.hook_start);
        // A request whose hook is gone is left behind by a killed hook: nobody waits on it.
        if (!alive || f.expires_at <= now) {
          if (this.listening) this.sweep(id);
          continue;
        }
        // Nor on one whose Claude is gone: its hook may still wait (orphaned by a SIGKILL), but no answer would
        // reach anyone. Not offered; the hook sees it too and ends with its receipt, which removes the file.
        if (claudeGone(askerRegistry(f, this.claudeEnv()), f, this.startIdentity)) continue;
        requests.push({
          id,
          sessionId: f.session_id,
          cwd: f.cwd,
          toolName: truncate(cleanLine(f.tool_name), 60),
          ...subjectOf(f.tool_name, f.tool_input),
          createdMs: f.created_at,
          expiresMs: f.expires_at,
          claudePid: f.claude_pid,
          ...alwaysOf(f.tool_name, f.tool_input),
          hookAlive: alive,
          file: f,
        });
      }
    } else if (list.code !== 'missing') {
      // A file in the way of the state directory itself: named once, as itself, not as a requests/ that is not there.
      const fault = list.code === 'not-a-file' ? ownDirFault(dir) : null;
      if (fault?.code !== 'ENOTDIR')
        problems.push({ path: `${dir}/${REQUESTS}`, message: list.message, severity: 'warning' });
      else if (!unregistered && !this.dirSaidElsewhere())
        problems.push({
          path: fault.path,
          message: `${fault.reason}: permission requests cannot be read`,
          severity: 'warning',
        });
    }
    requests.sort((a, b) => a.createdMs - b.createdMs);

    const receipts = new Map<string, ReceiptView>();
    const rl = listDirSync(dir, RECEIPTS);
    if (rl.ok)
      for (const e of rl.entries) {
        const id = idOfName(e.name);
        if (e.kind !== 'file' || id === null) continue;
        const r = readJsonSync(dir, `${RECEIPTS}/${e.name}`, 4096);
        const p = r.ok ? ReceiptSchema.safeParse(r.value) : null;
        if (!p?.success || p.data.id !== id) continue;
        if (now - p.data.at > RECEIPT_KEEP_MS) {
          if (this.listening) this.sweepReceipt(e.name);
          continue;
        }
        receipts.set(id, {
          id,
          outcome: p.data.outcome,
          detail: truncate(cleanLine(p.data.detail), 200),
          atMs: p.data.at,
        });
      }
    this.publish(requests.slice(0, MAX_REQUESTS), receipts, problems);
  }

  private sweep(id: string): void {
    for (const rel of [`${REQUESTS}/${id}.json`, `${ANSWERS}/${id}.json`])
      try {
        unlinkUnder(this.opts.stateDir, rel);
      } catch {
        /* best effort */
      }
  }
  private sweepReceipt(name: string): void {
    try {
      unlinkUnder(this.opts.stateDir, `${RECEIPTS}/${name}`);
    } catch {
      /* best effort */
    }
  }

  private publish(requests: PermissionRequestView[], receipts: Map<string, ReceiptView>, problems: Problem[]): void {
    const key = JSON.stringify([
      requests.map((r) => [r.id, r.hookAlive]),
      [...receipts.values()].map((r) => [r.id, r.outcome]),
      problems,
      this.listening,
    ]);
    this.ensureTimer(requests.length > 0);
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.version += 1;
    this.cell.set({ version: this.version, requests, receipts, problems, listening: this.listening });
  }

  /** Re-reads now (after omc-top wrote an answer, say). */
  reread(): void {
    if (!this.disposed) this.read();
  }

  private watch(): void {
    let missing = false;
    for (const rel of [REQUESTS, RECEIPTS]) {
      if (this.watchers.has(rel)) continue;
      try {
        const w = fs.watch(path.join(this.opts.stateDir, rel), { persistent: false }, () => this.read());
        w.on('error', () => {
          w.close();
          this.watchers.delete(rel);
        });
        this.watchers.set(rel, w);
      } catch {
        missing = true;
      }
    }
    this.watchAbove(missing);
  }

  /**
   * The directories are not there yet: no monitor that answers has run with this state directory since it was made
   * (its registration makes them). A store that does not listen (`watch --json`, what a `--host` fleet reads; a
   * `--readonly` monitor) would then never see the prompts the first such monitor takes: the nearest directory above
   * them that exists (the state directory, or one above it on a fresh machine) is watched until they appear, and only
   * for the name on the way down to them (other files come and go beside them).
   */
  private watchAbove(missing: boolean): void {
    if (!missing) {
      this.above?.w.close();
      this.above = null;
      return;
    }
    let dir = path.join(this.opts.stateDir, PERMISSIONS_DIR);
    let names = [REQUESTS, RECEIPTS].map((r) => path.basename(r));
    while (!isDirectorySync(dir)) {
      const up = path.dirname(dir);
      if (up === dir) return;
      names = [path.basename(dir)];
      dir = up;
    }
    if (this.above?.dir === dir) return;
    this.above?.w.close();
    this.above = null;
    try {
      const w = fs.watch(dir, { persistent: false }, (_e, name) => {
        if (this.disposed || (name !== null && !names.includes(name.toString()))) return;
        this.watch();
        this.read();
      });
      w.on('error', () => {
        w.close();
        if (this.above?.w === w) this.above = null;
      });
      this.above = { dir, w };
    } catch {
      /* gone meanwhile: the next scan looks again */
      return;
    }
    // Made between the look and the watch (`mkdir -p` makes a chain at once): no event will say so, so look again.
    if (names.some((n) => isDirectorySync(path.join(dir, n)))) this.watch();
  }

  /** While requests are pending: expiries pass and hooks end without any file event in their directory. */
  private ensureTimer(pending: boolean): void {
    if (this.opts.live === false) return;
    if (pending && !this.timer) {
      this.timer = setInterval(() => {
        this.watch();
        this.read();
      }, TICK_MS);
      this.timer.unref();
    } else if (!pending && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.above?.w.close();
    this.above = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.listenerRel)
      try {
        unlinkUnder(this.opts.stateDir, this.listenerRel);
      } catch {
        /* best effort: the hook checks the pid anyway */
      }
    this.listenerRel = null;
    this.listening = false;
  }
}
