/**
 * `omc-top cancel <session-id> [--mode M] [--signal-only] [--json]`: the
 * keystroke cancel for scripts. Same plan, same recipe, same verification as
 * the TUI; no dialog (the caller asked explicitly).
 *
 * Exit codes: 0 the cancel took effect on disk (or, with --signal-only, OMC's
 * Stop hook honours the signal right now); 1 it did not (reason printed; also a session
 * whose mode file or directory omc-top may not read: refused, nothing written);
 * 2 usage (bad flags, invalid session id); 3 refused by --readonly;
 * 4 nothing to cancel (no such session, no active mode, no .omc).
 */
import { fitHelp } from './help-width.js';
import { executeCancel, ledgerAppends, type CancelDone } from '../store/cancel/execute.js';
import { ledgerTail } from '../store/cancel/describe.js';
import { planCancel, type CancelPlan, type CancelRequest } from '../store/cancel/plan.js';
import { alreadyEndedText, endedByJson, endedByRecord } from '../store/cancel/already-ended.js';
import { holdUntilFileForTest } from './test-pause.js';
import { listDirSync, readJsonSync, statSync } from '../io/safe-fs/index.js';
import { sessionInstall, sessionTranscriptInstall, type OmcInstall, type RulesVersion } from '../store/omc-install.js';
import { cancelBooks, deafWords, enabledInstalls, pauseRefusal } from '../store/cancel/pause-support.js';
import { resolveRootAndOmc } from '../store/omc-root.js';
import { noRootMessage } from '../store/root.js';
import { hookLook } from '../store/cancel/hook-look.js';
import { RULE_BOOKS, stopVerdict, type SessionVerdict } from '../store/verdict/index.js';
import { cleanLine, terminalSafeJson } from '../io/sanitize.js';
import { processSink } from '../io/output.js';
import { isValidSessionId } from '../store/sessions/omc-rules.js';
import { SESSION_PREFIX } from '../store/cancel/target.js';
import {
  cancelRecordOf,
  claudeAtSignal,
  claudeWords,
  followClaude,
  trackerKey,
  type ClaudeSide,
} from '../store/cancel/tracker.js';
import { CancelRecordFile, type CancelRecord } from '../store/cancel/cancel-records.js';
import { ownStateDir } from '../io/state-dir.js';
import { AgentPoller } from '../store/claude/agent-poller.js';
import { findClaudeConfigDir } from '../store/claude/config-dir.js';
import { parseArgs, UsageError, rootFlag } from './args.js';
import { checkOmcVersionFlag } from './omc-version-flag.js';
import { homeDir } from '../io/home-dir.js';
import { shownArg } from '../io/shown-arg.js';

export const CANCEL_EXIT = { ok: 0, notTaken: 1, usage: 2, readonly: 3, nothing: 4, notStopped: 5 } as const;

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = {
  mode: 'value',
  'signal-only': 'bool',
  wait: 'value',
  json: 'bool',
  cwd: 'value',
  root: 'value',
  readonly: 'bool',
  'omc-version': 'value',
  help: 'bool',
} as const;

export const CANCEL_USAGE = `Usage: omc-top cancel <session-id> [--mode MODE] [--signal-only] [--wait SECONDS] [--json] [--cwd DIR | --root DIR] [--omc-version X] [--readonly]

Ends a session's OMC loop the way OMC's own cancel does and checks that it took:
writes state/sessions/<id>/cancel-signal-state.json (OMC's 30 s cancel signal),
removes the mode files (and linked modes), sets an autopilot inactive (progress kept).
Then says what the session's Claude process was doing: a Claude in a turn stops only
when the turn ends and OMC's Stop hook lets it; "stopped ✓" only once that is seen.
  --mode MODE     only this mode (and the modes linked to it)
  --signal-only   pause: write the signal only; nothing is removed (30 s)
  --wait SECONDS  wait up to SECONDS for Claude to be seen stopping (registry, transcript, exit)
  --json          one JSON document on stdout
  --omc-version X judge with OMC X's Stop-hook rules (default: the OMC running the hooks);
                  OMC 4.4.4 ignores cancel signals, so --signal-only is refused there
A unique prefix of a session id is enough (as with git); an ambiguous one lists the candidates.
"legacy" as the id means the session-less state in .omc/state/; "session:ID" names exactly one session
directory, never a prefix (e.g. "session:legacy" for a directory that is itself named legacy).
Exit: 0 took effect on disk, 1 did not, 2 usage, 3 --readonly, 4 nothing to cancel,
5 (--wait only) it took effect on disk but Claude was not seen to stop in time.`;

