/**
 * Reads one graph run directory (`graph-runs/<runId>/`) into a view: the gates OMC waits on, the activations by
 * state, the last transitions, the owner lock and whether its pid lives, the timeout the owner was started with.
 * Every file through the safe read path; every string sanitised; a bad file is a problem line, not an error.
 */
import { listDirSync, readJsonSync, readRangeSync } from '../../io/safe-fs/index.js';
import { cleanBlock, cleanLine, truncate } from '../../io/sanitize.js';
import { processArgv } from '../../io/process-argv.js';
import { runningStartIdentity, type StartIdentity } from '../../io/process-start.js';
import type { Problem } from '../types.js';
import {
  ACTIVATION_STATES,
  DecisionSchema,
  DescriptorSchema,
  JournalLineSchema,
  OwnerLockSchema,
  PendingSchema,
  ProjectionSchema,
  describeIssue,
  isGraphId,
  type ActivationState,
  type DescriptorFile,
  type ProjectionFile,
} from './files.js';
import type { GateView, GraphRunView, OwnerView, RunState, TimeoutPolicy, TransitionView } from './model.js';

export const RUNS_DIR = 'graph-runs';
/** Transitions kept for the view. */
export const KEEP_TRANSITIONS = 8;
/** Pending files read per run at most (OMC keeps one at a time; more is not OMC's doing). */
const MAX_PENDING = 64;
const JOURNAL_TAIL_BYTES = 64 * 1024;
const SMALL = 1024 * 1024;

export interface GraphProbe {
  startIdentity(pid: number): StartIdentity;
  argv(pid: number): string[] | null;
}
export const systemGraphProbe: GraphProbe = { startIdentity: runningStartIdentity, argv: processArgv };

const timeOf = (iso: string | undefined): number | null => {
  if (typeof iso !== 'string') return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
};

function readSchema<T>(
  root: string,
  rel: string,
  parse: (v: unknown) => { success: true; data: T } | { success: false; error: import('zod').ZodError },
  problems: Problem[],
  maxBytes = SMALL,
): { value: T; mtimeMs: number } | null {
  const r = readJsonSync(root, rel, maxBytes);
  if (!r.ok) {
    if (r.code !== 'missing') problems.push({ path: rel, message: r.message, severity: 'warning' });
    return null;
  }
  const p = parse(r.value);
  if (!p.success) {
    problems.push({ path: rel, message: `not the shape OMC writes (${describeIssue(p.error)})`, severity: 'warning' });
    return null;
  }
  return { value: p.data, mtimeMs: r.read.mtimeMs };
}

/** The approval timeout from a live `omc graph run` command line; OMC records it nowhere else. */
export function timeoutFromArgv(argv: string[] | null, pid: number): TimeoutPolicy {
  const unknown = (why: string): TimeoutPolicy => ({ known: false, seconds: null, policy: 'denied', text: why });
  if (!argv) return unknown(`unknown (cannot read the command line of pid ${pid})`);
  const g = argv.indexOf('graph');
  if (g < 0 || argv[g + 1] !== 'run') return unknown(`unknown (pid ${pid} is not an \`omc graph run\` process)`);
  const flag = (name: string): string | null => {
    for (let i = g + 2; i < argv.length; i++) {
      const a = argv[i] as string;
      if (a === name) return argv[i + 1] ?? null;
      if (a.startsWith(`${name}=`)) return a.slice(name.length + 1);
    }
    return null;
  };
  const t = flag('--approval-timeout');
  const policy = flag('--approval-timeout-policy') === 'approve' ? 'approved' : 'denied';
  const seconds = t !== null && Number.isFinite(Number(t)) && Number(t) > 0 ? Number(t) : null;
  return seconds === null
    ? { known: true, seconds: null, policy, text: 'no timeout: OMC waits until someone decides' }
    : { known: true, seconds, policy, text: `${policy} by OMC after ${seconds} s without a decision` };
}

function ownerOf(lock: { pid: number; epoch: number; timestamp: number }, probe: GraphProbe): OwnerView {
  const id = probe.startIdentity(lock.pid);
  return {
    pid: lock.pid,
    epoch: lock.epoch,
    sinceMs: lock.timestamp,
    alive: id === 'absent' ? 'dead' : id === null ? 'unknown' : 'alive',
  };
}

