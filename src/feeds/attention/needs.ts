/**
 * What "needs you" means: a condition that holds now and needs a human hand.
 * Each one is a NeedItem with a stable identity made only of facts on disk
 * (the registry's status time, a pid and its start time, a heartbeat), so
 * every omc-top process (the monitor, `status --tmux`, `--json`, a second
 * monitor) names the same occurrence the same way, and an acknowledgement of
 * one occurrence does not hide the next (a new waiting episode is a new id).
 * Pure: no I/O, no clock.
 */
import { activeLoop, attentionFor, type AttentionFact } from '../../store/claude/attention.js';
import type { ClaudeSessionView, ProcessView } from '../../store/claude/model.js';
import { tmuxPlaceOf, tmuxWindow, whereText } from '../../store/claude/life.js';
import type { CancelRecord } from '../../store/cancel/cancel-records.js';
import { CANCEL_FAILED } from '../../store/cancel/words.js';
import { LEGACY_KEY, sessionKey, type SessionView } from '../../store/sessions/model.js';
import { LEGACY_LABEL } from '../../store/sessions/summary.js';
import type { TeamView } from '../../store/teams/model.js';
import { limitedUntilWords, loopHold, type LoopHold, type PlanHold } from '../../store/cost/plan-hold.js';
import { teamShutdownCommand } from '../../store/teams/omc-team-rules.js';
import type { PermissionRequestView } from '../../store/permissions/model.js';
import type { GateView, GraphRunView } from '../../store/graph/model.js';

export type NeedKind =
  | 'waiting'
  | 'orphaned'
  | 'idle-loop'
  | 'cancel-not-taken'
  | 'team-stalled'
  | 'team-failed'
  | 'worker-dead'
  | 'unreadable'
  | 'gate';

/** What the inbox offers first for an item (every item can also be acknowledged and opened). */
export type NeedAction = 'jump' | 'cancel' | 'detail';

export interface NeedItem {
  /** This occurrence of the condition: `<kind>:<subject>@<occurrence>`, the same in every omc-top process. */
  id: string;
  kind: NeedKind;
  /** One short phrase (notification rules, `needs` in `watch --json`): "waiting for you", "orphaned loop", … */
  reason: string;
  /** One line: what is wrong and what to do. */
  text: string;
  /** When the condition arose (as well as the files tell), epoch ms; the inbox lists the oldest first. */
  since: number | null;
  session: string | null;
  mode: string | null;
  team: string | null;
  worker: string | null;
  /** The file or directory it is about, relative to the .omc root (Enter opens what shows it). */
  path: string | null;
  /** What Claude waits for: the pending call when the transcript names it, else the registry's words. */
  waitingOn: string | null;
  /** The name Claude Code gives the session, when it has one. */
  name: string | null;
  /** `session:window` of the tmux pane the session runs in, when known. */
  tmux: string | null;
  action: NeedAction;
}

const sessionId = (s: SessionView) => sessionKey(s);

/** An item's session as a user reads it: "(legacy)" for the session-less state, as its row says. */
export const shownSession = (session: string): string => (session === LEGACY_KEY ? LEGACY_LABEL : session);

/**
 * An item's session on the JSON surfaces: `legacy` with `sessionless: true` for the session-less state, so a
 * script (and a fleet reading a remote's lines) tells it from a session directory that is itself named legacy.
 */
export const sessionJson = (session: string | null) =>
  session === LEGACY_KEY ? { session: 'legacy', sessionless: true } : { session, sessionless: false };

export { tmuxWindow };

/**
 * What Claude waits for, in one line: the Claude domain's waiting fact (`waiting.text`, e.g. "permission prompt:
 * Bash rm -rf ./cache", the pending call when the transcript names it); otherwise the registry's words.
 */
export function waitedOn(fact: AttentionFact, p: ProcessView | null): string {
  return fact.waiting?.text || (p?.waitingFor ?? 'a prompt');
}

/** Where the session runs, as a user switches to it (store/claude/life.ts `tmuxPlaceOf`). */
export const tmuxPlace = (p: ProcessView | null): string | null => tmuxPlaceOf(p);

/**
 * The conditions the Claude process behind a session raises: the Claude domain's attention facts (the row's
 * "!" marks the same ones), each with the identity of its occurrence.
 */