interface Io {
  out(s: string): void;
  err(s: string): void;
  cwd: string;
  now(): number;
  /** Where the OMC install is looked up (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

const omcJson = (o: OmcInstall) => ({
  version: o.version,
  source: o.source,
  assumed: o.assumed,
  rules: o.rules,
  exact: o.book.exact,
});

/**
 * The verdict engine on a fresh read of disk: for a cancel, none of the modes it ended may still
 * be enforced; for a pause, the signal must be what lets the session's Stop hook stop.
 */
export function verifyByVerdict(
  root: string,
  done: CancelDone,
  rules: RulesVersion,
  projectDir: string,
  now: number,
  home: string | null = null,
): { ok: boolean; why: string; line: string; verdict: SessionVerdict | null } {
  const sid = done.plan.request.sessionId;
  if (sid === null) return { ok: true, why: '', line: 'session-less state: no one session to judge', verdict: null };
  // The files the session's hooks read, ~/.omc's fallback copies included, as the monitor's tracker reads them.
  const { tree, cwd } = hookLook(root, sid, { projectDir, home });
  const v = stopVerdict(tree, { rules, sessionId: sid, cwd, now });
  // A gate the cancel's own signal only covers for its 30 s (a ~/.omc copy no cancel removes): said with the stop.
  const after = v.modes.filter((m) => m.gateHolds && m.pausedBy === 'cancel-signal');
  const line =
    v.decision === 'block'
      ? `blocks at the next Stop for ${v.mode ?? '?'} (${v.detail})`
      : after.length > 0
        ? `lets the agent stop while the cancel signal is in force (${v.detail}); after that it blocks for ${after.map((m) => `${m.mode} (${m.path})`).join(', ')}`
        : `lets the agent stop (${v.detail})`;
  const ended = new Set([...done.plan.modes, ...done.plan.linked]);
  if (done.plan.request.pauseOnly) {
    const ok = v.rule === 'cancel-signal' || v.decision === 'stop';
    return { ok, why: `the Stop hook still blocks: ${line}`, line, verdict: v };
  }
  // The gate, not the decision: the cancel's own signal lets the agent stop for 30 s, its files must not. A whole
  // session's cancel ends every mode this book enforces for it, also one the plan left (another book's owner rule).
  const whole = done.plan.request.mode === null;
  const still = v.modes.filter((m) => m.gateHolds && (whole || ended.has(m.mode)));
  return {
    ok: still.length === 0,
    why: `the Stop hook still enforces ${still.map((m) => m.mode).join(', ')}`,
    line,
    verdict: v,
  };
}

/**
 * With the OMC version unknown: the same check under every rule book, grouped by outcome, so the
 * report says which versions the result holds for. null when every book agrees.
 */
function verifyUnderEveryBook(
  root: string,
  done: CancelDone,
  projectDir: string,
  now: number,
  home: string | null,
): Array<{ rules: RulesVersion[]; ok: boolean; line: string }> | null {
  const out: Array<{ rules: RulesVersion[]; ok: boolean; line: string }> = [];
  for (const rules of RULE_BOOKS) {
    const r = verifyByVerdict(root, done, rules, projectDir, now, home);
    const line = r.ok ? r.line : r.why;
    const same = out.find((x) => x.ok === r.ok && x.line === line);
    if (same) same.rules.push(rules);
    else out.push({ rules: [rules], ok: r.ok, line });
  }
  return out.some((x) => !x.ok) && out.some((x) => x.ok) ? out : null;
}

/** The releases each book judges, for "depends on the version" messages. */
const BOOK_RANGES: Record<RulesVersion, string> = {
  '5.5.0': 'OMC 5.x',
  '4.15.10': 'OMC 4.6.1–4.15',
  '4.4.4': 'OMC 4.6.0 and older',
};

/** The newest omc-top cancel recorded for the session, read now: another omc-top may have written it a moment ago. */
const recordOf = (env: NodeJS.ProcessEnv, root: string, sessionId: string | null, now: number) =>
  new CancelRecordFile(ownStateDir(env), root, () => now).getSnapshot().records.get(trackerKey(sessionId));

/**
 * A loop found already ended: the words, and the omc-top cancel whose record ended it (null when none names one), which
 * `--json` carries as `ended_by` so a script need not read it out of the words.
 */
interface AlreadyEnded {
  message: string;
  rec: CancelRecord | null;
}

/** The plan's loop ended between this command's plan and its write (another omc-top, OMC's /cancel, its own end). */
function endedMeanwhile(
  env: NodeJS.ProcessEnv,
  root: string,
  plan: CancelPlan,
  why: string,
  now: number,
): AlreadyEnded {
  const rec = endedByRecord(recordOf(env, root, plan.request.sessionId, now), plan.modes, now);
  return {
    rec,
    message: alreadyEndedText({
      rec,
      what: [...plan.modes, ...plan.linked].join(', '),
      label: plan.label,
      when: "between this command's plan and its write",
      why,
    }),
  };
}

/**
 * Nothing active when the command ran: when another omc-top's cancel a moment earlier ended it, that cancel is named
 * (as the monitor's dialog names it); else the plan's own words, which say what the disk holds. A pause asks no one.
 */
function endedBeforeRun(
  env: NodeJS.ProcessEnv,
  root: string,
  req: CancelRequest,
  why: string,
  now: number,
): AlreadyEnded | null {
  if (req.pauseOnly) return null;
  const rec = endedByRecord(recordOf(env, root, req.sessionId, now), req.mode === null ? null : [req.mode], now);
  if (rec === null) return { rec, message: why };
  return {
    rec,
    message: alreadyEndedText({
      rec,
      what: req.mode ?? rec.modes.join(', '),
      label: req.sessionId ?? 'legacy',
      when: 'before this command ran',
      why,
    }),
  };
}

const defaultIo: Io = { ...processSink, cwd: process.cwd(), now: Date.now };

/** A failure: its words on stderr, or with --json `{ok: false, error, message}` and, for a loop already ended, `ended_by`. */
function fail(
  io: Io,
  json: boolean,
  code: number,
  error: string,
  message: string,
  ended?: AlreadyEnded | null,
): number {
  if (json)
    io.out(
      terminalSafeJson({ ok: false, error, message, ...(ended ? { ended_by: endedByJson(ended.rec) } : {}) }) + '\n',
    );
  else io.err(`omc-top cancel: ${message}\n`);
  return code;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** How often --wait looks again: the registry and the transcript are small reads. */
const WAIT_STEP_MS = 200;

const inTurnAtCancel = (c: ClaudeSide) => c.atCancel === 'busy' || c.atCancel === 'waiting';

/**
 * The session's Claude process right after the signal, and (with --wait) until it is seen to stop or the
 * time is up. The session-less state has no one process.
 */
async function watchClaude(
  done: CancelDone,
  root: string,
  projectDir: string,
  waitMs: number,
  io: Io,
): Promise<ClaudeSide | null> {
  const sid = done.plan.request.sessionId;
  if (sid === null) return null;
  const started = readJsonSync(root, `state/sessions/${sid}/session-started.json`);
  const cwd =
    started.ok && typeof (started.value as Record<string, unknown> | null)?.cwd === 'string'
      ? String((started.value as Record<string, unknown>).cwd)
      : projectDir;
  const poller = new AgentPoller(findClaudeConfigDir(io.env ?? process.env).dir, sid, cwd, io.now);
  const requested = done.signal.requestedMs;
  let side = claudeAtSignal(poller.look(), requested);
  const end = io.now() + waitMs;
  while (inTurnAtCancel(side) && side.stoppedMs === null && io.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(WAIT_STEP_MS, Math.max(1, end - io.now()))));
    side = followClaude(side, poller.look(), requested);
  }
  return side;
}

