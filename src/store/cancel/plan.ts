/**
 * Builds a cancel plan from what is on disk *now*: which modes end, which
 * files are written, removed or set inactive, which are left alone and why,
 * and which signal form the Stop hook will honour. The plan is what the
 * confirmation shows; its fingerprint is how a confirmed cancel notices that
 * the session changed underneath the dialog (then it re-reads and re-asks).
 *
 * Scope rules ("never the wrong session"):
 * - the session id must pass OMC's allow-list and be a real directory under the root;
 * - a state file counts for session S when it sits in S's directory and is
 *   unowned or owned by S, or sits elsewhere under the root (another session's
 *   directory, `state/`, the root) and is owned by S (`_meta.sessionId` ‖ `session_id`);
 * - unowned session-less copies are left to the "legacy" row: the Stop hook never
 *   enforces them for a session, and they may belong to a session-less run;
 * - files with named-workflow markers are only ever paused exactly (active:false), never rewritten or removed;
 * - nothing outside the .omc root is changed: a `~/.omc/state` copy the session's hooks would hold the loop from once
 *   the plan's files are gone (home-held.ts) counts as an active mode (the signal covers it for 30 s), left alone and
 *   named, so the cancel is never called ended while it holds;
 * - a mode file of the target, or its directory, that this user may not read refuses the whole plan
 *   (unreadable.ts: neither a cancel nor a pause is safe without what it holds).
 */
import { listDirSync, notReadHere, readTextSync, statSync } from '../../io/safe-fs/index.js';
import { cleanLine } from '../../io/sanitize.js';
import {
  MODE_ORDER,
  NON_MODE_STATE_FILES,
  RETIRED_IN_55,
  genericCancelVerdict,
  isValidSessionId,
  modeProgress,
  stateOwner,
} from '../sessions/omc-rules.js';
import { isKnownMode, knownModes, modeSpec } from '../sessions/modes.js';
import { autopilotEnforceable, checkLockOwnerText, hasNamedWorkflowMarkers } from './hook-rules.js';
import type { RulesVersion } from '../verdict/types.js';
import { dependentsOf, runtimeArtifactNames } from './recipe.js';
import { sha256, signalRel } from './signal.js';
import { unreadableCancelReason } from './unreadable.js';
import { homeHeldModes, homeLeftWhy, type HomeHeld, type HookWhere, type Undone } from './home-held.js';
import { SIGNAL_FILE } from '../sessions/omc-rules.js';
import { shownPath } from '../../io/shown-path.js';
import { shownArg } from '../../io/shown-arg.js';
import { LEDGER_END_REL, runEndOf } from '../runs/ledger-end.js';
import { TEAM_NAME_RE, teamNameOf, teamShutdownCommand } from '../teams/omc-team-rules.js';

export interface CancelRequest {
  /** A session id, or null for the session-less ("legacy") state in `state/` and the root. */
  sessionId: string | null;
  /** One mode (with the modes linked to it), or null for every active mode of the session. */
  mode: string | null;
  /** Signal only: nothing is removed, the loop keeps its state. */
  pauseOnly: boolean;
}

export type StepAction = 'remove' | 'deactivate' | 'pause-named';

export interface PlannedStep {
  rel: string;
  mode: string;
  action: StepAction;
  /** SHA-256 of the file text the plan was built on. */
  sha: string;
  /** For the confirmation: progress, ownership, why it is included. */
  note: string;
}

export interface PlannedSignal {
  rel: string;
  form: 'generic' | 'autopilot';
  /** The `mode` field of a generic signal. */
  mode: string;
  /** For the autopilot form: the state whose digest the signal carries. */
  autopilotRel: string | null;
  autopilotSha: string | null;
  why: string;
}

