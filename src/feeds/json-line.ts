/**
 * The JSON lines of `omc-top watch --json`, written by the one terminal-safe JSON writer
 * (io/sanitize.ts terminalSafeJson), so a line piped to a terminal carries no control byte, no bidi
 * control and no line separator, exactly as every other JSON output.
 */
import type { Fact } from './attention/kinds.js';
import type { Transition } from './attention/engine.js';
import { needJson, type AttentionView, type IsAcked } from './attention/view.js';
import type { RowModel } from './row.js';
import type { StateDirHealth } from '../store/state-dir/health.js';
import type { RootAbsence } from '../io/watch/root-presence.js';
import { sessionJson } from './attention/needs.js';
import { terminalSafeJson } from '../io/sanitize.js';
import { VERSION } from '../version.js';
import { omcJson, type OmcJsonInput } from './omc-json.js';
import type { QuotaJson } from './quota-json.js';

export const LINE_VERSION = 1;

/** One JSON line: the one JSON writer, on one line. */
export const safeJson = (value: unknown): string => terminalSafeJson(value, 0);

const where = (f: Fact) => ({
  ...sessionJson(f.session),
  mode: f.mode,
  team: f.team,
  worker: f.worker,
  path: f.path,
  ...(f.iteration !== undefined ? { iteration: f.iteration, max: f.max ?? null } : {}),
});

/** The condition a fact holds, as `need` says it; null when it has none. */
const needOf = (f: Fact, isAcked: IsAcked) => (f.need ? needJson(f.need, isAcked(f.need.id)) : null);

/**
 * `needs`: set when this transition raises a new occurrence of a condition that needs you (not one already
 * acknowledged); `news`: set when it is news. Neither is set for what the user did in omc-top.
 */
export function transitionLine(t: Transition, project: string, atMs: number, isAcked: IsAcked): string {
  const need = needOf(t.fact, isAcked);
  return safeJson({
    v: LINE_VERSION,
    type: 'transition',
    at: new Date(atMs).toISOString(),
    project,
    kind: t.kind,
    key: t.key,
    from: t.from,
    to: t.to,
    needs: t.needs !== null && need && !need.acknowledged ? t.needs : null,
    news: t.news,
    need: t.to === null ? null : need,
    ...where(t.fact),
  });
}

/** `needs`: the reason while the fact's condition needs you and is not acknowledged. */
export function snapshotLine(
  kind: string,
  key: string,
  f: Fact,
  project: string,
  atMs: number,
  isAcked: IsAcked,
): string {
  const need = needOf(f, isAcked);
  return safeJson({
    v: LINE_VERSION,
    type: 'snapshot',
    at: new Date(atMs).toISOString(),
    project,
    kind,
    key,
    value: f.value,
    needs: need && !need.acknowledged ? need.reason : null,
    need,
    ...where(f),
  });
}

/**
 * `version`: the omc-top that writes the stream (the fleet checks a remote's before trusting its rows).
 * `aliveMs`: this stream writes an `alive` line after that long with nothing else (on a pipe or socket; null: it
 * writes none), so a reader may take a longer silence for a stream that stalled (the fleet restarts such an ssh).
 */
export function readyLine(
  project: string,
  atMs: number,
  needsYou: number,
  aliveMs: number | null,
  omc: OmcJsonInput | null,
): string {
  return safeJson({
    v: LINE_VERSION,
    type: 'ready',
    at: new Date(atMs).toISOString(),
    project,
    needsYou,
    version: VERSION,
    aliveMs,
    // Which OMC judges what the stream says (the `omc` line's object): a script sees a what-if or a guess at start.
    omc: omc ? omcJson(omc) : null,
  });
}

/**
 * The reader fell behind (a paused pager, a stalled pipe) and `dropped` lines were not written, so that
 * omc-top's memory stays bounded: transitions in that time are lost; rows are sent again as they are.
 */
export function laggedLine(project: string, atMs: number, dropped: number): string {
  return safeJson({ v: LINE_VERSION, type: 'lagged', at: new Date(atMs).toISOString(), project, dropped });
}

/**
 * Written when nothing else was for IDLE_LINE_MS and stdout is a pipe or socket: the stream learns that its
 * reader has gone only by writing (`watch --json | head -1` on a quiet project). Consumers skip it.
 */