function readJournalTail(root: string, rel: string, problems: Problem[]): { last: TransitionView[]; total: number } {
  const r = readRangeSync(root, rel, (size) => Math.max(0, size - JOURNAL_TAIL_BYTES), JOURNAL_TAIL_BYTES);
  if (!r.ok) {
    if (r.code !== 'missing') problems.push({ path: rel, message: r.message, severity: 'warning' });
    return { last: [], total: 0 };
  }
  let lines = r.bytes.toString('utf8').split('\n');
  if (r.from > 0) lines = lines.slice(1); // the first line of a tail read may be cut
  const out: TransitionView[] = [];
  let bad = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      bad++;
      continue;
    }
    const p = JournalLineSchema.safeParse(v);
    if (!p.success) {
      bad++;
      continue;
    }
    const t = p.data.transition;
    out.push({
      seq: p.data.seq,
      epoch: p.data.epoch,
      nodeId: truncate(cleanLine(t.node_id), 128),
      activationId: truncate(cleanLine(t.activation_id), 140),
      outcome: truncate(cleanLine(t.outcome), 40),
    });
  }
  if (bad > 0)
    problems.push({
      path: rel,
      message: `${bad} line${bad === 1 ? '' : 's'} OMC would not accept (a torn or foreign line makes OMC stop the run with exit 20)`,
      severity: 'warning',
    });
  const total = out.length > 0 ? (out[out.length - 1] as TransitionView).seq + 1 : 0;
  return { last: out.slice(-KEEP_TRANSITIONS), total };
}