export interface CancelPlan {
  request: CancelRequest;
  /** Session id or "legacy", for messages. */
  label: string;
  /** The session directory (or `state` for legacy). */
  dir: string;
  /**
   * The session has no directory: its state is all stranded in others' (checkTarget). Its signal's directory is
   * made then, and only then: a directory that vanished after the plan is a cancel that did not take.
   */
  makesDir: boolean;
  /** Modes asked for, in the Stop hook's order. */
  modes: string[];
  /** Modes that go with them (linked). */
  linked: string[];
  signal: PlannedSignal;
  /** Mode-state changes, in execution order (empty for a pause). */
  steps: PlannedStep[];
  /** Existing runtime artifacts to remove. */
  artifacts: string[];
  /** The session's workflow-slot ledger, removed last on a whole-session cancel. */
  skillActive: { rel: string; sha: string } | null;
  /**
   * OMC 5.6's run ledger, appended an `end` line per watched run this cancel ends (store/runs/ledger-end.ts, as
   * OMC's state_clear does); null where there is none to append (no ledger directory, no watched run ending).
   */
  ledger: { rel: string; runs: string[] } | null;
  skipped: Array<{ rel: string; reason: string }>;
  warnings: string[];
  fingerprint: string;
  /** The fingerprint without file contents (see onlyProgressed). */
  shape: string;
  /**
   * The rule books of every OMC whose Stop hook runs for the session (several plugins may be enabled), null when no
   * version was found: a re-plan (execute.ts) warns by the same ones.
   */
  books: RulesVersion[] | null;
  /** Where the session's hooks run and whose ~/.omc they fall back to (null: not looked at): a re-plan looks there too. */
  where: HookWhere | null;
  /** Modes the hooks would hold from a ~/.omc copy once this plan's steps are done (left alone: outside .omc). */
  homeHeld: HomeHeld[];
}

export type PlanFailure = 'invalid-id' | 'not-found' | 'nothing-active' | 'mode-not-active' | 'unreadable';
export type PlanResult = { ok: true; plan: CancelPlan } | { ok: false; code: PlanFailure; message: string };

const STATE_FILE_RE = /^([a-z0-9][a-z0-9_-]*)-state\.json$/;
const NOT_MODES = new Set([...NON_MODE_STATE_FILES, 'cancel-signal', 'skill-active']);

interface StateFile {
  rel: string;
  mode: string;
  text: string;
  sha: string;
  value: Record<string, unknown>;
  owner: string | null;
}

function readState(root: string, rel: string, mode: string): StateFile | null {
  const r = readStateOrWhy(root, rel, mode);
  return r === null || typeof r === 'string' || 'refusedHere' in r ? null : r;
}