export function agentNeeds(s: SessionView, c: ClaudeSessionView | undefined, hold: PlanHold | null = null): NeedItem[] {
  if (s.kind === 'legacy' || !c) return [];
  const p = c.process ?? null;
  const facts = c.transcript?.facts ?? null;
  const id = sessionId(s);
  const loop = activeLoop(s);
  const common = {
    session: id,
    team: null,
    worker: null,
    // The loop's own file when there is one: opening it picks that mode in the session detail (c cancels it).
    path: loop?.path ?? `${s.dir}/`,
    name: p?.name ?? null,
    tmux: tmuxPlace(p),
    waitingOn: null,
    since: p?.since ?? null,
  };
  const out: NeedItem[] = [];
  for (const a of attentionFor(s, p, facts)) {
    if (a.kind === 'waiting-for-you') {
      // The Claude that waits (another of the session's, when the one shown does not): its name, window and episode.
      const w = a.asker ?? p;
      const on = waitedOn(a, w);
      out.push({
        ...common,
        name: w?.name ?? null,
        tmux: tmuxPlace(w),
        since: w?.since ?? null,
        // One waiting episode: the registry's status time (a new prompt rewrites it).
        id: `waiting:${id}@${w?.since ?? w?.pid ?? ''}`,
        kind: 'waiting',
        reason: 'waiting for you',
        text: a.text,
        mode: loop?.mode ?? null,
        waitingOn: on,
        action: 'jump',
      });
    } else if (a.kind === 'orphaned-loop' && loop) {
      out.push({
        ...common,
        // The process that ended names the occurrence: a resumed session that dies again is a new one.
        id: `orphaned:${id}/${loop.mode}@${p ? `${p.pid}:${p.procStart ?? ''}` : 'exit'}`,
        kind: 'orphaned',
        reason: 'orphaned loop',
        text: a.text,
        mode: loop.mode,
        action: 'cancel',
      });
    } else if (a.kind === 'idle-while-active' && loop) {
      // The plan's rate limit (plan-hold.ts): OMC's wait daemon will press this pane when it clears, so nothing needs
      // a hand; else the loop waits for the reset with nothing to resume it, and says until when. One occurrence
      // either way: the limit ending does not raise it again.
      const held = loopHold(hold, p);
      if (held?.by === 'wait daemon') continue;
      out.push({
        ...common,
        id: `idle-loop:${id}/${loop.mode}@${p?.since ?? p?.pid ?? ''}`,
        kind: 'idle-loop',
        reason: 'idle loop',
        text: held ? heldText(loop.mode, held) : a.text,
        mode: loop.mode,
        ...(held ? { waitingOn: limitedUntilWords(held.untilMs) } : {}),
        action: 'jump',
      });
    }
  }
  return out;
}

/** An idle loop the plan's limit holds with nothing to resume it: until when, and what a person can do. */
function heldText(mode: string, h: Extract<LoopHold, { by: 'limit' }>): string {
  const why = h.daemonAlive
    ? "OMC's wait daemon runs but did not list this pane (it resumes only panes it saw blocked)"
    : 'no OMC wait daemon runs to resume it (omc wait --start starts one)';
  return `${mode} is ${limitedUntilWords(h.untilMs)}: ${why}; type in its pane after the reset`;
}

/**
 * A permission prompt omc-top can answer (the hook handed it over) is Claude waiting for you, whether or not OMC
 * runs a loop in that session: counted here when no OMC session of it already counts its Claude as waiting (a
 * plain `claude` in the project has no session row; its prompt would otherwise show only inside `!`). One
 * occurrence per request (its nonce): the next prompt is a new one.
 */
export const PERMISSION_OCCURRENCE = '@permission:';

/** A need that is a permission prompt counted here (no session row of its own: it is answered under "To answer"). */
export const isPermissionNeed = (n: Pick<NeedItem, 'id'>) => n.id.includes(PERMISSION_OCCURRENCE);

/**
 * The permission request (its nonce) a need stands for, or null: the prompt's identity, which the "To answer" item
 * of the same request carries too, so a list that shows both shows the prompt once (never matched by its text).
 */
export function permissionRequestOf(n: Pick<NeedItem, 'id'>): string | null {
  const at = n.id.indexOf(PERMISSION_OCCURRENCE);
  return at < 0 ? null : n.id.slice(at + PERMISSION_OCCURRENCE.length);
}