function readGates(
  root: string,
  rel: string,
  runId: string,
  titles: Map<string, string | null>,
  problems: Problem[],
): GateView[] {
  const list = listDirSync(root, `${rel}/approvals/pending`);
  if (!list.ok) {
    if (list.code !== 'missing')
      problems.push({ path: `${rel}/approvals/pending`, message: list.message, severity: 'warning' });
    return [];
  }
  const gates: GateView[] = [];
  const names = list.entries
    .filter((e) => e.kind === 'file' && !e.invalidName && e.name.endsWith('.json') && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort()
    .slice(0, MAX_PENDING);
  for (const name of names) {
    const act = name.slice(0, -'.json'.length);
    const pendingRel = `${rel}/approvals/pending/${name}`;
    if (!isGraphId(act)) {
      problems.push({ path: pendingRel, message: 'not an activation id OMC makes; ignored', severity: 'warning' });
      continue;
    }
    const p = readSchema(root, pendingRel, (v) => PendingSchema.safeParse(v), problems);
    if (!p) continue;
    if (p.value.run_id !== runId || p.value.activation_id !== act) {
      problems.push({
        path: pendingRel,
        message: `names run ${cleanLine(p.value.run_id)} / ${cleanLine(p.value.activation_id)}, not its own directory and file name; ignored`,
        severity: 'warning',
      });
      continue;
    }
    const d = readSchema(root, `${rel}/approvals/decisions/${name}`, (v) => DecisionSchema.safeParse(v), []);
    gates.push({
      runId,
      activationId: act,
      nodeId: p.value.node_id,
      title: titles.get(p.value.node_id) ?? null,
      prompt: truncate(cleanBlock(p.value.prompt_text).trim(), 2000),
      createdMs: timeOf(p.value.created_at),
      decided: d
        ? {
            decision: d.value.decision,
            by: d.value.decided_by === undefined ? null : truncate(cleanLine(d.value.decided_by), 80),
            atMs: timeOf(d.value.decided_at) ?? d.mtimeMs,
          }
        : null,
      pendingRel,
    });
  }
  return gates;
}

function stateOf(
  owner: OwnerView | null,
  gates: GateView[],
  projection: ProjectionFile | null,
): { state: RunState; text: string } {
  if (owner?.alive === 'alive')
    return gates.length > 0
      ? { state: 'waiting for a gate', text: `owner pid ${owner.pid} is waiting for a decision` }
      : { state: 'running', text: `owner pid ${owner.pid} is running it` };
  if (owner?.alive === 'unknown') return { state: 'running', text: `owner pid ${owner.pid} (cannot check it here)` };
  if (owner?.alive === 'dead')
    return {
      state: 'stopped',
      text: `owner pid ${owner.pid} is gone (killed or crashed): \`omc graph run\` again takes the run over and resumes it`,
    };
  if (!projection) return { state: 'not started', text: 'no projection yet' };
  const acts = Object.values(projection.projection.activations);
  const terminal = projection.projection.terminal_verification_activation_ids ?? [];
  const done =
    terminal.length > 0 &&
    terminal.every((id) => projection.projection.activations[id]?.status === 'completed') &&
    acts.every((a) => a.status === 'completed');
  if (done) return { state: 'succeeded', text: 'the terminal verification completed' };
  if (acts.some((a) => a.status === 'failed'))
    return { state: 'failed', text: 'an activation failed or a gate was denied; nothing is left to run' };
  return { state: 'stopped', text: 'nobody owns the run (no owner.lock) and it did not finish' };
}

export function readGraphRun(root: string, runId: string, probe: GraphProbe): GraphRunView {
  const rel = `${RUNS_DIR}/${runId}`;
  const problems: Problem[] = [];
  const descriptor = readSchema<DescriptorFile>(
    root,
    `${rel}/descriptor.json`,
    (v) => DescriptorSchema.safeParse(v),
    problems,
    4 * SMALL,
  );
  const projection = readSchema<ProjectionFile>(
    root,
    `${rel}/projection.json`,
    (v) => ProjectionSchema.safeParse(v),
    problems,
    16 * SMALL,
  );
  const lock = readSchema(root, `${rel}/owner.lock`, (v) => OwnerLockSchema.safeParse(v), problems, 4096);
  const titles = new Map<string, string | null>(
    (descriptor?.value.nodes ?? []).map((n) => [n.id, n.title ? truncate(cleanLine(n.title), 120) : null]),
  );
  const gates = readGates(root, rel, runId, titles, problems);
  const journal = readJournalTail(root, `${rel}/journal.jsonl`, problems);
  const owner = lock ? ownerOf(lock.value, probe) : null;
  const timeout: TimeoutPolicy =
    owner?.alive === 'alive'
      ? timeoutFromArgv(probe.argv(owner.pid), owner.pid)
      : { known: false, seconds: null, policy: 'denied', text: 'unknown (no live owner to ask)' };

  const byState = Object.fromEntries(ACTIVATION_STATES.map((s) => [s, 0])) as Record<ActivationState, number>;
  // A node entered again by a back edge has one activation per entry (`<node>-act0`, `-act1`…): the highest counts.
  const latest = new Map<string, { n: number; state: ActivationState }>();
  for (const a of Object.values(projection?.value.projection.activations ?? {})) {
    byState[a.status] += 1;
    const n = Number(/-act(\d+)$/.exec(a.activation_id)?.[1] ?? 0);
    if ((latest.get(a.node_id)?.n ?? -1) <= n) latest.set(a.node_id, { n, state: a.status });
  }
  // A gate waiting now is "ready" on disk; no other file says a node is running (OMC saves only at commits).
  const nodes = (descriptor?.value.nodes ?? []).map((n) => ({
    id: n.id,
    title: titles.get(n.id) ?? null,
    kind: truncate(cleanLine(n.kind), 20),
    state: latest.get(n.id)?.state ?? ('not reached' as const),
  }));
  const { state, text } = stateOf(owner, gates, projection?.value ?? null);
  return {
    runId,
    rel,
    revisionId: projection?.value.revision_id ?? descriptor?.value.revision_id ?? null,
    epoch: projection?.value.epoch ?? owner?.epoch ?? null,
    goal: descriptor?.value.goal ? truncate(cleanLine(descriptor.value.goal), 300) : null,
    state,
    stateText: text,
    byState,
    nodes,
    lastTransitions: journal.last,
    transitionsTotal: journal.total,
    owner,
    timeout,
    gates,
    updatedMs: Math.max(projection?.mtimeMs ?? 0, lock?.mtimeMs ?? 0, ...gates.map((g) => g.createdMs ?? 0)),
    problems,
  };
}