/** The parsed state, or why it cannot be used (the same reasons the problem lines give). */
function readStateOrWhy(
  root: string,
  rel: string,
  mode: string,
  mustMention?: string,
): StateFile | string | { refusedHere: string } | null {
  const r = readTextSync(root, rel);
  // Refused to this user (OMC writes 0600) or a disk error: OMC's hooks, run as the owner, may read it fine.
  if (!r.ok) return notReadHere(r.code) ? { refusedHere: r.message } : r.message;
  // Scanning other sessions for copies this session owns: a file that never mentions its id cannot be one.
  if (mustMention !== undefined && !r.text.includes(mustMention)) return null;
  // OMC parses the raw text, and JSON.parse rejects a byte-order mark: to OMC this file does not exist.
  // (TextDecoder drops a leading BOM silently, so it shows as 3 bytes more than the text re-encodes to.)
  const bomDropped = r.bom || (!r.invalidUtf8 && r.bytes - Buffer.byteLength(r.text, 'utf8') === 3);
  if (bomDropped) return 'starts with a byte-order mark, which OMC cannot parse';
  try {
    const v: unknown = JSON.parse(r.text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return 'not a JSON object';
    const value = v as Record<string, unknown>;
    return { rel, mode, text: r.text, sha: sha256(r.text), value, owner: stateOwner(value) };
  } catch {
    return r.text.trim() === '' ? 'empty file' : 'invalid or truncated JSON';
  }
}

/**
 * Mode-state files directly in `dir` (a session dir, `state`, or the root ""), the ones that cannot be read (as
 * OMC cannot either: `unreadable`), and the ones this user was refused (`refused`: OMC's hooks may read them fine).
 */
function modeFilesIn(
  root: string,
  dir: string,
  unreadable: Array<{ rel: string; reason: string }> = [],
  mustMention?: string,
  refused: Array<{ rel: string; why: string }> = [],
): StateFile[] {
  const list = listDirSync(root, dir);
  if (!list.ok) return [];
  const out: StateFile[] = [];
  for (const e of list.entries) {
    const m = STATE_FILE_RE.exec(e.name);
    if (!m || NOT_MODES.has(m[1] as string)) continue;
    const rel = dir === '' ? e.name : `${dir}/${e.name}`;
    // A symlink is read as OMC's hooks read it (they follow it): through the safe path, which follows it inside the
    // root and refuses one out of it (refusedHere: OMC reads it, omc-top did not, so nothing is planned).
    const f =
      e.kind === 'file' || e.kind === 'symlink'
        ? readStateOrWhy(root, rel, m[1] as string, mustMention)
        : e.kind === 'dir'
          ? 'a directory where a state file belongs'
          : 'not a regular file';
    if (f === null) continue;
    if (typeof f === 'string') {
      unreadable.push({
        rel,
        reason: `cannot be read (${cleanLine(f).slice(0, 120)}): left alone; OMC cannot read it either`,
      });
      continue;
    }
    if ('refusedHere' in f) {
      refused.push({ rel, why: f.refusedHere });
      continue;
    }
    if (!(MODE_ORDER as readonly string[]).includes(f.mode) && typeof f.value.active !== 'boolean') continue;
    out.push(f);
  }
  return out;
}

const order = (m: string) => {
  const i = (MODE_ORDER as readonly string[]).indexOf(m);
  return i === -1 ? MODE_ORDER.length : i;
};

function progressNote(f: StateFile): string {
  const p = modeProgress(f.mode, f.value);
  const parts: string[] = [];
  if (p.iteration !== null || p.max !== null) parts.push(`${p.iteration ?? '?'}/${p.max ?? '?'}`);
  if (p.phase) parts.push(`phase ${cleanLine(p.phase).slice(0, 40)}`);
  return parts.join(', ');
}

/** A still-fresh signal someone else wrote, in a few words (null when stale or unreadable). */
function describeExistingSignal(text: string, now: number): string | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  const verdict = genericCancelVerdict(v, now);
  if (verdict.expiresMs === null || verdict.expiresMs <= now) return null;
  const src = (v as Record<string, unknown>).source;
  const left = Math.ceil((verdict.expiresMs - now) / 1000);
  return `from ${typeof src === 'string' ? cleanLine(src).slice(0, 30) : 'unknown source'}, ${left} s left`;
}

type Skipped = Array<{ rel: string; reason: string }>;
type Refusal = { ok: false; code: PlanFailure; message: string };

/**
 * @param opts.rules the rule book of the OMC that runs the session's hooks, when known (every one's where several
 *   OMC plugins are enabled: Claude Code runs each one's Stop hook): a plan then says which of the modes left running
 *   one of them still enforces.
 */
export function planCancel(
  root: string,
  req: CancelRequest,
  now: number,
  opts: { rules?: RulesVersion | readonly RulesVersion[] | null; where?: HookWhere | null } = {},
): PlanResult {
  const books = opts.rules == null ? null : typeof opts.rules === 'string' ? [opts.rules] : [...opts.rules];
  const target = checkTarget(root, req.sessionId);
  if (!target.ok) return target;
  const { sid, dir, label, makesDir } = target;
  const files = gatherStateFiles(root, sid, dir, books?.includes('4.4.4') === true);
  // A mode file (or the directory) this user may not read: neither a cancel nor a pause is safe (unreadable.ts).
  if (files.refused)
    return { ok: false, code: 'unreadable', message: unreadableCancelReason(files.refused.rel, files.refused.why) };
  const { skipped } = files;
  const where = opts.where ?? null;
  // What the hooks would still read from ~/.omc once every active .omc file of the session is as a cancel leaves it.
  const held =
    sid === null || where === null ? [] : homeHeldModes(root, sid, where, books, now, undoneBy(files.active));
  const chosen = chooseModes(req, label, files, held);
  if (!chosen.ok) return chosen;
  const { modes, linked } = chosen;
  const ending = [...modes, ...linked];
  const homeHeld = held.filter((h) => ending.includes(h.mode));
  for (const h of homeHeld) skipped.push({ rel: h.rel, reason: homeLeftWhy(h) });
  const signal = chooseSignal(root, sid, dir, files.elsewhere, ending, now);
  const steps = req.pauseOnly ? [] : planSteps(sid, dir, files.active, ending, linked, skipped);
  if (!req.pauseOnly) skipped.push(...teamRuntimesLeft(root, steps, files.active));
  const artifacts = req.pauseOnly ? [] : runtimeArtifacts(root, sid, dir, ending);
  const skillActive = skillActiveClear(root, req, dir);
  const ledger = ledgerEnds(root, steps, files.active);
  const warnings = planWarnings(root, req, signal, ending, now, files.active, books, skipped);
  const { fingerprint, shape } = fingerprints(req, ending, signal, steps, artifacts, skillActive, skipped);
  return {
    ok: true,
    plan: {
      request: req,
      label,
      dir,
      makesDir,
      modes,
      linked,
      signal,
      steps,
      artifacts,
      skillActive,
      ledger,
      skipped,
      warnings,
      fingerprint,
      shape,
      books,
      where,
      homeHeld,
    },
  };
}