export function aliveLine(project: string, atMs: number): string {
  return safeJson({ v: LINE_VERSION, type: 'alive', at: new Date(atMs).toISOString(), project });
}

/** How long a quiet `watch --json` on a pipe waits before its `alive` line. */
export const IDLE_LINE_MS = 5_000;

/** The attention view: at start and whenever what needs you changes (the count the monitor's header shows). */
export function attentionLine(project: string, atMs: number, view: AttentionView): string {
  return safeJson({
    v: LINE_VERSION,
    type: 'attention',
    at: new Date(atMs).toISOString(),
    project,
    needsYou: view.count,
    items: [...view.open.map((n) => needJson(n, false)), ...view.acked.map((n) => needJson(n, true))],
  });
}

/**
 * `--push-lease`: who pushes this project's items on the watch's machine: `fleet` (the watch holds the push
 * lease for its reader, which pushes them) or `other` (an omc-top there does; the reader stays quiet).
 */
export function pushLeaseLine(project: string, atMs: number, pusher: 'fleet' | 'other'): string {
  return safeJson({ v: LINE_VERSION, type: 'push-lease', at: new Date(atMs).toISOString(), project, pusher });
}

/**
 * omc-top's own state directory: `stateDir` (a line field, camel-cased as `needsYou` is) is the object `--json` has as
 * `state_dir`. With `--snapshot` before `ready`, and whenever it turns usable or unusable. While it is not `ok`,
 * acknowledgements and cancel records are not kept.
 */
export function stateDirLine(project: string, atMs: number, health: StateDirHealth): string {
  return safeJson({ v: LINE_VERSION, type: 'state-dir', at: new Date(atMs).toISOString(), project, stateDir: health });
}

/**
 * The plan quota (`--json`'s `quota`: the monitor header's words and the end of a limit; null when OMC keeps no usage
 * cache). With `--snapshot` before `ready`, and whenever what it says changes apart from the clock's passing (a new
 * percentage, a limit reached or over, the data gone stale): a countdown going down is no line.
 */
export function quotaJsonLine(project: string, atMs: number, quota: QuotaJson | null): string {
  return safeJson({ v: LINE_VERSION, type: 'quota', at: new Date(atMs).toISOString(), project, quota });
}

/**
 * Another OMC runs the project's hooks now (a plugin update under the running watch): what `--json` has as
 * `omc_version`, and `message` the monitor's line ("OMC 5.5.0 now (was 4.4.4): verdicts re-judged", null when only
 * where it was found moved). The transitions of the sessions re-judged by its book follow it.
 */
export function omcLine(project: string, atMs: number, omc: OmcJsonInput, message: string | null): string {
  return safeJson({
    v: LINE_VERSION,
    type: 'omc',
    at: new Date(atMs).toISOString(),
    project,
    omc: omcJson(omc),
    message,
  });
}

/**
 * `.omc` itself: gone (moved away or removed), something else in its place, or back. Written whenever that changes
 * (at start it is there, or the watch would have exited 2). While it is away the watch waits for it and reports
 * nothing else of the tree: its loops went out of sight with it, which is not OMC ending them; once it is back,
 * what differs from before is reported as transitions. `message` is the problem line's words (the monitor's).
 */
export function rootLine(
  project: string,
  atMs: number,
  root: { path: string; absence: RootAbsence | null; message: string },
  /** The watch moved to this root from `was` (an OMC upgrade that keeps the state elsewhere), in the monitor's words. */
  moved: { was: string; words: string } | null = null,
): string {
  return safeJson({
    v: LINE_VERSION,
    type: 'root',
    at: new Date(atMs).toISOString(),
    project,
    root: {
      path: root.path,
      present: root.absence === null,
      problem: root.absence === null ? null : { code: root.absence.code, message: root.message },
    },
    was: moved?.was ?? null,
    message: moved?.words ?? null,
  });
}

/**
 * `--rows`: a session's row as the fleet view draws it; `row: null` when the session is gone. `sessionless`
 * tells the session-less state ("legacy") from a session directory that is itself named legacy, also on the
 * line that says a row went.
 */
export function rowLine(
  project: string,
  session: string,
  sessionless: boolean,
  row: RowModel | null,
  atMs: number,
): string {
  return safeJson({
    v: LINE_VERSION,
    type: 'row',
    at: new Date(atMs).toISOString(),
    project,
    session,
    sessionless,
    row,
  });
}