/** `p`: the Claude that asked (store/claude/asker.ts `askingProcess`): its name and pane are the item's. */
export function permissionNeed(r: PermissionRequestView, p: ProcessView | null): NeedItem {
  const where = tmuxPlace(p);
  // The place in the words a session's own "waiting for you" uses (whereText): one form on every item.
  const said = whereText(p);
  return {
    id: `waiting:${r.sessionId}${PERMISSION_OCCURRENCE}${r.id}`,
    kind: 'waiting',
    reason: 'waiting for you',
    text: `Claude is waiting for you: permission prompt: ${r.toolName} ${r.subject}${said ? ` (${said})` : ''}; omc-top can answer it in ! (To answer)`,
    since: r.createdMs,
    session: r.sessionId,
    mode: null,
    team: null,
    worker: null,
    path: null,
    waitingOn: `permission prompt: ${r.toolName} ${r.subject}`,
    name: p?.name ?? null,
    tmux: where,
    // Answered in `!` (To answer), not by jumping: a notification says "! lists it".
    action: 'detail',
  };
}

/**
 * A cancel omc-top made (in this process or another: the record in omc-top's state directory) that did not take:
 * a mode it ended is active and enforced again. Said only from what the disk shows after the recorded cancel: the
 * mode's file was written after it (a Stop event already under way re-armed the loop), or the cancel itself could
 * not end it. A picture of the disk from before the cancel (a watcher event not in yet) shows the loop's old file,
 * written before the cancel: that is not "active again". The same loop, not a new one: a loop started after the
 * cancel (the user ran it again) is not the cancel failing. While the cancel's signal is in force the Stop hook
 * does not enforce the mode, so nothing is raised inside its window. Every process names the occurrence and dates
 * it by the recorded cancel, so the id, the `since` and the inbox's order agree everywhere.
 */
export function recordNeed(rec: CancelRecord, s: SessionView | undefined): NeedItem | null {
  const failed = failedNeed(rec, s);
  if (failed) return failed;
  const still = s?.modes.find(
    (m) =>
      m.active &&
      m.enforced &&
      rec.modes.includes(m.mode) &&
      (rec.notEnded.includes(m.mode) || (m.writtenMs !== null && m.writtenMs > rec.requestedMs)) &&
      // A start not known is not taken for a new loop: the record's expiry bounds what it can say.
      (m.startedMs ?? -Infinity) <= rec.requestedMs,
  );
  if (!s || !still) return null;
  const id = rec.key;
  const at = `omc-top's cancel at ${clockHms(rec.requestedMs)} UTC`;
  // Never ended (a lock held, a file changed under it) is not "again"; re-armed after it is the tracker's own words.
  const what = rec.notEnded.includes(still.mode)
    ? `${still.mode} is still active and enforced (${at} could not end it)`
    : `${still.mode} is active and enforced again (its file was rewritten after ${at}: a Stop event already under way re-armed it)`;
  return {
    id: `cancel-not-taken:${id}@${rec.requestedMs}`,
    kind: 'cancel-not-taken',
    reason: 'cancel did not take',
    text: `cancel did not take: ${what} · c cancels again`,
    since: rec.requestedMs,
    session: id,
    mode: still.mode,
    team: null,
    worker: null,
    path: still.path,
    waitingOn: null,
    name: null,
    tmux: null,
    action: 'cancel',
  };
}

/**
 * A cancel whose own write failed half-way (the record's `failed`: the signal landed, a mode file did not change) with
 * that mode still active, the same run: it failed, whatever the signal's window. Said at once, inside the window too
 * (the loop is only paused by the signal, and nothing in flight will end it), the same occurrence as the "did not
 * take" it would become, so an acknowledgement holds for both.
 */
export function failedNeed(rec: CancelRecord, s: SessionView | undefined): NeedItem | null {
  if (!rec.failed || !s) return null;
  const still = s.modes.find(
    (m) => m.active && rec.notEnded.includes(m.mode) && (m.startedMs ?? -Infinity) <= rec.requestedMs,
  );
  if (!still) return null;
  return {
    id: `cancel-not-taken:${rec.key}@${rec.requestedMs}`,
    kind: 'cancel-not-taken',
    reason: CANCEL_FAILED,
    text: `${CANCEL_FAILED}: ${still.mode} is still active (omc-top's cancel at ${clockHms(rec.requestedMs)} UTC: ${rec.failed}) · c cancels again`,
    since: rec.requestedMs,
    session: rec.key,
    mode: still.mode,
    team: null,
    worker: null,
    path: still.path,
    waitingOn: null,
    name: null,
    tmux: null,
    action: 'cancel',
  };
}

/**
 * A session whose loop omc-top cannot tell (its status `unreadable`: a mode file, its directory or a file its verdict
 * depends on could not be read here, store/sessions/derive.ts). OMC's Stop hook, run as the files' owner, may be
 * holding the agent, and only the user can make it known (run omc-top as that user, or fix the permissions). The
 * occurrence is named by what could not be read, the same in every process; no file tells since when.
 */