/** The session's active files as a cancel leaves them (named-workflow state is left as it is). */
function undoneBy(active: StateFile[]): Undone {
  const out: Undone = new Map();
  for (const f of active)
    if (!hasNamedWorkflowMarkers(f.value))
      out.set(f.rel, modeSpec(f.mode).cancel === 'deactivate' ? 'deactivate' : 'remove');
  return out;
}

/**
 * A team mode's state names its team (`team_name`): ending the mode does not ask the workers to shut down and
 * leaves the team's runtime directory (OMC 5.5's own state_clear keeps it too). The dialog says so
 * and names OMC's command that does both, so "clean it up" has a meaning.
 */
function teamRuntimesLeft(root: string, steps: PlannedStep[], active: StateFile[]): Skipped {
  const out: Skipped = [];
  for (const f of active) {
    if (!steps.some((s) => s.rel === f.rel)) continue;
    const name = f.mode === 'team' || f.mode === 'omc-teams' ? teamNameOf(f.value) : null;
    if (name === null || !TEAM_NAME_RE.test(name)) continue;
    const rel = [`state/team/${name}`, `state/team-bridge/${name}`].find((d) => statSync(root, d)?.isDirectory());
    if (!rel || out.some((o) => o.rel === `${rel}/`)) continue;
    out.push({
      rel: `${rel}/`,
      reason: `team ${name}'s workers and this directory: omc-top ends only the mode; \`${teamShutdownCommand(name)}\` (OMC) shuts the workers down and cleans it up`,
    });
  }
  return out;
}

/**
 * The session id passes OMC's allow-list and names a real directory (or is null: the session-less state), or a
 * session whose only state is stranded in other sessions' directories (files naming it as owner: its Stop hook
 * reads them, and cancelling it is the one way to end them; the signal's directory is then made, as OMC's own
 * state writes make it).
 */
function checkTarget(
  root: string,
  sid: string | null,
): Refusal | { ok: true; sid: string | null; dir: string; label: string; makesDir: boolean } {
  if (sid !== null && !isValidSessionId(sid)) {
    return {
      ok: false,
      code: 'invalid-id',
      message: `${shownArg(sid)} is not a valid OMC session id (letters, digits, "-" and "_", at most 256)`,
    };
  }
  const dir = sid === null ? 'state' : `state/sessions/${sid}`;
  if (sid !== null) {
    const st = statSync(root, dir);
    if (!st && copiesOwnedElsewhere(root, sid).length > 0) return { ok: true, sid, dir, label: sid, makesDir: true };
    // A symlinked session directory is one OMC's Stop hook reads through: the listing says what is in it (or that it
    // leads out of the root, so omc-top will not look: refused, never "no session").
    if (!st || (!st.isDirectory() && !st.isSymbolicLink())) {
      return {
        ok: false,
        code: 'not-found',
        message: `no session ${sid} under ${shownPath(root)} (${dir} is ${st ? 'not a directory' : 'missing'})`,
      };
    }
  }
  return { ok: true, sid, dir, label: sid ?? 'legacy', makesDir: false };
}

interface TargetFiles {
  /** Files in the target's own place (its directory; `state/` and the root for legacy) that are its own. */
  mine: StateFile[];
  /** Copies elsewhere under the root that name the session as owner. */
  elsewhere: StateFile[];
  all: StateFile[];
  active: StateFile[];
  /** Each mode's state: the session's own copy wins. */
  states: Map<string, Record<string, unknown>>;
  skipped: Skipped;
  /** The first of the target's own places this user may not read (its directory, a mode file), and why; or null. */
  refused: { rel: string; why: string } | null;
}

