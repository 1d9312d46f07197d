/**
 * What OMC 5.6 will say at the next session start, computed ahead of time:
 *  - the stale-run watchdog (upstream scripts/lib/run-reaper.mjs @ 59fa8143):
 *    a ralph/autopilot/team/ultragoal state file with `active: true` whose
 *    file mtime is older than OMC_STALE_RUN_HOURS (default 2) → "[STALE RUN]";
 *  - the run reconciler (scripts/runs-reconciler.mjs @ 839b3a5e): the last
 *    `end` per run+session among the ledger's last 200 lines, with
 *    `closeoutWritten: false` and no older than 7 days → "[RUN RECONCILIATION]".
 * Each fact names the file and the action that fixes it.
 */
import { listDirSync, readJsonSync, statSync } from '../../io/safe-fs/index.js';
import type { LedgerEntry } from '../runs/ledger.js';
import { WATCHED_RUN_MODES } from '../runs/ledger.js';
import type { Problem } from '../types.js';
import { isObj } from '../../io/json.js';
import { hookSettingWords, type HookSetting } from '../claude/hook-env.js';

export interface NextSessionFact {
  kind: 'stale-run' | 'no-closeout';
  mode: string;
  sessionId: string | null;
  path: string;
  /** Hours since the file last changed (stale-run). */
  ageHours?: number;
  /** The variable the judgement used, as the hooks see it (stale-run: OMC_STALE_RUN_HOURS). */
  setting?: HookSetting;
  message: string;
  action: string;
}

/** OMC's threshold: a positive number of hours from OMC_STALE_RUN_HOURS, else 2. */
function hoursOf(value: string | null): number {
  const raw = Number(value);
  return value !== null && Number.isFinite(raw) && raw > 0 ? raw : 2;
}

/** The watchdog's threshold and where it comes from, as the stale-run line says it. */
export interface StaleThreshold {
  hours: number;
  /** "OMC_STALE_RUN_HOURS=8 from ~/.claude/settings.json", "OMC_STALE_RUN_HOURS not set in …: 2, OMC's default". */
  words: string;
  setting: HookSetting;
}

/** The threshold from the variable as the hooks see it (claude/hook-env.ts). */
export function staleThreshold(setting: HookSetting): StaleThreshold {
  const hours = hoursOf(setting.value);
  const words =
    setting.value === null
      ? `${hookSettingWords(setting)}: ${hours}, OMC's default`
      : String(hours) === setting.value.trim()
        ? hookSettingWords(setting)
        : `${hookSettingWords(setting)}, not a positive number: ${hours}, OMC's default`;
  return { hours, words, setting };
}

/** The threshold from an environment alone (one-off callers and tests): the source says so. */
export const envStaleThreshold = (env: NodeJS.ProcessEnv, source = "omc-top's environment"): StaleThreshold =>
  staleThreshold({ name: 'OMC_STALE_RUN_HOURS', value: env.OMC_STALE_RUN_HOURS ?? null, source });

/** One watched mode's state file as already parsed (the sessions domain keeps these, with their mtime). */
export interface ParsedStateFile {
  rel: string;
  value: Record<string, unknown>;
  mtimeMs: number;
}

const SESSION_OF = /^state\/sessions\/([^/]+)\//;

/**
 * The stale-run facts from state files already parsed: `filesOf(file)` gives every copy of one file name
 * (in state/ and in each session directory). The monitor passes the sessions domain's parse, so a change
 * costs no disk access here; `staleRuns` reads the disk for one-off callers.
 */
export function staleRunsFrom(
  filesOf: (file: string) => readonly ParsedStateFile[],
  now: number,
  threshold: StaleThreshold,
): NextSessionFact[] {
  const out: NextSessionFact[] = [];
  for (const mode of WATCHED_RUN_MODES) {
    for (const f of filesOf(`${mode}-state.json`)) {
      const fact = staleRunFact(mode, f, now, threshold);
      if (fact) out.push(fact);
    }
  }
  return sortStaleRuns(out);
}

