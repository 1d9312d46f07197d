/**
 * OMC 5.6's run-ledger writer, reconciler and stale-run watchdog, restated by
 * this project from the upstream source (no npm release of 5.6 is reachable
 * here, so it cannot be run). Sources, read in Yeachan-Heo/oh-my-claudecode:
 *   src/lib/runs-ledger.ts            @ 839b3a5e  (line shape, rotation at 1,000 lines, closeout test)
 *   scripts/runs-reconciler.mjs       @ 839b3a5e  (last 200 lines, 7-day lookback, closeoutWritten === false)
 *   scripts/lib/run-reaper.mjs        @ 59fa8143  (mtime > OMC_STALE_RUN_HOURS, default 2)
 *   scripts/lib/enforcement-log.mjs   @ 5b90a0ab667ea1b54ff98066e212cdbb1e5ea7d4  (shadow.jsonl line shape)
 *   scripts/budget-guard.mjs          @ 5b90a0ab667ea1b54ff98066e212cdbb1e5ea7d4  (rule "budget-stop", detail
 *                                     "~<spend>/<budget> tokens (<pct>%)", block at ≥100 % only when
 *                                     OMC_BUDGET_ENFORCE=active, warn at ≥90 %)
 * The budget files were read through the code index on 2026-12-01 (the newest version it holds); the
 * repository mirror available here ends at 2ceecffa (2026-08-22), before 5.6, so no newer version of them
 * could be checked.
 * Restated, not copied: the behaviour is the same, the code is this project's.
 */
import fs from 'node:fs';
import path from 'node:path';

export const WATCHED = ['ralph', 'autopilot', 'team', 'ultragoal'];

export interface Entry {
  ts: string;
  run: string;
  sessionId?: string;
  event: 'start' | 'end';
  outcome?: string;
  closeoutWritten?: boolean;
  [k: string]: unknown;
}

const ledgerFile = (root: string) => path.join(root, 'state', 'runs', 'ledger.jsonl');