/**
 * Every state file that may belong to the target, and who owns it. `by444`: OMC 4.4's Stop hook runs for the session
 * (alone or beside another OMC plugin): it takes a file in the session's directory whose `session_id` names the
 * session for the session's own, whatever `_meta` says, so such a file is the target's to end (no other session's
 * hook reads it there).
 */
function gatherStateFiles(root: string, sid: string | null, dir: string, by444 = false): TargetFiles {
  const skipped: Skipped = [];
  const refused: Array<{ rel: string; why: string }> = [];
  const listing = listDirSync(root, dir);
  if (!listing.ok && notReadHere(listing.code)) refused.push({ rel: dir, why: listing.message });
  const own: StateFile[] =
    sid === null
      ? [
          ...modeFilesIn(root, 'state', skipped, undefined, refused),
          ...modeFilesIn(root, '', skipped, undefined, refused),
        ]
      : modeFilesIn(root, dir, skipped, undefined, refused);
  const mine: StateFile[] = [];
  for (const f of own) {
    if (sid !== null && f.owner !== null && f.owner !== sid && !(by444 && f.value.session_id === sid)) {
      if (f.value.active === true)
        skipped.push({
          rel: f.rel,
          reason: `owned by session ${cleanLine(f.owner)} (stranded here); cancel that session instead`,
        });
      continue;
    }
    mine.push(f);
  }
  const elsewhere = sid === null ? [] : copiesOwnedElsewhere(root, sid);
  const all = [...mine, ...elsewhere];
  const states = new Map<string, Record<string, unknown>>();
  for (const f of [...elsewhere, ...mine]) states.set(f.mode, f.value);
  return {
    mine,
    elsewhere,
    all,
    active: all.filter((f) => f.value.active === true),
    states,
    skipped,
    refused: refused[0] ?? null,
  };
}

/** State files in other session directories, `state/` and the root whose owner is `sid`. */
function copiesOwnedElsewhere(root: string, sid: string): StateFile[] {
  const out: StateFile[] = [];
  const sessions = listDirSync(root, 'state/sessions');
  if (sessions.ok) {
    for (const e of sessions.entries) {
      if (e.kind !== 'dir' || e.name === sid || !isValidSessionId(e.name)) continue;
      for (const f of modeFilesIn(root, `state/sessions/${e.name}`, [], sid)) if (f.owner === sid) out.push(f);
    }
  }
  for (const f of [...modeFilesIn(root, 'state', [], sid), ...modeFilesIn(root, '', [], sid)])
    if (f.owner === sid) out.push(f);
  return out;
}

/** Which modes end: the one asked for (or every active one), then the active modes linked to them. */
function chooseModes(
  req: CancelRequest,
  label: string,
  files: TargetFiles,
  held: HomeHeld[],
): Refusal | { ok: true; modes: string[]; linked: string[] } {
  const { all, active, skipped } = files;
  let modes: string[];
  if (req.mode !== null) {
    if (!active.some((f) => f.mode === req.mode) && !held.some((h) => h.mode === req.mode)) {
      const present = all.find((f) => f.mode === req.mode);
      return {
        ok: false,
        code: 'mode-not-active',
        message: present
          ? `${req.mode} in ${label} is not active (active is ${JSON.stringify(present.value.active)}): nothing to ${req.pauseOnly ? 'pause' : 'cancel'}`
          : `no ${cleanLine(req.mode)} state in ${label}${isKnownMode(req.mode) ? '' : ` (${cleanLine(req.mode)} is none of the modes omc-top knows: ${knownModes().join(', ')})`}`,
      };
    }
    modes = [req.mode];
  } else {
    modes = [...new Set([...active.map((f) => f.mode), ...held.map((h) => h.mode)])].sort(
      (a, b) => order(a) - order(b),
    );
    if (modes.length === 0) {
      const extra = skipped.length ? ` (${skipped.map((s) => `${s.rel}: ${s.reason}`).join('; ')})` : '';
      return {
        ok: false,
        code: 'nothing-active',
        message: `no active mode in ${label}: nothing to ${req.pauseOnly ? 'pause' : 'cancel'}${extra}`,
      };
    }
  }
  const linked: string[] = [];
  const queue = [...modes];
  while (queue.length > 0) {
    const m = queue.shift() as string;
    for (const d of dependentsOf(m, files.states)) {
      if (modes.includes(d) || linked.includes(d) || !active.some((f) => f.mode === d)) continue;
      linked.push(d);
      queue.push(d);
    }
  }
  return { ok: true, modes, linked };
}