export function unreadableNeed(s: SessionView): NeedItem | null {
  const first = s.unreadable?.[0];
  if (s.status !== 'unreadable' || first === undefined) return null;
  // Out of sight under a directory omc-top may no longer list: that directory's one item (unreadableDirNeed) says it.
  if (s.unreadableAbove !== undefined) return null;
  const id = sessionId(s);
  const mode = s.modes.find((m) => m.status === 'unreadable')?.mode ?? null;
  // A shared file (the legacy signal, ~/.omc's copies) has its problem line in the store, not in the session's.
  const why = s.problems.find((p) => p.path === first)?.message ?? s.unreadableWhy ?? 'not readable';
  const more = s.unreadable!.length > 1 ? ` (and ${s.unreadable!.length - 1} more)` : '';
  return {
    id: `unreadable:${id}@${first}`,
    kind: 'unreadable',
    reason: 'unreadable loop state',
    text: `omc-top cannot read ${first}${more}: ${why}; whether OMC keeps ${mode ?? 'a loop'} going is unknown`,
    since: null,
    session: id,
    mode,
    team: null,
    worker: null,
    path: first,
    waitingOn: null,
    name: null,
    tmux: null,
    action: 'detail',
  };
}

/**
 * A directory above the sessions omc-top may not list (`state`, `state/sessions`): any session in it may be running
 * a loop nobody here can see. One item per directory, named by it.
 */
export function unreadableDirNeed(dir: string, why: string | null): NeedItem {
  return {
    id: `unreadable:@${dir}`,
    kind: 'unreadable',
    reason: 'unreadable loop state',
    text: `omc-top cannot list ${dir}${why ? `: ${why}` : ''}; whether OMC keeps loops going there is unknown`,
    since: null,
    session: null,
    mode: null,
    team: null,
    worker: null,
    path: dir,
    waitingOn: null,
    name: null,
    tmux: null,
    action: 'detail',
  };
}

/** "14:02:07" in UTC: the same words in every process. */
const clockHms = (ms: number) => new Date(ms).toISOString().slice(11, 19);

const lastBeat = (t: TeamView): number | null => {
  let best: number | null = null;
  for (const w of t.workers) {
    const b = w.heartbeat?.lastBeatMs ?? null;
    if (b !== null && (best === null || b > best)) best = b;
  }
  return best;
};

/**
 * The owner's team mode while it is active (`team`, `omc-teams`: the state file's name): `c` on the item cancels
 * it, through the session's own cancel and its confirmation.
 */
const activeTeamMode = (t: TeamView): string | null => {
  if (t.owner?.modeActive !== true || !t.owner.modePath) return null;
  const m = /(?:^|\/)([a-z-]+)-state\.json$/.exec(t.owner.modePath);
  return m ? (m[1] ?? null) : null;
};

/**
 * No session runs the team any more: the mode state that named it ended (cancelled, set inactive) or is gone, and no
 * config or manifest names a leader (a link to a session is then only through that mode state). A team whose
 * leader is named but has no mode state (`omc team` run from the CLI) is not known to be over: it still counts.
 */
const modeEnded = (t: TeamView): boolean =>
  t.owner === null || (t.owner.modePath !== null && t.owner.modeActive === false);

const teamBase = (t: TeamView) => ({
  session: t.owner?.sessionId ?? null,
  mode: activeTeamMode(t),
  team: t.name,
  path: t.dir,
  waitingOn: null,
  name: null,
  tmux: null,
});

/** What "clean it up" means for a team: cancel the mode that runs it (c), and OMC's command for the workers. */
function teamCleanup(t: TeamView): string {
  const shutdown = `\`${teamShutdownCommand(t.name)}\` shuts its workers down`;
  return activeTeamMode(t) === null
    ? `${shutdown} and removes ${t.dir}/`
    : `c cancels its session's team mode; ${shutdown}`;
}