/**
 * Claude seen to stop with the loop still ended on disk (`ended()`, judged at that moment): this cancel's verdict,
 * `stopped`, told to every other omc-top process in its record (store/cancel/settled.ts), as a monitor's tracker
 * tells what it saw. Anything else is left to the record's word in flight: this command does not follow the window;
 * any live omc-top on the root does, and records its settlement (store/cancel/follow.ts), the first to settle only.
 */
async function recordStop(
  records: CancelRecordFile,
  done: CancelDone,
  claude: ClaudeSide,
  ended: () => boolean,
  now: number,
): Promise<void> {
  if (claude.stoppedMs === null || claude.seen === null || !ended()) return;
  const settled = {
    word: 'stopped',
    atMs: now,
    stoppedMs: claude.stoppedMs,
    seen: claude.seen,
    byPid: process.pid,
  } as const;
  // Not written: the record file's problem line says so to this process; the others say the store's word.
  await records.settle(cancelRecordOf(done).key, done.signal.requestedMs, settled);
}

function ledgerJson(done: CancelDone): { path: string; runs: string[]; lines: unknown[] } | null {
  const l = ledgerAppends(done.steps);
  return l && { path: l.rel, runs: l.runs, lines: l.lines.map((x) => JSON.parse(x) as unknown) };
}

