/**
 * OMC 5.5.0's wired Stop hook (`scripts/persistent-mode.mjs`, run by hooks.json through
 * `run.cjs`), restated as a pure function of the tree, the clock and what is known of the Stop
 * payload: the same cascade, in the same order, over the same fields. 4.15's hook is the same
 * script plus two gates and a lock requirement (rules-415.ts), so the cascade takes a variant.
 * Checked against the real hooks on generated trees and driven sequences (test/interop/verdict-*).
 *
 * Assumed, as when Claude Code runs the hook: a valid session id, no `OMC_SKIP_HOOKS`/`DISABLE_OMC`,
 * no swarm marker, a lock backend that works (5.5.0: always). Payload
 * fields omc-top cannot see are judged as a normal end of turn and listed in `unless`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ge, get, gt, le, lt, or, plusOne } from './js-coerce.js';
import { payloadEscape, unobservedEscapes } from './payload.js';
import {
  GLOBAL_PREFIX,
  HARD_MAX_RULE,
  STOP_HOOK_OFF_RULE,
  type CancelVerdict,
  type HookContext,
  type HookTree,
  type ModeVerdict,
  type RulesVersion,
  type SessionVerdict,
} from './types.js';
import { isObjectLike } from '../../io/json.js';
import { GOAL_TERMINAL, TEAM_TERMINAL } from './terminal-phase.js';

export const STALE_MS = 2 * 60 * 60 * 1000;
const AWAIT_MS = 120_000;
const TOMBSTONE_MS = 24 * 60 * 60 * 1000;
const CANCEL_TTL = 30_000;
const CANCEL_SKEW = 5_000;
const ASYNC_MS = 24 * 60 * 60 * 1000;
const SUBAGENT_MS = 30 * 60 * 1000;

const TEAM_ACTIVE = new Set([
  'team-plan',
  'team-prd',
  'team-exec',
  'team-verify',
  'team-fix',
  'planning',
  'executing',
  'verify',
  'verification',
  'fix',
  'fixing',
]);

const WAKEUP_DONE = new Set(['completed', 'complete', 'cancelled', 'canceled', 'failed', 'expired']);
const WAKEUP_FILES = ['scheduled-wakeup-state.json', 'schedule-wakeup-state.json', 'wakeup-state.json'];
/** The session-less copies the hook reads after the session's own: the same for every session. */
const SHARED_WAKEUP_RELS = WAKEUP_FILES.map((f) => `state/${f}`);
const SHARED_SIGNAL_REL = 'state/cancel-signal-state.json';
const MARKERS = ['workflow', 'workflowRunId', 'pipelineTracking'];

const own = (v: unknown, k: string) => isObjectLike(v) && Object.prototype.hasOwnProperty.call(v, k);
const hasMarkers = (s: unknown) => isObjectLike(s) && MARKERS.some((k) => own(s, k));

/** Collects the moments at which a time threshold flips some rule. */
export class Horizon {
  next: number | null = null;
  constructor(private readonly now: number) {}
  at(t: number): void {
    if (Number.isFinite(t) && t > this.now && (this.next === null || t < this.next)) this.next = t;
  }
}

function parseTs(v: unknown): number | null {
  if (typeof v !== 'string' || v.length === 0) return null;
  const t = new Date(v).getTime();
  return Number.isFinite(t) ? t : null;
}

function freshTs(v: unknown, ttl: number, now: number, h: Horizon): boolean {
  const t = parseTs(v);
  if (t === null) return false;
  h.at(t + ttl + 1);
  return now - t <= ttl;
}

/** isStaleState: newest of the *string* last_checked_at / updated_at / started_at, older than 2 h. */
export function stale(s: unknown, now: number, h: Horizon): boolean {
  if (!s) return true;
  let newest = 0;
  for (const k of ['last_checked_at', 'updated_at', 'started_at']) {
    const v = get(s, k);
    if (typeof v !== 'string' || v.length === 0) continue;
    const t = new Date(v).getTime();
    if (Number.isFinite(t) && t > newest) newest = t;
  }
  if (newest === 0) return true;
  h.at(newest + STALE_MS + 1);
  return now - newest > STALE_MS;
}