/** A failed or stalled team is one item; a dead worker of a team that still has a live one is its own. */
export function teamNeeds(t: TeamView): NeedItem[] {
  // Its session's team mode ended (cancelled, or OMC set it inactive): the leftover workers and directory are shown
  // in the Teams pane (with OMC's command that cleans them up); nothing running needs a hand any more.
  if (modeEnded(t) && t.unreadable?.[0] === undefined) return [];
  if (t.phase === 'failed') {
    const at = t.phaseHistory.at(-1)?.atMs ?? null;
    return [
      {
        ...teamBase(t),
        id: `team-failed:${t.key}@${at ?? ''}`,
        kind: 'team-failed',
        reason: 'team failed',
        text: `team ${t.name} failed`,
        since: at,
        worker: null,
        action: 'detail',
      },
    ];
  }
  if (t.stalled) {
    const beat = lastBeat(t);
    return [
      {
        ...teamBase(t),
        id: `team-stalled:${t.key}@${beat ?? ''}`,
        kind: 'team-stalled',
        reason: 'stalled: no live worker',
        text: `team ${t.name} is stalled: no live worker (${t.workers.length} listed); ${teamCleanup(t)}`,
        since: beat,
        worker: null,
        action: 'detail',
      },
    ];
  }
  const unread = t.unreadable?.[0];
  if (unread !== undefined) {
    // Not "stalled": a worker whose heartbeat omc-top may not read may be alive (TeamView.unreadable). The user must
    // look, as for a session's loop file; one item, named by the first file, the same in every process.
    const more = t.unreadable!.length > 1 ? ` (and ${t.unreadable!.length - 1} more)` : '';
    const why = t.problems.find((p) => p.path === unread)?.message ?? 'not readable';
    return [
      {
        ...teamBase(t),
        id: `unreadable:${t.key}@${unread}`,
        kind: 'unreadable',
        reason: 'unreadable loop state',
        text: `omc-top cannot read ${unread}${more}: ${why}; whether team ${t.name} has a live worker is unknown`,
        since: null,
        worker: null,
        path: unread,
        action: 'detail',
      },
    ];
  }
  if (t.phase === 'completed') return [];
  const out: NeedItem[] = [];
  for (const w of t.workers) {
    // A pid read from a heartbeat omc-top may no longer read is an old one: not proof the worker is gone.
    if (w.pidAlive !== false || w.state === 'done' || w.unreadable) continue;
    out.push({
      ...teamBase(t),
      id: `worker-dead:${t.key}/${w.name}@${w.heartbeat?.pid ?? ''}`,
      kind: 'worker-dead',
      reason: 'dead worker',
      text: `worker ${w.name} of team ${t.name} is dead (its process is gone)`,
      since: w.heartbeat?.lastBeatMs ?? null,
      worker: w.name,
      action: 'detail',
    });
  }
  return out;
}

/**
 * An OMC graph run blocked on a human gate: only a person can approve or deny it, so it needs you exactly as a
 * permission prompt does. It holds while the gate's pending file is there with no decision written for it, and
 * while the run's owner (the `omc graph run` process) may still be waiting on it: a decision written (here or
 * elsewhere), the run removed, or its owner gone (nothing waits until the run is taken over, which raises the
 * gate anew under a new owner) ends it. Its id is the gate's activation under that owner, the same in every process.
 */
export function gateNeed(g: GateView, run: GraphRunView | null): NeedItem | null {
  if (g.decided !== null) return null;
  const owner = run?.owner ?? null;
  if (owner === null || owner.alive === 'dead') return null;
  const asked = g.prompt.split('\n')[0] ?? '';
  const where = `run ${g.runId}, ${g.title ?? g.nodeId}`;
  return {
    id: `gate:${g.runId}/${g.activationId}@${owner.pid}:${owner.epoch}`,
    kind: 'gate',
    reason: GATE_REASON,
    text: `OMC gate waits for a decision: ${asked} (${where}); answer it in ! (To answer): y approve · n deny`,
    since: g.createdMs,
    session: null,
    mode: null,
    team: null,
    worker: null,
    path: g.pendingRel,
    waitingOn: `${asked} (${where})`,
    name: null,
    tmux: null,
    // Answered in `!` (To answer), as a permission prompt: a notification says "! lists it".
    action: 'detail',
  };
}

/** The reason of a waiting OMC gate (notification rules, `needs` in `watch --json`). */
export const GATE_REASON = 'OMC gate waiting';

/** The OMC gate (`<run>/<activation>`) a need stands for, or null: its "To answer" item carries the same. */
export function gateOf(n: Pick<NeedItem, 'id'>): string | null {
  if (!n.id.startsWith('gate:')) return null;
  const at = n.id.lastIndexOf('@');
  return at < 0 ? null : n.id.slice('gate:'.length, at);
}

/** Oldest first (unknown times last), then by identity so every surface lists them in one order. */
export function byAge(a: NeedItem, b: NeedItem): number {
  const x = a.since ?? Infinity;
  const y = b.since ?? Infinity;
  return x - y || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