/** The signal form: the hook demands the digest-bound form while the session's autopilot is enforceable. */
function chooseSignal(
  root: string,
  sid: string | null,
  dir: string,
  elsewhere: StateFile[],
  ending: string[],
  now: number,
): PlannedSignal {
  // The hook's lookup: the session's own file, else a copy elsewhere whose top-level session_id is S.
  const autopilot =
    sid === null
      ? null
      : (readState(root, `${dir}/autopilot-state.json`, 'autopilot') ??
        elsewhere.find((f) => f.mode === 'autopilot' && f.value.session_id === sid) ??
        null);
  const started = sid === null ? null : readState(root, `${dir}/session-started.json`, 'session-started');
  const sessionCwd = typeof started?.value.cwd === 'string' ? started.value.cwd : null;
  const enforce = autopilot && sid !== null ? autopilotEnforceable(autopilot.value, sid, now, sessionCwd) : null;
  if (autopilot && enforce?.enforceable)
    return {
      rel: signalRel(sid),
      form: 'autopilot',
      mode: 'autopilot',
      autopilotRel: autopilot.rel,
      autopilotSha: autopilot.sha,
      why: `autopilot form: bound to the SHA-256 of ${autopilot.rel} (the session has an active autopilot, so OMC ignores a generic signal)`,
    };
  return {
    rel: signalRel(sid),
    form: 'generic',
    mode: ending.find((m) => m !== 'autopilot') ?? 'skill-active',
    autopilotRel: null,
    autopilotSha: null,
    why:
      autopilot && enforce
        ? `generic form (the autopilot is ${enforce.reason}, so OMC applies the generic rule)`
        : 'generic form',
  };
}

/**
 * What changes, in the order it will run: helpers first, the autopilot last, so a digest-bound signal keeps
 * covering the session until the very end. Named-workflow state is only ever paused exactly (else skipped).
 */
function planSteps(
  sid: string | null,
  dir: string,
  active: StateFile[],
  ending: string[],
  linked: string[],
  skipped: Skipped,
): PlannedStep[] {
  const steps: PlannedStep[] = [];
  const targets = active.filter((f) => ending.includes(f.mode));
  targets.sort(
    (a, b) =>
      Number(a.mode === 'autopilot') - Number(b.mode === 'autopilot') ||
      ending.indexOf(a.mode) - ending.indexOf(b.mode),
  );
  for (const f of targets) {
    const whose = f.owner === null ? 'unowned' : f.owner === sid ? null : `owned by ${cleanLine(f.owner)}`;
    const bits = [
      progressNote(f),
      linked.includes(f.mode) ? `linked` : null,
      RETIRED_IN_55.has(f.mode) ? 'retired in OMC 5.5' : null,
      whose,
      f.rel.startsWith(`${dir}/`) ? null : 'copy outside the session directory',
    ];
    const note = bits.filter(Boolean).join('; ');
    if (hasNamedWorkflowMarkers(f.value)) {
      if (f.mode === 'autopilot' && typeof f.value.workflowRunId === 'string' && (sid === null || f.owner === sid)) {
        steps.push({
          rel: f.rel,
          mode: f.mode,
          action: 'pause-named',
          sha: f.sha,
          note: [note, `named workflow run ${cleanLine(f.value.workflowRunId)}`].filter(Boolean).join('; '),
        });
      } else {
        skipped.push({
          rel: f.rel,
          reason:
            'named-workflow state (workflow/workflowRunId/pipelineTracking): OMC owns it and only its exact pause is allowed, which needs an owned autopilot run',
        });
      }
      continue;
    }
    steps.push({
      rel: f.rel,
      mode: f.mode,
      action: modeSpec(f.mode).cancel === 'deactivate' ? 'deactivate' : 'remove',
      sha: f.sha,
      note,
    });
  }
  return steps;
}