function report(done: CancelDone): Record<string, unknown> {
  const p = done.plan;
  return {
    ok: done.ok,
    summary: done.summary,
    session: p.request.sessionId ?? 'legacy',
    pause: p.request.pauseOnly,
    modes: p.modes,
    linked: p.linked,
    signal: {
      path: done.signal.rel,
      form: done.signal.form,
      requested_at: iso(done.signal.requestedMs),
      expires_at: iso(done.signal.expiresMs),
      in_force: done.signalInForce,
      reason: done.signalReason,
    },
    steps: done.steps.map((s) => ({ path: s.rel, action: s.what, ok: s.ok, detail: s.detail })),
    // OMC 5.6's run ledger: the end lines appended, as written (null: none, no ledger here or no watched run ended).
    ledger: ledgerJson(done),
    skipped: p.skipped,
    still_active: done.stillActive,
    // Cut short by the disk: what was and was not written (null when no write of its own failed so).
    failed_write: done.failedWrite,
    warnings: p.warnings,
  };
}

function claudeJson(c: ClaudeSide | null, requestedMs: number, pause: boolean): Record<string, unknown> | null {
  if (!c) return null;
  return {
    at_cancel: c.atCancel,
    pid: c.pid,
    status: c.status,
    stopped_at: c.stoppedMs === null ? null : iso(c.stoppedMs),
    stopped_after_ms: c.stoppedMs === null ? null : Math.max(0, c.stoppedMs - requestedMs),
    seen: c.seen,
    text: claudeWords(c, requestedMs, pause),
  };
}