export function awaiting(s: unknown, now: number, h: Horizon): boolean {
  if (!s || get(s, 'awaiting_confirmation') !== true) return false;
  const pref = get(s, 'awaiting_confirmation_set_at');
  const started = get(s, 'started_at');
  const ts =
    typeof pref === 'string' && pref.trim() ? pref : typeof started === 'string' && started.trim() ? started : null;
  if (!ts) return false;
  const t = new Date(ts).getTime();
  const age = now - t;
  if (Number.isFinite(age) && age < 0) h.at(t);
  if (Number.isFinite(age) && age >= 0 && age < AWAIT_MS) h.at(t + AWAIT_MS);
  return Number.isFinite(age) && age >= 0 && age < AWAIT_MS;
}

const normalise = (p: string) => path.resolve(p).replace(/[/\\]+$/, '');
/**
 * Normalised absolute paths, remembered: every session's cascade compares the same few (its cwd, the
 * project_path of its states) up to seven times. A relative path resolves against the process's working
 * directory, so only absolute ones are kept. Bounded: a tree of ever-new paths starts it over.
 */
const normalised = new Map<string, string>();
function norm(p: string): string {
  if (!path.isAbsolute(p)) return normalise(p);
  let n = normalised.get(p);
  if (n === undefined) {
    if (normalised.size >= 256) normalised.clear();
    normalised.set(p, (n = normalise(p)));
  }
  return n;
}
/** isStateForCurrentProject: no project_path is fine, except for a global (~/.omc/state) copy. */
function forProject(s: unknown, cwd: string, isGlobal = false): boolean {
  if (!s) return true;
  const pp = get(s, 'project_path');
  if (!pp) return !isGlobal;
  return norm(String(pp)) === norm(cwd);
}

function autopilotPhase(s: unknown): string {
  const raw = get(s, 'phase') ?? get(s, 'current_phase') ?? 'unspecified';
  return typeof raw === 'string' && raw.trim() ? raw.trim().toLowerCase() : 'unspecified';
}

/**
 * The terminal phase (`complete`, `failed`, …) a team state is in, as teamPhase reads it, or null. The hook skips
 * such a team exactly as it skips an autopilot whose phase is complete: both are the rule `terminal` (finished).
 */
function teamTerminalPhase(s: unknown): string | null {
  if (!isObjectLike(s)) return null;
  const raw = s.current_phase ?? s.phase ?? s.stage;
  if (typeof raw !== 'string') return null;
  const p = raw.trim().toLowerCase();
  return TEAM_TERMINAL.has(p) ? p : null;
}

function teamPhase(s: unknown): string | null {
  if (!isObjectLike(s)) return null;
  const raw = s.current_phase ?? s.phase ?? s.stage;
  if (typeof raw !== 'string') return null;
  const p = raw.trim().toLowerCase();
  if (!p || TEAM_TERMINAL.has(p)) return null;
  return TEAM_ACTIVE.has(p) ? p : null;
}