/** The runs whose `end` line the steps append to OMC 5.6's ledger (the question execute.ts asks of each step). */
function ledgerEnds(root: string, steps: PlannedStep[], active: StateFile[]): CancelPlan['ledger'] {
  const runs: string[] = [];
  for (const s of steps) {
    if (s.action === 'pause-named') continue;
    const run = runEndOf(root, s.rel, active.find((f) => f.rel === s.rel)?.value ?? null);
    if ('mode' in run) runs.push(run.mode);
  }
  return runs.length === 0 ? null : { rel: LEDGER_END_REL, runs };
}

/** The ending modes' runtime artifacts that exist, in the session directory and in `state/`. */
function runtimeArtifacts(root: string, sid: string | null, dir: string, ending: string[]): string[] {
  const artifacts: string[] = [];
  const dirs = sid === null ? ['state'] : [dir, 'state'];
  for (const m of ending) {
    for (const d of dirs) {
      for (const name of runtimeArtifactNames(m)) {
        const rel = `${d}/${name}`;
        if (statSync(root, rel)?.isFile()) artifacts.push(rel);
      }
    }
  }
  return artifacts;
}

/**
 * The cancel skill ends with the session's skill-active clear; only on a whole-session cancel (a lone mode
 * keeps the ledger: removing it could lift another mode's tombstone).
 */
function skillActiveClear(root: string, req: CancelRequest, dir: string): CancelPlan['skillActive'] {
  if (req.pauseOnly || req.mode !== null || req.sessionId === null) return null;
  const r = readTextSync(root, `${dir}/skill-active-state.json`);
  return r.ok ? { rel: `${dir}/skill-active-state.json`, sha: sha256(r.text) } : null;
}

/** Things that would make OMC ignore or outlive the cancel. */
function planWarnings(
  root: string,
  req: CancelRequest,
  signal: PlannedSignal,
  ending: string[],
  now: number,
  active: StateFile[],
  books: RulesVersion[] | null,
  skipped: Skipped,
): string[] {
  const warnings: string[] = [];
  const sigLock = readTextSync(root, `${signal.rel}.mutation.lock`);
  if (sigLock.ok && !checkLockOwnerText(sigLock.text).ok) {
    warnings.push(
      `${signal.rel}.mutation.lock is malformed: OMC ignores every cancel signal here until that file is deleted`,
    );
  }
  const existing = readTextSync(root, signal.rel);
  if (existing.ok) {
    const v = describeExistingSignal(existing.text, now);
    if (v) warnings.push(`replaces the current ${SIGNAL_FILE} (${v})`);
  }
  if (req.sessionId === null)
    warnings.push(
      `${signal.rel} is read by the Stop hook of every session of this project: any of them may stop at its next Stop event in the next 30 s`,
    );
  // Only a mode the steps remove: one whose every file is left alone (named-workflow state) is not "removed", and
  // the warning below says what that leaves.
  const removed = (m: string) => active.some((f) => f.mode === m && !skipped.some((x) => x.rel === f.rel));
  for (const m of ending) {
    if (RETIRED_IN_55.has(m) && !req.pauseOnly && removed(m))
      warnings.push(`${m} is retired in OMC 5.5 (not enforced there); removed because OMC 4.x still enforces it`);
  }
  // A mode left running that one of the session's OMCs still enforces keeps the agent working after the 30 s signal
  // (at once under 4.4, whose hook never reads the signal).
  const olds = books === null ? null : books.filter((b) => b !== '5.5.0');
  if (req.mode !== null && !req.pauseOnly && (olds === null || olds.length > 0)) {
    const whose =
      olds === null ? 'an OMC 4.x' : `OMC ${olds.map((b) => (b === '4.4.4' ? '4.4' : '4.15')).join("'s and ")}'s`;
    // 4.4's hook never reads the signal: the agent is kept working at once, not after 30 s.
    const when = olds?.includes('4.4.4')
      ? 'at once (OMC 4.4 never reads cancel signals)'
      : 'once the 30 s signal has passed';
    for (const f of active) {
      if (ending.includes(f.mode) || !RETIRED_IN_55.has(f.mode)) continue;
      warnings.push(
        `${f.mode} (${f.rel}) stays: it was not started together with ${req.mode}, and ${whose} Stop hook enforces it, so it keeps the agent working ${when} (cancel it too: --mode ${f.mode}, or the whole session)`,
      );
    }
  }
  // A file left alone in the session's directory that OMC 4.4's hook enforces for it: that hook never reads the
  // cancel's signal, so the agent is kept working at once (said before anything is written, as a pause's refusal).
  if (books?.includes('4.4.4') && req.sessionId !== null && !req.pauseOnly)
    for (const f of active) {
      if (f.rel !== `state/sessions/${req.sessionId}/${f.mode}-state.json` || f.value.session_id !== req.sessionId)
        continue;
      if (!ending.includes(f.mode) || !skipped.some((x) => x.rel === f.rel)) continue;
      warnings.push(
        `${f.rel} is left as it is, and OMC 4.4's Stop hook, which runs for this session, never reads cancel signals: it keeps the agent working for ${f.mode}`,
      );
    }
  return warnings;
}