function human(done: CancelDone, claude: ClaudeSide | null): string {
  const lines = [`${done.ok ? '' : 'omc-top cancel: '}${done.summary}`];
  if (claude) lines.push(`  Claude:  ${claudeWords(claude, done.signal.requestedMs, done.plan.request.pauseOnly)}`);
  lines.push(
    `  wrote    ${done.signal.rel} (${done.signal.form} signal, in force until ${iso(done.signal.expiresMs)})`,
  );
  // One word for the column, then the whole detail whenever it says more than the word.
  for (const s of done.steps) lines.push(`  ${s.word.padEnd(8)} ${s.rel}${s.detail === s.word ? '' : `: ${s.detail}`}`);
  const ledger = ledgerAppends(done.steps);
  if (ledger) lines.push(`  appended ${ledger.rel}: ${ledgerTail(ledger.runs)}`);
  for (const s of done.plan.skipped) lines.push(`  skipped  ${s.rel}: ${s.reason}`);
  for (const w of done.plan.warnings) lines.push(`  note: ${w}`);
  if (done.plan.request.pauseOnly) lines.push(`  signal: ${done.signalReason}`);
  return lines.join('\n') + '\n';
}

export async function runCancelCommand(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    io.out(fitHelp(CANCEL_USAGE) + '\n');
    return CANCEL_EXIT.ok;
  }
  const json = args.flags.has('json');
  if (args.positionals.length !== 1)
    throw new UsageError(`cancel needs exactly one session id (got ${args.positionals.length})\n${CANCEL_USAGE}`);
  const given = args.positionals[0] as string;
  // "legacy" is the session-less state in .omc/state/; a session directory that is itself named "legacy"
  // (a valid OMC id) is reached as "session:legacy", so neither can ever be taken for the other.
  const dirOnly = given.startsWith(SESSION_PREFIX);
  const id = dirOnly ? given.slice(SESSION_PREFIX.length) : given;
  const mode = (args.flags.get('mode') as string | undefined) ?? null;
  if (mode !== null && !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(mode)) {
    return fail(io, json, CANCEL_EXIT.usage, 'invalid-mode', `${shownArg(mode)} is not a mode name`);
  }
  if (!isValidSessionId(id)) {
    return fail(
      io,
      json,
      CANCEL_EXIT.usage,
      'invalid-id',
      `${shownArg(id)} is not a valid OMC session id (letters, digits, "-" and "_", at most 256, starting with a letter or digit)`,
    );
  }
  // Every argument is checked before the disk is looked at: a usage error is one wherever it is run.
  const waitArg = args.flags.get('wait') as string | undefined;
  if (waitArg !== undefined && !/^\d{1,5}(\.\d+)?$/.test(waitArg.trim()))
    throw new UsageError(`--wait needs a number of seconds, not ${shownArg(waitArg)}`);
  const waitMs = waitArg === undefined ? 0 : Math.round(Number(waitArg) * 1000);
  if (args.flags.has('readonly')) {
    return fail(
      io,
      json,
      CANCEL_EXIT.readonly,
      'readonly',
      '--readonly: cancel writes OMC state, so it is refused. Nothing was written.',
    );
  }
  const override = checkOmcVersionFlag(args.flags.get('omc-version') as string | undefined);
  const env = io.env ?? process.env;
  const home = homeDir(env);
  // Which OMC runs the hooks decides where its state is (4.x ignores OMC_STATE_DIR…): found together.
  const found = resolveRootAndOmc({
    cwd: (args.flags.get('cwd') as string | undefined) ?? io.cwd,
    rootOverride: rootFlag(args),
    override,
    env,
    home,
  });
  const res = found.res;
  if (!res.exists) return fail(io, json, CANCEL_EXIT.nothing, 'no-root', noRootMessage(res));
  const pauseOnly = args.flags.has('signal-only');

  const legacy = id === 'legacy' && !dirOnly;
  let sessionId: string | null = legacy ? null : id;
  // A prefix, as git takes one: unique → that session; ambiguous → say which. Not for "session:ID", which the fleet
  // and the page send for a row they saw: that directory gone must not make the id a prefix of another one.
  if (sessionId !== null && !dirOnly && !statSync(res.root, `state/sessions/${sessionId}`)?.isDirectory()) {
    const list = listDirSync(res.root, 'state/sessions');
    const hits = list.ok
      ? list.entries
          .filter((e) => e.kind === 'dir' && e.name.startsWith(id) && isValidSessionId(e.name))
          .map((e) => e.name)
      : [];
    if (hits.length === 1) sessionId = hits[0] as string;
    else if (hits.length > 1)
      return fail(
        io,
        json,
        CANCEL_EXIT.usage,
        'ambiguous-id',
        `${shownArg(id)} matches ${hits.length} sessions: ${hits
          .sort()
          .slice(0, 20)
          .map((h) => cleanLine(h))
          .join(', ')}${hits.length > 20 ? ', …' : ''}`,
      );
  }
  const req: CancelRequest = { sessionId, mode, pauseOnly };
  // The session's own Claude process may run another OMC than the project's (its --plugin-dir); once it is gone,
  // the OMC its transcript says Claude loaded its skills from (as `--json` and a monitor judge it).
  const own =
    override === undefined && sessionId !== null
      ? (sessionInstall(env, sessionId) ?? sessionTranscriptInstall(env, sessionId, res.projectDir))
      : null;
  const omc = own ?? found.omc;
  const rules = omc.rules;
  // Several OMC plugins enabled: Claude Code runs each one's Stop hook, so each one's book judges the cancel too.
  const alsoEnabled = omc.assumed ? [] : enabledInstalls(omc).slice(1);
  const refused = pauseOnly ? pauseRefusal(omc) : null;
  if (refused)
    return fail(
      io,
      json,
      CANCEL_EXIT.notTaken,
      'pause-unsupported',
      `${refused}. Cancel without --signal-only to end the loop (its files are removed). Nothing was written.`,
    );

  const first = planCancel(res.root, req, io.now(), {
    rules: cancelBooks(omc),
    where: { projectDir: res.projectDir, home },
  });
  if (!first.ok) {
    const ended =
      first.code === 'nothing-active' || first.code === 'mode-not-active'
        ? endedBeforeRun(env, res.root, req, first.message, io.now())
        : null;
    return fail(
      io,
      json,
      // A file omc-top may not read is no "nothing to cancel": its loop may be running, and nothing was done.
      first.code === 'invalid-id'
        ? CANCEL_EXIT.usage
        : first.code === 'unreadable'
          ? CANCEL_EXIT.notTaken
          : CANCEL_EXIT.nothing,
      first.code,
      ended?.message ?? first.message,
      ended,
    );
  }
  let plan = first.plan;
  await holdUntilFileForTest(io.err, env);
  // No dialog to re-ask here: a session that moves between planning and writing (a Stop event) is simply re-planned.
  for (let tries = 0; ; tries++) {
    const outcome = await executeCancel(res.root, plan, { now: io.now });
    if (outcome.kind === 'done') {
      // Told to every omc-top process on this machine (a monitor, `status`, `--json`): a loop re-armed after this
      // cancel is "cancel did not take" there too. A pause ends nothing, so it is not recorded.
      // Why it could not be recorded (said below: the cancel on disk happened all the same), or null.
      const records = outcome.plan.request.pauseOnly
        ? null
        : new CancelRecordFile(ownStateDir(io.env ?? process.env), res.root, io.now);
      const unrecorded = records ? await records.add(cancelRecordOf(outcome)) : null;
      // "Verified" only when the Stop hook, re-reading disk now, no longer holds the agent for these modes.
      const after = verifyByVerdict(res.root, outcome, rules, res.projectDir, io.now(), home);
      const also = alsoEnabled.map((o) => ({
        o,
        r: verifyByVerdict(res.root, outcome, o.rules, res.projectDir, io.now(), home),
      }));
      const alsoFails = also.find((x) => !x.r.ok);
      // A 4.4.4 among them never reads the cancel's signal: said as a pause's refusal says it (pause-support.ts).
      const alsoWhy = alsoFails
        ? alsoFails.o.rules === '4.4.4'
          ? `${deafWords(alsoFails.o)}, so ${alsoFails.r.why.replace(/^the Stop hook /, 'it ')}`
          : `OMC ${alsoFails.o.version ?? alsoFails.o.rules} runs this session's hooks too (${alsoFails.o.source}); ${alsoFails.r.why.replace(/^the Stop hook /, 'its Stop hook ')}`
        : null;
      // Not knowing the version, a result that holds for one release and not another is no result.
      const books = omc.assumed ? verifyUnderEveryBook(res.root, outcome, res.projectDir, io.now(), home) : null;
      const depends = books
        ? `it depends on the OMC version, which was not found (use --omc-version): ${books
            .map(
              (b) =>
                `${b.rules.map((r) => BOOK_RANGES[r]).join(', ')}: ${b.ok ? (pauseOnly ? 'paused' : 'ended') : 'not taken'} (${b.line})`,
            )
            .join('; ')}`
        : null;
      const ok = outcome.ok && after.ok && alsoWhy === null && depends === null;
      const why = depends ?? (after.ok ? (alsoWhy ?? after.why) : after.why);
      const done = ok === outcome.ok ? outcome : { ...outcome, ok, summary: `${outcome.summary}; but ${why}` };
      const claude = done.ok ? await watchClaude(done, res.root, res.projectDir, waitMs, io) : null;
      if (records && unrecorded === null && claude)
        await recordStop(
          records,
          done,
          claude,
          () =>
            [rules, ...alsoEnabled.map((o) => o.rules)].every(
              (r) => verifyByVerdict(res.root, done, r, res.projectDir, io.now(), home).ok,
            ),
          io.now(),
        );
      const unstopped = waitMs > 0 && claude !== null && inTurnAtCancel(claude) && claude.stoppedMs === null;
      if (json)
        io.out(
          terminalSafeJson({
            ...report(done),
            omc_version: omcJson(omc),
            verdict: after.verdict,
            depends_on_version: books && books.map((b) => ({ rules: b.rules, ok: b.ok, detail: b.line })),
            also_enabled:
              also.length === 0
                ? null
                : also.map(({ o, r }) => ({
                    version: o.version,
                    source: o.source,
                    rules: o.rules,
                    ok: r.ok,
                    detail: r.ok ? r.line : r.why,
                  })),
            claude: claudeJson(claude, done.signal.requestedMs, done.plan.request.pauseOnly),
            cancel_record_problem: unrecorded,
          }) + '\n',
        );
      else
        (done.ok ? io.out : io.err)(
          human(done, claude) +
            `  Stop hook (OMC ${rules} rules): ${after.line}\n` +
            also.map(({ o, r }) => `  Stop hook (OMC ${o.rules} rules, ${o.source}): ${r.line}\n`).join('') +
            (unrecorded === null
              ? ''
              : `  cancel record: not written (${unrecorded}): other omc-tops will not say if it does not take\n`),
        );
      return !done.ok ? CANCEL_EXIT.notTaken : unstopped ? CANCEL_EXIT.notStopped : CANCEL_EXIT.ok;
    }
    // Lost a race (a concurrent cancel, the session ending): nothing to cancel is exit 4, as the README says; a loop
    // that ended meanwhile is said as the monitor's dialog says it, with who ended it when the records tell.
    if (outcome.kind === 'refused') {
      if (!outcome.nothing) return fail(io, json, CANCEL_EXIT.notTaken, 'refused', outcome.message);
      const ended =
        outcome.ended === true && !pauseOnly ? endedMeanwhile(env, res.root, plan, outcome.message, io.now()) : null;
      return fail(io, json, CANCEL_EXIT.nothing, 'nothing-to-cancel', ended?.message ?? outcome.message, ended);
    }
    if (tries >= 2)
      return fail(
        io,
        json,
        CANCEL_EXIT.notTaken,
        'changing',
        `the session keeps changing (${outcome.what}); nothing was written, try again`,
      );
    plan = outcome.plan;
  }
}