function safeCount(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

export interface Loaded {
  state: unknown;
  rel: string;
  /** Read from the user's ~/.omc/state (project_path then becomes mandatory). */
  isGlobal: boolean;
}

/**
 * readStateFileWithSession: own session dir, else a copy in another session dir owned by S, else
 * `state/<file>` (or, when that is missing or unparseable, `~/.omc/state/<file>`) if owned by S.
 */
export function load(tree: HookTree, file: string, sid: string): Loaded {
  const own = `state/sessions/${sid}/${file}`;
  const mine = tree.read(own);
  if (mine) return { state: mine, rel: own, isGlobal: false };
  const copy = tree.findOwnedCopy(file, sid);
  if (copy) return { state: copy.value, rel: copy.rel, isGlobal: false };
  const shared = sharedPaths(file);
  const legacy = tree.read(shared.legacy);
  const fallback = legacy ? { state: legacy, rel: shared.legacy, isGlobal: false } : null;
  const found = fallback ?? { state: tree.read(shared.global), rel: shared.global, isGlobal: true };
  if (found.state && get(found.state, 'session_id') === sid) return found;
  return { state: null, rel: own, isGlobal: false };
}

/**
 * `state/<file>` and `~/.omc/state/<file>`, the same for every session: built once per file name (the
 * hooks' few state files), not twice per mode of every session at each publish.
 */
const sharedRels = new Map<string, { legacy: string; global: string }>();
function sharedPaths(file: string): { legacy: string; global: string } {
  let rels = sharedRels.get(file);
  if (rels === undefined) {
    if (sharedRels.size >= 256) sharedRels.clear();
    sharedRels.set(file, (rels = { legacy: `state/${file}`, global: `${GLOBAL_PREFIX}state/${file}` }));
  }
  return rels;
}

export function tombstoned(tree: HookTree, mode: string, sid: string, now: number, h: Horizon): boolean {
  const slot = get(get(tree.read(`state/sessions/${sid}/skill-active-state.json`), 'active_skills'), mode);
  if (!slot || typeof slot !== 'object') return false;
  const c = get(slot, 'completed_at');
  if (typeof c !== 'string' || !c) return false;
  const t = new Date(c).getTime();
  if (!Number.isFinite(t)) return true;
  h.at(t + TOMBSTONE_MS);
  return now - t < TOMBSTONE_MS;
}

function pendingAsyncWork(tree: HookTree, sid: string, now: number, h: Horizon): string | null {
  const hud = tree.read(`state/sessions/${sid}/hud-state.json`);
  const tasks = get(hud, 'backgroundTasks');
  if (
    Array.isArray(tasks) &&
    tasks.some(
      (t) => get(t, 'status') === 'running' && freshTs(get(t, 'startedAt') ?? get(t, 'startTime'), ASYNC_MS, now, h),
    )
  )
    return 'a background task is running (hud-state.json)';
  const agents = get(tree.read('state/subagent-tracking.json'), 'agents');
  if (
    Array.isArray(agents) &&
    agents.some((a) => get(a, 'status') === 'running' && freshTs(get(a, 'started_at'), SUBAGENT_MS, now, h))
  )
    return 'a subagent is running (subagent-tracking.json)';
  const sessionDir = `state/sessions/${sid}/`;
  // Two passes (the session's own files, then the shared ones), counted rather than looped over `[null, …]`:
  // see "Cold loops" in docs/ARCHITECTURE.md.
  for (let pass = 0; pass < 2; pass++) {
    const rels = pass === 0 ? null : SHARED_WAKEUP_RELS;
    for (let i = 0; i < WAKEUP_FILES.length; i++) {
      const f = WAKEUP_FILES[i] as string;
      const w = tree.read(rels === null ? sessionDir + f : (rels[i] as string));
      if (!w || typeof w !== 'object') continue;
      const st = get(w, 'status');
      const status = typeof st === 'string' ? st.toLowerCase() : '';
      if (WAKEUP_DONE.has(status)) continue;
      const due = parseTs(
        get(w, 'due_at') ??
          get(w, 'wakeup_at') ??
          get(w, 'scheduled_for') ??
          get(w, 'deadline_at') ??
          get(w, 'expires_at'),
      );
      if (due !== null) {
        h.at(due);
        if (due > now) return `a scheduled wakeup is pending (${f})`;
        continue;
      }
      if (
        (get(w, 'active') === true || get(w, 'pending') === true) &&
        freshTs(get(w, 'created_at') ?? get(w, 'updated_at') ?? get(w, 'started_at'), ASYNC_MS, now, h)
      )
        return `a scheduled wakeup is pending (${f})`;
    }
  }
  return null;
}

function enforceableAutopilot(s: unknown, isGlobal: boolean, ctx: HookContext, h: Horizon): boolean {
  if (!get(s, 'active') || awaiting(s, ctx.now, h) || (stale(s, ctx.now, h) && !hasMarkers(s))) return false;
  if (!forProject(s, ctx.cwd, isGlobal)) return false;
  if (get(s, 'session_id') !== ctx.sessionId) return false;
  return autopilotPhase(s) !== 'complete';
}

/** One signal file under the hook's rules; `autopilot` = the enforceable autopilot state, or null. */
function signalCheck(
  sig: unknown,
  autopilot: unknown,
  now: number,
  h: Horizon,
): { inForce: boolean; until: number | null; reason: string } {
  const no = (reason: string) => ({ inForce: false, until: null, reason });
  if (!isObjectLike(sig) || Array.isArray(sig) || sig.active !== true) return no('not an object with active: true');
  const req = typeof sig.requested_at === 'string' ? new Date(sig.requested_at).getTime() : NaN;
  const exp = typeof sig.expires_at === 'string' ? new Date(sig.expires_at).getTime() : NaN;
  if (!Number.isFinite(req)) return no('requested_at missing or not a date');
  h.at(req - CANCEL_SKEW);
  h.at(req + CANCEL_TTL + 1);
  const fresh = req <= now + CANCEL_SKEW && now - req <= CANCEL_TTL;
  if (autopilot === null) {
    const eff = Number.isFinite(exp) ? exp : req + CANCEL_TTL;
    h.at(eff);
    if (sig.mode === 'autopilot' || own(sig, 'target_state_sha256') || own(sig, 'target_workflow_run_id'))
      return no('a targeted signal (mode autopilot or target_*): the hook honours only the generic form here');
    if (!fresh)
      return no(req > now ? 'requested_at is more than 5 s in the future' : 'expired (requested over 30 s ago)');
    if (!(eff > req && eff - req <= CANCEL_TTL)) return no('expires_at is not within 30 s after requested_at');
    if (!(eff > now)) return no('expired');
    return { inForce: true, until: Math.min(eff, req + CANCEL_TTL + 1), reason: 'in force' };
  }
  if (!fresh)
    return no(req > now ? 'requested_at is more than 5 s in the future' : 'expired (requested over 30 s ago)');
  if (sig.mode !== 'autopilot' || typeof sig.source !== 'string' || sig.source.length === 0)
    return no('the session has an active autopilot: only a mode "autopilot" signal bound to its state digest counts');
  if (!Number.isFinite(exp) || exp <= req || exp - req > CANCEL_TTL)
    return no('expires_at is not within 30 s after requested_at');
  h.at(exp);
  if (exp <= now) return no('expired');
  const digest = createHash('sha256').update(JSON.stringify(autopilot)).digest('hex');
  if (
    typeof sig.target_state_sha256 !== 'string' ||
    !/^[a-f0-9]{64}$/.test(sig.target_state_sha256) ||
    sig.target_state_sha256 !== digest
  )
    return no('the autopilot state no longer matches the digest the signal was written for');
  const run = get(autopilot, 'workflowRunId');
  if (run && sig.target_workflow_run_id !== run) return no('target_workflow_run_id is not the current run');
  if (!run && sig.target_workflow_run_id) return no('target_workflow_run_id set but the state has no workflow run');
  return {
    inForce: true,
    until: Math.min(exp, req + CANCEL_TTL + 1),
    reason: 'in force (digest matches the current autopilot)',
  };
}

const NO_SID = 'written without session_id: the Stop hook ignores it';
const OTHER_SID = 'its session_id names another session: the Stop hook ignores it here';

/**
 * The gates that say the same for every session, shared (a gate's result is read, never changed): most
 * sessions have no file for most modes, and each one's "absent" was an object or two per mode per publish.
 */
const ABSENT: GateResult = { enforced: false, rule: 'absent', detail: 'no state file' };
const INACTIVE: GateResult = { enforced: false, rule: 'inactive', detail: 'not active' };
const OTHER_SESSION: GateResult = { enforced: false, rule: 'other-session', detail: OTHER_SID };
const NO_SESSION: GateResult = { enforced: false, rule: 'no-session-id', detail: NO_SID };
const AWAITING: GateResult = {
  enforced: false,
  rule: 'awaiting-confirmation',
  detail: 'awaiting confirmation (set under 2 min ago): not enforced yet',
};

/** The gate a tail mode (4.15's ultraqa, ultrawork) reports to the cascade. */
export interface GateResult {
  enforced: boolean;
  rule: string;
  detail: string;
  endsHook?: boolean;
}

/** What the cascade hands a variant's extra gates: the loaders and checks the script shares. */
export interface CascadeApi {
  tree: HookTree;
  ctx: HookContext;
  h: Horizon;
  load(file: string): Loaded;
  /** The checks a mode passes before its own rule, in the hook's order; null when all pass. */
  common(mode: string, l: Loaded, opts: { tomb?: boolean; await?: boolean; staleOk?: boolean }): GateResult | null;
  gate(mode: string, l: Loaded, res: GateResult): void;
}

/** How a version's `.mjs` hook differs from 5.5.0's. */
export interface MjsVariant {
  rules: RulesVersion;
  /** Gates after omc-teams, in order (4.15: ultraqa, ultrawork). */
  tailGates?: (api: CascadeApi) => void;
  /** Cancel signals are honoured only when this says so (4.15: flock present). */
  signalsHonoured?: (ctx: HookContext) => { ok: boolean; why: string };
}

/** The session-wide rules that let the agent stop although a mode's gate holds: the modes are paused, not ended. */
const PAUSES = new Set(['cancel-signal', 'stop-hook-active', 'payload-escape', 'async-work']);

/**
 * After the hook's decision: a gate that holds but never gets to block (a pause, or an earlier mode
 * that ends the hook) does not hold the agent at the next Stop.
 */
export function settleModes(v: SessionVerdict, early: { mode: string; rule: string } | null): SessionVerdict {
  if (v.decision === 'block') return v;
  const paused = PAUSES.has(v.rule);
  for (const m of v.modes) {
    if (!m.gateHolds) continue;
    if (v.rule === STOP_HOOK_OFF_RULE) {
      // Not a pause: the hook never runs its rules while the switch is set.
      m.enforced = false;
      m.pausedBy = STOP_HOOK_OFF_RULE;
      m.rule = STOP_HOOK_OFF_RULE;
      m.detail = `${v.detail} (its own gate holds: ${m.detail})`;
    } else if (paused) {
      m.enforced = false;
      m.pausedBy = v.rule;
      m.detail = `${m.detail}; but at the next Stop: ${v.detail}`;
    } else if (early && m.mode !== early.mode) {
      m.enforced = false;
      m.pausedBy = 'not-reached';
      m.rule = 'not-reached';
      m.detail = `the hook ends at ${early.mode} (${early.rule}) before it reaches ${m.mode}`;
    }
  }
  return v;
}

/** The 5.5.0 cascade for session `ctx.sessionId`. */
export function verdict555(tree: HookTree, ctx: HookContext): SessionVerdict {
  return mjsCascade(tree, ctx, { rules: '5.5.0' });
}

/** The `.mjs` Stop hook's cascade (5.5.0, and 4.15 through its variant). */
export function mjsCascade(tree: HookTree, ctx: HookContext, variant: MjsVariant): SessionVerdict {
  const { sessionId: sid, now, cwd } = ctx;
  const h = new Horizon(now);
  const noSha = ctx.lacks?.includes('stop-hook-active') ?? false;
  const modes: ModeVerdict[] = [];
  const cancels: CancelVerdict[] = [];
  const out = (decision: 'block' | 'stop', mode: string | null, rule: string, detail: string): SessionVerdict =>
    settleModes(
      {
        rules: variant.rules,
        decision,
        mode,
        rule,
        detail,
        modes,
        cancels,
        nextChangeAt: h.next,
        unless: decision === 'block' ? unobservedEscapes(variant.rules, ctx.stop, noSha) : [],
      },
      earlyStop,
    );

  const ralph = load(tree, 'ralph-state.json', sid);
  const goal = load(tree, 'ultragoal-state.json', sid);
  const ap = load(tree, 'autopilot-state.json', sid);
  const up = load(tree, 'ultrapilot-state.json', sid);
  const pipe = load(tree, 'pipeline-state.json', sid);
  const team = load(tree, 'team-state.json', sid);
  const teams = load(tree, 'omc-teams-state.json', sid);

  // Every mode's own gate, evaluated first so the per-mode verdicts exist whatever ends the hook.
  const common = (
    mode: string,
    l: Loaded,
    opts: { tomb?: boolean; await?: boolean; staleOk?: boolean },
  ): GateResult | null => {
    const s = l.state;
    if (!s) return ABSENT;
    if (!get(s, 'active')) return INACTIVE;
    if (opts.tomb && tombstoned(tree, mode, sid, now, h))
      return {
        enforced: false,
        rule: 'tombstoned',
        detail: 'its workflow slot completed less than 24 h ago: the hook treats it as ended',
      };
    if (opts.tomb && get(s, 'session_id') && get(s, 'session_id') !== sid) return OTHER_SESSION;
    if (opts.await && awaiting(s, now, h)) return AWAITING;
    if (stale(s, now, h) && !opts.staleOk)
      return {
        enforced: false,
        rule: 'stale',
        detail: 'no last_checked_at / updated_at / started_at in the last 2 h: the hook treats it as stale',
      };
    if (!forProject(s, cwd, l.isGlobal))
      return {
        enforced: false,
        rule: 'other-project',
        detail: l.isGlobal
          ? 'a global ~/.omc/state copy without this project_path: ignored'
          : "project_path is not the session's directory: ignored",
      };
    const owner = get(s, 'session_id');
    if (owner === sid) return null;
    return owner ? OTHER_SESSION : NO_SESSION;
  };
  const push = (mode: string, l: Loaded, enforced: boolean, rule: string, detail: string) =>
    void (l.state
      ? modes.push({ mode, path: l.rel, enforced, gateHolds: enforced, pausedBy: null, rule, detail })
      : undefined);

  let firstBlock: { mode: string; rule: string; detail: string } | null = null;
  /** A gate that ends the hook with "let stop" before later modes (ultragoal over its cap, an orphan echo). */
  let earlyStop: { mode: string; rule: string; detail: string } | null = null;
  const gate = (
    mode: string,
    l: Loaded,
    res: { enforced: boolean; rule: string; detail: string; endsHook?: boolean },
  ) => {
    push(mode, l, res.enforced, res.rule, res.detail);
    if (firstBlock || earlyStop) return;
    if (res.enforced) firstBlock = { mode, rule: res.rule, detail: res.detail };
    else if (res.endsHook) earlyStop = { mode, rule: res.rule, detail: res.detail };
  };

  // ralph: once its gates pass it always blocks (next iteration, or extending / hard-limit).
  {
    const c = common('ralph', ralph, { tomb: true, await: true });
    if (c) gate('ralph', ralph, c);
    else {
      const it = or(get(ralph.state, 'iteration'), 1);
      const max = or(get(ralph.state, 'max_iterations'), 100);
      const hard = ctx.hardMax ?? null;
      const envUnsure = hard?.envUnknown && ge(max, hard.envUnknown.at) ? hard.envUnknown.words : null;
      const unsureWords = [hard?.unknown ?? null, envUnsure].filter((x): x is string => x !== null);
      const unsure = unsureWords.length > 0 ? ` (not sure: ${unsureWords.join('; ')})` : '';
      if (lt(it, max))
        gate('ralph', ralph, { enforced: true, rule: 'iteration', detail: 'the Stop hook continues the loop' });
      // At its max the hook looks at its hard max first: reached, it blocks once more and writes active: false.
      else if (hard !== null && hard.value > 0 && ge(max, hard.value))
        gate('ralph', ralph, {
          enforced: true,
          rule: HARD_MAX_RULE,
          detail: `at the hard max (${String(hard.value)}, ${hard.source}): the hook blocks once and switches ralph off${unsure}`,
        });
      else
        gate('ralph', ralph, {
          enforced: true,
          rule: 'extend',
          detail: `at its max: the hook extends it by 10 and continues${
            hard !== null && hard.value > 0
              ? ` (the hard max ${String(hard.value)}, ${hard.source}, is not reached)`
              : ''
          }${unsure}`,
        });
    }
  }
  {
    const s = goal.state;
    // Read only when the state itself is not terminal, as the hook reads it (a missing plan: no extra read).
    let plan: string | null | undefined;
    const goalsDone = () => (plan === undefined ? (plan = goalsFileDone(tree.read(GOALS_REL))) : plan);
    const c = common('ultragoal', goal, { tomb: true, await: true });
    if (c) gate('ultragoal', goal, c);
    else if (
      (typeof get(s, 'completed_at') === 'string' && (get(s, 'completed_at') as string).length > 0) ||
      get(s, 'all_done') === true ||
      get(s, 'done') === true ||
      GOAL_TERMINAL.has(String(normPhase(get(s, 'current_phase') ?? get(s, 'phase') ?? get(s, 'status'))))
    )
      gate('ultragoal', goal, { enforced: false, rule: 'terminal', detail: 'its goal is complete' });
    else if (goalsDone() !== null)
      gate('ultragoal', goal, { enforced: false, rule: 'terminal', detail: goalsDone() as string });
    else {
      const n = plusOne(get(s, 'reinforcement_count'));
      const max = or(get(s, 'max_reinforcements'), 50);
      if (gt(n, max))
        gate('ultragoal', goal, {
          enforced: false,
          rule: 'reinforced-max',
          detail: `reinforced ${String(max)}/${String(max)}: the hook lets it stop`,
          endsHook: true,
        });
      else gate('ultragoal', goal, { enforced: true, rule: 'reinforce', detail: 'the Stop hook reinforces it' });
    }
  }
  {
    const s = ap.state;
    const named = s && hasMarkers(s);
    if (s && isOrphanEcho(s) && get(s, 'session_id') === sid && forProject(s, cwd, ap.isGlobal))
      gate('autopilot', ap, {
        enforced: false,
        rule: 'routing-echo',
        detail: 'only the routing echo of the keyword: the hook deletes it and lets the agent stop',
        endsHook: true,
      });
    else {
      const c = common('autopilot', ap, { await: true, staleOk: Boolean(get(s, 'workflow')) });
      if (c) gate('autopilot', ap, c);
      else if (named)
        gate('autopilot', ap, {
          enforced: true,
          rule: 'named-workflow',
          detail: 'a named workflow run: the hook drives its stages',
        });
      else if (autopilotPhase(s) === 'complete')
        gate('autopilot', ap, { enforced: false, rule: 'terminal', detail: 'phase complete' });
      else if (!le(plusOne(get(s, 'reinforcement_count')), 20))
        gate('autopilot', ap, {
          enforced: false,
          rule: 'reinforced-max',
          detail: 'reinforced 20/20: the hook lets it stop',
        });
      else gate('autopilot', ap, { enforced: true, rule: 'reinforce', detail: 'the Stop hook reinforces it' });
    }
  }
  {
    const c = common('ultrapilot', up, {});
    if (c) gate('ultrapilot', up, c);
    else {
      const workers = or(get(up.state, 'workers'), []);
      if (!Array.isArray(workers)) {
        // `workers.filter` throws inside the hook: its catch-all lets the agent stop.
        gate('ultrapilot', up, {
          enforced: false,
          rule: 'hook-error',
          detail: 'workers is not a list: the hook fails and lets it stop',
          endsHook: true,
        });
      } else {
        const incomplete = workers.filter(
          (w) => get(w, 'status') !== 'complete' && get(w, 'status') !== 'failed',
        ).length;
        if (incomplete === 0)
          gate('ultrapilot', up, { enforced: false, rule: 'terminal', detail: 'no worker left running' });
        else if (!le(plusOne(get(up.state, 'reinforcement_count')), 20))
          gate('ultrapilot', up, {
            enforced: false,
            rule: 'reinforced-max',
            detail: 'reinforced 20/20: the hook lets it stop',
          });
        else gate('ultrapilot', up, { enforced: true, rule: 'reinforce', detail: `${incomplete} workers running` });
      }
    }
  }
  {
    const c = common('pipeline', pipe, {});
    if (c) gate('pipeline', pipe, c);
    else {
      const cur = or(get(pipe.state, 'current_stage'), 0);
      const total = or(get(get(pipe.state, 'stages'), 'length'), 0);
      if (!lt(cur, total)) gate('pipeline', pipe, { enforced: false, rule: 'terminal', detail: 'past its last stage' });
      else if (!le(plusOne(get(pipe.state, 'reinforcement_count')), 15))
        gate('pipeline', pipe, {
          enforced: false,
          rule: 'reinforced-max',
          detail: 'reinforced 15/15: the hook lets it stop',
        });
      else gate('pipeline', pipe, { enforced: true, rule: 'reinforce', detail: 'the Stop hook reinforces it' });
    }
  }
  // Called twice, not looped over `[[mode, l], …]`: once per session at start, mostly before V8 optimises it,
  // where that loop allocates its pairs, iterators and result objects (see "Cold loops" in docs/ARCHITECTURE.md).
  const teamGate = (mode: 'team' | 'omc-teams', l: typeof team) => {
    const c = common(mode, l, {});
    if (c) gate(mode, l, c);
    else if (teamPhase(l.state) === null) {
      const ended = teamTerminalPhase(l.state);
      gate(
        mode,
        l,
        ended !== null
          ? { enforced: false, rule: 'terminal', detail: `phase ${ended}` }
          : { enforced: false, rule: 'phase', detail: 'its phase is not one the hook enforces (missing or unknown)' },
      );
    } else if (safeCount(get(l.state, 'reinforcement_count')) + 1 > 20)
      gate(mode, l, { enforced: false, rule: 'reinforced-max', detail: 'reinforced 20/20: the hook lets it stop' });
    else gate(mode, l, { enforced: true, rule: 'reinforce', detail: 'the Stop hook reinforces it' });
  };
  teamGate('team', team);
  teamGate('omc-teams', teams);

  variant.tailGates?.({ tree, ctx, h, load: (file) => load(tree, file, sid), common, gate });

  // Now the hook's own order: its switch in the environment, the payload's escapes, pending async work, a
  // named-workflow integrity stop, cancel signals, the modes.
  if (ctx.hooksOff && !ctx.lacks?.includes('hook-switch'))
    return out(
      'stop',
      null,
      STOP_HOOK_OFF_RULE,
      `not enforced: ${ctx.hooksOff}; OMC's Stop hook lets every stop through`,
    );
  const escape = payloadEscape(variant.rules, ctx.stop, noSha);
  if (escape) return out('stop', null, escape.rule, escape.detail);
  const async = pendingAsyncWork(tree, sid, now, h);
  if (async) return out('stop', null, 'async-work', `${async}: the hook lets the agent stop`);

  const apState = ap.state;
  const current =
    apState && forProject(apState, cwd, ap.isGlobal) && get(apState, 'session_id') === sid ? apState : null;
  if (current && hasMarkers(current))
    return out('block', 'autopilot', 'named-workflow', 'a named workflow run: the hook drives (or refuses) its stages');

  const apDir = path.posix.dirname(ap.rel);
  const signalRels = [`${apDir}/cancel-signal-state.json`];
  const ownSignal = `state/sessions/${sid}/cancel-signal-state.json`;
  if (!signalRels.includes(ownSignal)) signalRels.push(ownSignal);
  if (!signalRels.includes(SHARED_SIGNAL_REL)) signalRels.push(SHARED_SIGNAL_REL);
  const target = enforceableAutopilot(tree.read(ap.rel), ap.isGlobal, ctx, h) ? tree.read(ap.rel) : null;
  const honoured = variant.signalsHonoured?.(ctx) ?? { ok: true, why: '' };
  let paused: CancelVerdict | null = null;
  for (let i = 0; i < signalRels.length; i++) {
    const rel = signalRels[i]!;
    const sig = tree.read(rel);
    if (sig === null || sig === undefined) continue;
    const v = signalCheck(sig, target, now, h);
    const cv =
      honoured.ok || !v.inForce
        ? { path: rel, ...v }
        : { path: rel, inForce: false, until: null, reason: honoured.why };
    cancels.push(cv);
    if (cv.inForce && !paused) paused = cv;
  }
  if (paused)
    return out(
      'stop',
      null,
      'cancel-signal',
      `a cancel signal (${paused.path}) is in force: the hook lets the agent stop`,
    );

  if (firstBlock) {
    const fb = firstBlock as { mode: string; rule: string; detail: string };
    return out('block', fb.mode, fb.rule, fb.detail);
  }
  if (earlyStop) {
    const es = earlyStop as { mode: string; rule: string; detail: string };
    return out('stop', es.mode, es.rule, es.detail);
  }
  return out('stop', null, 'nothing-enforced', 'no mode the Stop hook enforces');
}

/** The plan the hook's terminal check reads (isUltragoalTerminalState): the legacy one, never plans/<id>/. */
export const GOALS_REL = 'ultragoal/goals.json';

/**
 * Why goals.json says the ultragoal is over, as the 5.5.0 / 4.15 hook reads it, or null: `aggregateCompletion.status`
 * exactly "complete" (no trimming), or a non-empty `goals` list whose every status, trimmed and lower-cased, is
 * `complete` or `review_blocked` (a failed or pending goal keeps it going).
 */
export function goalsFileDone(plan: unknown): string | null {
  if (!isObjectLike(plan)) return null;
  if (get(plan.aggregateCompletion, 'status') === 'complete')
    return `${GOALS_REL} says aggregateCompletion.status "complete": the hook lets it stop`;
  const goals = plan.goals;
  if (!Array.isArray(goals) || goals.length === 0) return null;
  const all = goals.every((g) => {
    const st = normPhase(get(g, 'status'));
    return st === 'complete' || st === 'review_blocked';
  });
  return all ? `every goal in ${GOALS_REL} is complete (or review_blocked): the hook lets it stop` : null;
}

function normPhase(v: unknown): string {
  return typeof v === 'string' && v.trim().length > 0 ? v.trim().toLowerCase() : '';
}

function isOrphanEcho(s: unknown): boolean {
  if (!isObjectLike(s) || hasMarkers(s)) return false;
  if (autopilotPhase(s) !== 'unspecified') return false;
  const text = [s.originalIdea, s.original_idea, s.original_prompt, s.prompt, s.task_description]
    .filter((v) => typeof v === 'string')
    .join('\n')
    .trim();
  return (
    /^\[MAGIC KEYWORDS?(?: DETECTED)?:\s*AUTOPILOT\s*\]\s*$/i.test(text) ||
    /^\/(?:oh-my-claudecode:|omc:)?autopilot(?:\s+execute)?\s*$/i.test(text)
  );
}
