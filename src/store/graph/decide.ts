/**
 * Deciding an OMC graph gate: OMC's own CLI (`omc graph approvals decide …`) where it is installed, else the
 * decision file written atomically in exactly the shape OMC's parser accepts. Either way the gate must be
 * pending now and not decided yet, and what lands on disk is read back and checked before "decided" is said.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { atomicWriteSync, describeWriteError, readJsonSync, statSync } from '../../io/safe-fs/index.js';
import { cleanLine, truncate } from '../../io/sanitize.js';
import type { OmcInstall } from '../omc-install.js';
import { DecisionSchema, PendingSchema, isGraphId, type GateDecision } from './files.js';
import { RUNS_DIR } from './run-reader.js';

/** Who the decision file names (OMC's `decided_by`). */
export const DECIDED_BY = 'omc-top';
/** OMC's CLI loads a large bundle (4–5 s here); it also ignores SIGTERM, so a stuck one gets SIGKILL. */
const CLI_TIMEOUT_MS = 60_000;

export interface DecideResult {
  ok: boolean;
  /** What happened, in words (shown as is). */
  message: string;
  via: 'omc-cli' | 'file' | null;
}

/** The OMC CLI of an install that has the graph runtime (5.5.0 and later), or null. */
export function findOmcCli(omc: OmcInstall | null): string | null {
  for (const c of omc?.candidates ?? []) {
    if (!path.isAbsolute(c.path)) continue;
    const bin = statSync(c.path, 'bin/oh-my-claudecode.js');
    const graph = statSync(c.path, 'dist/cli/graph.js');
    if (bin?.isFile() && graph?.isFile()) return path.join(c.path, 'bin', 'oh-my-claudecode.js');
  }
  return null;
}

const decisionRel = (runId: string, act: string) => `${RUNS_DIR}/${runId}/approvals/decisions/${act}.json`;
const pendingRel = (runId: string, act: string) => `${RUNS_DIR}/${runId}/approvals/pending/${act}.json`;

/** Why this gate cannot be decided now, or null. */
export function decideBlock(root: string, runId: string, act: string): string | null {
  if (!isGraphId(runId) || !isGraphId(act)) return 'not a run or activation id OMC makes';
  const p = readJsonSync(root, pendingRel(runId, act), 1024 * 1024);
  if (!p.ok)
    return p.code === 'missing'
      ? `gate ${act} of run ${runId} is no longer pending (decided, timed out, or the run ended)`
      : `its pending file cannot be read: ${p.message}`;
  const pending = PendingSchema.safeParse(p.value);
  if (!pending.success || pending.data.run_id !== runId || pending.data.activation_id !== act)
    return 'its pending file is not the one OMC writes for this gate';
  const d = readJsonSync(root, decisionRel(runId, act), 1024 * 1024);
  if (d.ok) {
    const dec = DecisionSchema.safeParse(d.value);
    if (dec.success)
      return `already decided: ${dec.data.decision}${dec.data.decided_by ? ` by ${truncate(cleanLine(dec.data.decided_by), 60)}` : ''} (OMC reads it within 2 s while the run's owner lives)`;
    return 'a decision file is already there, and OMC does not accept it: remove it first';
  }
  if (d.code !== 'missing') return `a decision file is already there and cannot be read: ${d.message}`;
  // OMC refuses decisions reached through a symlinked directory: a file written there would never be read.
  for (const dir of ['approvals', 'approvals/decisions']) {
    if (statSync(root, `${RUNS_DIR}/${runId}/${dir}`)?.isSymbolicLink())
      return `${RUNS_DIR}/${runId}/${dir} is a symlink: OMC ignores decisions written through it`;
  }
  return null;
}

/** The decision text: exactly what OMC's own writer produces (pretty JSON, newline), validated before use. */
export function decisionText(decision: GateDecision, now: number): string {
  const doc = { decision, decided_at: new Date(now).toISOString(), decided_by: DECIDED_BY };
  const check = DecisionSchema.safeParse(doc);
  if (!check.success) throw new Error('refusing to write a malformed decision');
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function readBack(root: string, runId: string, act: string, decision: GateDecision): boolean {
  const d = readJsonSync(root, decisionRel(runId, act), 1024 * 1024);
  if (!d.ok) return false;
  const p = DecisionSchema.safeParse(d.value);
  return p.success && p.data.decision === decision;
}

function runCli(
  cli: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; out: string; spawnError: string | null }> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(process.execPath, [cli, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, OMC_NOTIFY: '0' },
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_MS);
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, out, spawnError: e.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, spawnError: null });
    });
  });
}

export async function decideGate(opts: {
  root: string;
  runId: string;
  activationId: string;
  decision: GateDecision;
  /** OMC's CLI (findOmcCli); null writes the decision file. */
  omcCli: string | null;
  /** The run's owner lives (it reads decisions every ~2 s); else the decision waits for a resume. */
  ownerLive?: boolean;
  now?: () => number;
}): Promise<DecideResult> {
  const { root, runId, activationId: act, decision } = opts;
  const block = decideBlock(root, runId, act);
  if (block) return { ok: false, message: block, via: null };
  const what = `gate ${act} of run ${runId}`;
  if (opts.omcCli) {
    const runsRoot = path.join(root, RUNS_DIR);
    const r = await runCli(
      opts.omcCli,
      ['graph', 'approvals', 'decide', runId, act, decision, '--by', DECIDED_BY, '--runs-root', runsRoot],
      path.dirname(root),
    );
    if (r.code === 0 && readBack(root, runId, act, decision))
      return { ok: true, message: `${decision} ${what} with OMC's CLI (omc graph approvals decide)`, via: 'omc-cli' };
    if (r.spawnError === null) {
      const said = truncate(cleanLine(r.out.trim()), 200);
      return {
        ok: false,
        message: `OMC's CLI did not record it (exit ${r.code ?? 'killed'}${said ? `: ${said}` : ''})`,
        via: 'omc-cli',
      };
    }
    // The CLI could not even start: write the file OMC's gate reads, as its own writer does.
  }
  try {
    atomicWriteSync(root, decisionRel(runId, act), decisionText(decision, (opts.now ?? Date.now)()), {
      mkdir: 'shared', // the run's approvals/decisions/ is OMC's, made as its own writer makes it (umask)
    });
  } catch (e) {
    return { ok: false, message: `could not write the decision: ${cleanLine(describeWriteError(e))}`, via: 'file' };
  }
  if (!readBack(root, runId, act, decision))
    return { ok: false, message: 'the decision file did not read back as written', via: 'file' };
  const when = opts.ownerLive
    ? 'OMC reads it within 2 s'
    : 'nobody runs this run now: OMC reads it when the run is resumed';
  return { ok: true, message: `${decision} ${what} (decision file written; ${when})`, via: 'file' };
}