/**
 * The plan's fingerprint (what it will do, and to which bytes), and its shape: the same but for file contents
 * (what the user agreed to do, not the bytes it will do it to; see onlyProgressed).
 */
function fingerprints(
  req: CancelRequest,
  ending: string[],
  signal: PlannedSignal,
  steps: PlannedStep[],
  artifacts: string[],
  skillActive: CancelPlan['skillActive'],
  skipped: Skipped,
): { fingerprint: string; shape: string } {
  const fingerprint = sha256(
    JSON.stringify({
      req,
      ending,
      signal: [signal.form, signal.autopilotRel, signal.autopilotSha],
      steps: steps.map((s) => [s.rel, s.action, s.sha]),
      artifacts,
      skillActive,
      skipped,
    }),
  );
  const shape = sha256(
    JSON.stringify({
      req,
      ending,
      signal: [signal.form, signal.autopilotRel],
      steps: steps.map((s) => [s.rel, s.action, s.mode]),
      artifacts,
      skillActive: skillActive?.rel ?? null,
      skipped,
    }),
  );
  return { fingerprint, shape };
}

/**
 * True when a fresh plan does the very same things as the confirmed one, and
 * only the contents of the files have moved on: a loop wrote its next
 * iteration while the dialog was open. The user asked to end that loop, not
 * that iteration, so acting on the fresh plan is what they meant; re-asking
 * would never end a loop that iterates faster than the dialog is read. The
 * exact pause of a named workflow run is the one step bound to the very
 * contents that were confirmed.
 */
export function onlyProgressed(confirmed: CancelPlan, fresh: CancelPlan): boolean {
  if (confirmed.shape !== fresh.shape) return false;
  const was = new Map(confirmed.steps.map((s) => [s.rel, s.sha]));
  return fresh.steps.every((s) => s.action !== 'pause-named' || was.get(s.rel) === s.sha);
}

/** What changed between the plan the user saw and a fresh one, in words. */
export function describeChange(before: CancelPlan, after: CancelPlan): string {
  const bits: string[] = [];
  const shaOf = (p: CancelPlan) => new Map(p.steps.map((s) => [s.rel, s.sha]));
  const a = shaOf(before);
  const b = shaOf(after);
  for (const [rel, sha] of b) if (a.has(rel) && a.get(rel) !== sha) bits.push(`${rel} was rewritten`);
  for (const rel of b.keys()) if (!a.has(rel)) bits.push(`${rel} is new`);
  for (const rel of a.keys()) if (!b.has(rel)) bits.push(`${rel} is gone or no longer active`);
  const skippedBefore = new Set(before.skipped.map((s) => s.rel));
  for (const s of after.skipped) if (!skippedBefore.has(s.rel)) bits.push(`${s.rel} is now left alone (${s.reason})`);
  const artifactsBefore = new Set(before.artifacts);
  for (const rel of after.artifacts) if (!artifactsBefore.has(rel)) bits.push(`${rel} is new`);
  if (before.signal.form !== after.signal.form) bits.push(`the signal form is now ${after.signal.form}`);
  else if (before.signal.autopilotSha !== after.signal.autopilotSha)
    bits.push(`${after.signal.autopilotRel ?? 'the autopilot state'} changed`);
  if (bits.length === 0) bits.push('the files involved changed');
  return bits.join('; ');
}