/** One state file judged by the watchdog's rule: active, and unchanged for more than `hours`. */
export function staleRunFact(
  mode: string,
  f: ParsedStateFile,
  now: number,
  threshold: StaleThreshold,
): NextSessionFact | null {
  const hours = threshold.hours;
  if (now - f.mtimeMs <= hours * 3_600_000 || f.value.active !== true) return null;
  const ageHours = Math.round((Math.max(0, now - f.mtimeMs) / 3_600_000) * 10) / 10;
  return {
    kind: 'stale-run',
    mode,
    sessionId: SESSION_OF.exec(f.rel)?.[1] ?? null,
    path: f.rel,
    ageHours,
    message: `OMC will report this as a STALE RUN at the next session start: ${mode} is active but its file has not changed for ~${ageHours}h (${threshold.words})`,
    action: 'cancel the session (c) if the run is dead, or resume the mode so it writes again',
    setting: threshold.setting,
  };
}

/** Oldest first; equal ages by path, so the order never depends on the order files were read in. */
export function sortStaleRuns(facts: NextSessionFact[]): NextSessionFact[] {
  return facts.sort(
    (a, b) => (b.ageHours ?? 0) - (a.ageHours ?? 0) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

/** The same facts read from disk (one-off callers and tests): unreadable or malformed state is never a finding. */
export function staleRuns(root: string, now: number, threshold: StaleThreshold): NextSessionFact[] {
  const dirs = listDirSync(root, 'state/sessions');
  const sids = dirs.ok ? dirs.entries.filter((d) => d.kind === 'dir').map((d) => d.name) : [];
  const filesOf = (file: string): ParsedStateFile[] => {
    const out: ParsedStateFile[] = [];
    for (const rel of [`state/${file}`, ...sids.map((sid) => `state/sessions/${sid}/${file}`)]) {
      const st = statSync(root, rel);
      if (!st || !st.isFile()) continue;
      const r = readJsonSync(root, rel);
      // As the watchdog parses: a byte-order mark makes JSON.parse fail there.
      if (r.ok && !r.read.bom && isObj(r.value)) out.push({ rel, value: r.value, mtimeMs: st.mtimeMs });
    }
    return out;
  };
  return staleRunsFrom(filesOf, now, threshold);
}

const LOOKBACK_MS = 7 * 24 * 3_600_000;

/** `entries` in file order (rotated half first); only the main ledger's last 200 lines count, as in OMC. */
export function missingCloseouts(mainLedger: readonly LedgerEntry[], now: number): NextSessionFact[] {
  const last = new Map<string, LedgerEntry>();
  for (const e of mainLedger.slice(-200)) if (e.event === 'end') last.set(`${e.run}:${e.sessionId ?? 'legacy'}`, e);
  const out: NextSessionFact[] = [];
  for (const e of last.values()) {
    if (e.closeoutWritten !== false || now - e.tsMs > LOOKBACK_MS) continue;
    out.push({
      kind: 'no-closeout',
      mode: e.run,
      sessionId: e.sessionId,
      path: `notepads/${e.run}/problems.md`,
      // What tells two such runs apart (whose run, when) comes first: a narrow pane cuts the line's end.
      message: `the ${e.run} run ${e.sessionId === null ? 'with no session id' : `of session ${e.sessionId.slice(0, 8)}`} ended ${new Date(e.tsMs).toISOString()} without its closeout (${e.where}); OMC will report it at the next session start`,
      action: `write what the run learned to .omc/notepads/${e.run}/problems.md, or acknowledge it next session`,
    });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

export function factsAsProblems(facts: readonly NextSessionFact[]): Problem[] {
  return facts.map((f) => ({ path: f.path, severity: 'info', message: `${f.message}; fix: ${f.action}` }));
}
