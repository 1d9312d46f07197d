/**
 * OMC 5.5.0's graph runs (`.omc/graph-runs/<runId>/`): the human gates OMC waits on and each run's progress.
 * Watched like every slice of .omc; a run is re-read whole when one of its files changes (a handful of small
 * files), the owner's pid is re-checked on a timer (a SIGKILL changes no file), and every bad file is a
 * problem line while the rest of the run still shows.
 */
import { listDirSync } from '../../io/safe-fs/index.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import type { Clock, Domain, Problem, WatchEvent } from '../types.js';
import { isGraphId } from './files.js';
import { EMPTY_GRAPH, type GraphRunView, type GraphSnapshot } from './model.js';
import { readGraphRun, RUNS_DIR, systemGraphProbe, type GraphProbe } from './run-reader.js';

/** Runs read at most (the newest by name order is not meaningful: every directory is listed, the first N read). */
export const MAX_RUNS = 200;
/** How often a live owner's pid is re-checked. */
export const OWNER_CHECK_MS = 2_000;

const RUN_FILES = new Set(['descriptor.json', 'projection.json', 'owner.lock', 'journal.jsonl', 'approvals']);

export interface GraphDomainOptions {
  root: string;
  clock?: Clock;
  /** false for one-shot reads: no timer. */
  live?: boolean;
  probe?: GraphProbe;
}

export class GraphDomain implements Domain {
  readonly name = 'graph';
  readonly cell = new SnapshotCell<GraphSnapshot>(EMPTY_GRAPH);
  private readonly runs = new Map<string, GraphRunView>();
  private listProblems: Problem[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastKey = '';
  private version = 0;
  private disposed = false;
  private readonly probe: GraphProbe;

  constructor(private readonly opts: GraphDomainOptions) {
    this.probe = opts.probe ?? systemGraphProbe;
  }

  subscribe = (l: () => void) => this.cell.subscribe(l);
  getSnapshot = () => this.cell.getSnapshot();
  problems = (): readonly Problem[] => this.cell.getSnapshot().problems;

  wants(rel: string, isDir: boolean | undefined): boolean {
    if (rel === RUNS_DIR) return isDir !== false;
    if (!rel.startsWith(`${RUNS_DIR}/`)) return false;
    const parts = rel.split('/');
    const name = parts[parts.length - 1] as string;
    if (name.startsWith('.')) return false; // OMC's temp files: the rename that follows is the change
    if (parts.length === 2) return isDir !== false;
    if (parts.length === 3) return RUN_FILES.has(name);
    if (parts.length === 4) return parts[2] === 'approvals' && (name === 'pending' || name === 'decisions');
    return parts.length === 5 && parts[2] === 'approvals' && name.endsWith('.json');
  }

  scan(): void {
    if (this.disposed) return;
    const list = listDirSync(this.opts.root, RUNS_DIR);
    this.listProblems = [];
    const ids: string[] = [];
    if (!list.ok) {
      if (list.code !== 'missing')
        this.listProblems.push({ path: RUNS_DIR, message: list.message, severity: 'warning' });
    } else {
      for (const e of list.entries) if (e.kind === 'dir' && !e.invalidName && isGraphId(e.name)) ids.push(e.name);
      ids.sort();
      if (ids.length > MAX_RUNS)
        this.listProblems.push({
          path: RUNS_DIR,
          message: `${ids.length} graph runs; only ${MAX_RUNS} are read`,
          severity: 'info',
        });
    }
    const keep = new Set(ids.slice(0, MAX_RUNS));
    for (const id of this.runs.keys()) if (!keep.has(id)) this.runs.delete(id);
    for (const id of keep) this.runs.set(id, readGraphRun(this.opts.root, id, this.probe));
    this.publish();
  }

  refresh(events: readonly WatchEvent[]): void {
    if (this.disposed) return;
    const touched = new Set<string>();
    for (const e of events) {
      if (e.rel === '' || e.rel === RUNS_DIR) return this.scan();
      const id = e.rel.split('/')[1];
      if (id !== undefined && isGraphId(id)) touched.add(id);
    }
    for (const id of touched) {
      if (!this.runs.has(id) && this.runs.size >= MAX_RUNS) continue;
      const st = listDirSync(this.opts.root, `${RUNS_DIR}/${id}`);
      if (!st.ok) this.runs.delete(id);
      else this.runs.set(id, readGraphRun(this.opts.root, id, this.probe));
    }
    this.publish();
  }

  /** Re-reads one run now (after omc-top wrote a decision, say), without waiting for the watcher. */
  reread(runId: string): void {
    if (!isGraphId(runId) || this.disposed) return;
    this.refresh([{ type: 'change', rel: `${RUNS_DIR}/${runId}/approvals` }]);
  }

  private publish(): void {
    const runs = [...this.runs.values()].sort((a, b) => b.updatedMs - a.updatedMs || a.runId.localeCompare(b.runId));
    const gates = runs.flatMap((r) => r.gates).sort((a, b) => (a.createdMs ?? 0) - (b.createdMs ?? 0));
    const problems = [...this.listProblems, ...runs.flatMap((r) => r.problems)];
    const key = JSON.stringify([runs, problems]);
    this.ensureTimer(runs);
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.version += 1;
    this.cell.set({ version: this.version, runs, gates, problems });
  }

  /** A live owner is re-checked on a timer: its death (SIGKILL) writes nothing the watcher could see. */
  private ensureTimer(runs: readonly GraphRunView[]): void {
    if (this.opts.live === false) return;
    const owned = runs.some((r) => r.owner !== null && r.owner.alive !== 'dead');
    if (owned && !this.timer) {
      this.timer = setInterval(() => {
        if (this.disposed) return;
        for (const r of this.runs.values())
          if (r.owner && r.owner.alive !== 'dead')
            this.runs.set(r.runId, readGraphRun(this.opts.root, r.runId, this.probe));
        this.publish();
      }, OWNER_CHECK_MS);
      this.timer.unref();
    } else if (!owned && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** The `graph_runs` key of `--json`. */
  report(): Record<string, unknown> {
    const snap = this.cell.getSnapshot();
    return {
      graph_runs: snap.runs.map((r) => ({
        run_id: r.runId,
        path: r.rel,
        state: r.state,
        state_text: r.stateText,
        revision_id: r.revisionId,
        epoch: r.epoch,
        activations: r.byState,
        nodes: r.nodes.map((n) => ({ id: n.id, title: n.title, kind: n.kind, state: n.state })),
        last_transitions: r.lastTransitions.map((t) => ({
          seq: t.seq,
          node: t.nodeId,
          activation: t.activationId,
          outcome: t.outcome,
        })),
        owner: r.owner ? { pid: r.owner.pid, epoch: r.owner.epoch, alive: r.owner.alive } : null,
        approval_timeout: r.timeout.text,
        gates: r.gates.map((g) => ({
          activation_id: g.activationId,
          node: g.nodeId,
          prompt: g.prompt,
          created_at: g.createdMs === null ? null : new Date(g.createdMs).toISOString(),
          decided: g.decided,
        })),
      })),
    };
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