/** appendRunLedger: rotate when the file already holds ≥ 1,000 non-blank lines, then one append. */
export function append(root: string, entry: Entry): void {
  const file = ledgerFile(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (fs.existsSync(file)) {
    const lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    if (lines.length >= 1000) {
      fs.appendFileSync(`${file}.1`, lines.join('\n') + '\n');
      fs.writeFileSync(file, '');
    }
  }
  fs.appendFileSync(file, JSON.stringify(entry) + '\n');
}

/** closeoutWrittenFor: notepads/<mode>/problems.md or issues.md modified after the state's started_at. */
export function closeoutWritten(root: string, mode: string, startedAt: string | undefined): boolean {
  if (!startedAt || !Number.isFinite(Date.parse(startedAt))) return false;
  return ['problems.md', 'issues.md'].some((n) => {
    try {
      return fs.statSync(path.join(root, 'notepads', mode, n)).mtimeMs > Date.parse(startedAt);
    } catch {
      return false;
    }
  });
}

/** observeModeStateClear: an end edge for a previously active watched state. */
export function observeClear(
  root: string,
  mode: string,
  sessionId: string | undefined,
  prev: Record<string, unknown>,
  ts: string,
) {
  if (!WATCHED.includes(mode) || prev.active !== true) return;
  append(root, {
    ts,
    run: mode,
    sessionId,
    event: 'end',
    outcome:
      typeof prev.current_phase === 'string' && /complete|done/i.test(prev.current_phase) ? 'completed' : 'cancelled',
    closeoutWritten: closeoutWritten(root, mode, typeof prev.started_at === 'string' ? prev.started_at : undefined),
  });
}

export function start(root: string, mode: string, sessionId: string | undefined, ts: string): void {
  append(root, { ts, run: mode, sessionId, event: 'start', outcome: 'running' });
}

/**
 * SessionStart reconciliation as 5.6 runs it: the last 200 parseable lines;
 * per run+session the last end; findings = ends with closeoutWritten false
 * within 7 days. Also returns the (run, session) keys whose last edge is a
 * start: what a reader of the ledger sees as a run that never ended (a crash).
 */
export function reconcile(root: string, now: number) {
  let raw = '';
  try {
    raw = fs.readFileSync(ledgerFile(root), 'utf8');
  } catch {
    return { findings: [], neverEnded: [] };
  }
  const entries: Entry[] = [];
  for (const l of raw
    .split('\n')
    .filter((x) => x.trim() !== '')
    .slice(-200)) {
    try {
      const e = JSON.parse(l) as Entry;
      if (e && e.run && e.event) entries.push(e);
    } catch {
      /* skipped, as OMC does */
    }
  }
  const lastEnd = new Map<string, Entry>();
  const lastEdge = new Map<string, Entry>();
  for (const e of entries) {
    const k = `${e.run}:${e.sessionId ?? 'legacy'}`;
    if (e.event === 'end') lastEnd.set(k, e);
    lastEdge.set(k, e);
  }
  const findings = [...lastEnd.values()].filter(
    (e) =>
      e.closeoutWritten === false && Number.isFinite(Date.parse(e.ts)) && now - Date.parse(e.ts) <= 7 * 24 * 3600_000,
  );
  const neverEnded = [...lastEdge.entries()].filter(([, e]) => e.event === 'start').map(([k]) => k);
  return { findings, neverEnded };
}

/** findStaleRuns: active watched states whose file mtime is older than the threshold, most stale first. */
export function findStale(root: string, now: number, thresholdHours?: number, excludeSessionId?: string) {
  const envH = Number(process.env.OMC_STALE_RUN_HOURS);
  const hours = thresholdHours ?? (Number.isFinite(envH) && envH > 0 ? envH : 2);
  const out: Array<{ mode: string; sessionId: string | null; ageHours: number }> = [];
  const inspect = (file: string) => {
    try {
      const m = fs.statSync(file).mtimeMs;
      const st = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!st || st.active !== true || now - m <= hours * 3600_000) return null;
      return Math.round((Math.max(0, now - m) / 3600_000) * 10) / 10;
    } catch {
      return null;
    }
  };
  for (const mode of WATCHED) {
    const legacy = inspect(path.join(root, 'state', `${mode}-state.json`));
    if (legacy !== null) out.push({ mode, sessionId: null, ageHours: legacy });
    let ids: string[] = [];
    try {
      ids = fs
        .readdirSync(path.join(root, 'state', 'sessions'), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name);
    } catch {
      continue;
    }
    for (const sid of ids) {
      if (sid === excludeSessionId) continue;
      const a = inspect(path.join(root, 'state', 'sessions', sid, `${mode}-state.json`));
      if (a !== null) out.push({ mode, sessionId: sid, ageHours: a });
    }
  }
  return out.sort((a, b) => b.ageHours - a.ageHours);
}

/** logEnforcement + the budget guard's judgment: one line appended to state/enforcement/shadow.jsonl. */
export function logBudget(
  root: string,
  j: { mode: string; spend: number; budget: number; enforce?: 'shadow' | 'active'; ts?: string; rule?: string },
): void {
  const ratio = j.spend / j.budget;
  const outcome = ratio >= 1 ? (j.enforce === 'active' ? 'block' : 'warn') : ratio >= 0.9 ? 'warn' : 'pass';
  const dir = path.join(root, 'state', 'enforcement');
  fs.mkdirSync(dir, { recursive: true });
  const line = {
    ts: j.ts ?? new Date().toISOString(),
    rule: j.rule ?? 'budget-stop',
    mode: j.mode,
    outcome,
    detail: `~${j.spend}/${j.budget} tokens (${Math.round(ratio * 100)}%)`,
    latencyMs: 2,
  };
  fs.appendFileSync(path.join(dir, 'shadow.jsonl'), `${JSON.stringify(line)}\n`, 'utf8');
}
