/**
 * `omc-top cancel <session-id> [--mode M] [--signal-only] [--json]`: the
 * keystroke cancel for scripts. Same plan, same recipe, same verification as
 * the TUI; no dialog (the caller asked explicitly).
 *
 * Exit codes: 0 the cancel took effect on disk (or, with --signal-only, OMC's
 * Stop hook honours the signal right now); 1 it did not (reason printed);
 * 2 usage (bad flags, invalid session id); 3 refused by --readonly;
 * 4 nothing to cancel (no such session, no active mode, no .omc).
 */
import { executeCancel, type CancelDone } from '../store/cancel/execute.js';
import { planCancel, type CancelRequest } from '../store/cancel/plan.js';
import { statSync } from '../store/fsx.js';
import { resolveOmcRoot } from '../store/root.js';
import { cleanLine, terminalSafeJson } from '../store/sanitize.js';
import { isValidSessionId } from '../store/sessions/omc-rules.js';
import { parseArgs, UsageError } from './args.js';

export const CANCEL_EXIT = { ok: 0, notTaken: 1, usage: 2, readonly: 3, nothing: 4 } as const;

const FLAGS = {
  mode: 'value',
  'signal-only': 'bool',
  json: 'bool',
  cwd: 'value',
  root: 'value',
  readonly: 'bool',
  help: 'bool',
} as const;

export const CANCEL_USAGE = `Usage: omc-top cancel <session-id> [--mode MODE] [--signal-only] [--json] [--cwd DIR | --root DIR]

Ends a session's OMC loop the way OMC's own cancel does and checks that it took:
writes state/sessions/<id>/cancel-signal-state.json (OMC's 30 s cancel signal),
removes the mode files (and linked modes), sets an autopilot inactive (progress kept).
  --mode MODE     only this mode (and the modes linked to it)
  --signal-only   pause: write the signal only; nothing is removed (30 s)
  --json          one JSON document on stdout
"legacy" as the id means the session-less state in .omc/state/.
Exit: 0 took effect on disk, 1 did not, 2 usage, 3 --readonly, 4 nothing to cancel.`;

interface Io {
  out(s: string): void;
  err(s: string): void;
  cwd: string;
  now(): number;
}

const defaultIo: Io = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  cwd: process.cwd(),
  now: Date.now,
};

function fail(io: Io, json: boolean, code: number, error: string, message: string): number {
  if (json) io.out(terminalSafeJson({ ok: false, error, message }) + '\n');
  else io.err(`omc-top cancel: ${message}\n`);
  return code;
}

const iso = (ms: number) => new Date(ms).toISOString();

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
    skipped: p.skipped,
    still_active: done.stillActive,
    warnings: p.warnings,
  };
}

function human(done: CancelDone): string {
  const lines = [`${done.ok ? '' : 'omc-top cancel: '}${done.summary}`];
  lines.push(
    `  wrote    ${done.signal.rel} (${done.signal.form} signal, in force until ${iso(done.signal.expiresMs)})`,
  );
  for (const s of done.steps)
    lines.push(`  ${(s.ok ? s.detail : 'FAILED').padEnd(8).slice(0, 8)} ${s.rel}${s.ok ? '' : `: ${s.detail}`}`);
  for (const s of done.plan.skipped) lines.push(`  skipped  ${s.rel}: ${s.reason}`);
  for (const w of done.plan.warnings) lines.push(`  note: ${w}`);
  if (done.plan.request.pauseOnly) lines.push(`  signal: ${done.signalReason}`);
  return lines.join('\n') + '\n';
}

export async function runCancelCommand(argv: readonly string[], io: Io = defaultIo): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    io.out(CANCEL_USAGE + '\n');
    return CANCEL_EXIT.ok;
  }
  const json = args.flags.has('json');
  if (args.positionals.length !== 1)
    throw new UsageError(`cancel needs exactly one session id (got ${args.positionals.length})\n${CANCEL_USAGE}`);
  const id = args.positionals[0] as string;
  const mode = (args.flags.get('mode') as string | undefined) ?? null;
  if (mode !== null && !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(mode)) {
    return fail(io, json, CANCEL_EXIT.usage, 'invalid-mode', `${JSON.stringify(cleanLine(mode))} is not a mode name`);
  }
  if (!isValidSessionId(id)) {
    return fail(
      io,
      json,
      CANCEL_EXIT.usage,
      'invalid-id',
      `${JSON.stringify(cleanLine(id))} is not a valid OMC session id (letters, digits, "-" and "_", at most 256, starting with a letter or digit)`,
    );
  }
  if (args.flags.has('readonly')) {
    return fail(
      io,
      json,
      CANCEL_EXIT.readonly,
      'readonly',
      '--readonly: cancel writes OMC state, so it is refused. Nothing was written.',
    );
  }
  const res = resolveOmcRoot({
    cwd: (args.flags.get('cwd') as string | undefined) ?? io.cwd,
    rootOverride: args.flags.get('root') as string | undefined,
  });
  if (!res.exists) return fail(io, json, CANCEL_EXIT.nothing, 'no-root', `no .omc directory found (${res.explain})`);

  // "legacy" names the session-less state, unless a real session has that id.
  const legacy = id === 'legacy' && !statSync(res.root, 'state/sessions/legacy')?.isDirectory();
  const req: CancelRequest = { sessionId: legacy ? null : id, mode, pauseOnly: args.flags.has('signal-only') };

  const first = planCancel(res.root, req, io.now());
  if (!first.ok)
    return fail(
      io,
      json,
      first.code === 'invalid-id' ? CANCEL_EXIT.usage : CANCEL_EXIT.nothing,
      first.code,
      first.message,
    );
  let plan = first.plan;
  // No dialog to re-ask here: a session that moves between planning and writing (a Stop event) is simply re-planned.
  for (let tries = 0; ; tries++) {
    const outcome = await executeCancel(res.root, plan, { now: io.now });
    if (outcome.kind === 'done') {
      if (json) io.out(terminalSafeJson(report(outcome)) + '\n');
      else (outcome.ok ? io.out : io.err)(human(outcome));
      return outcome.ok ? CANCEL_EXIT.ok : CANCEL_EXIT.notTaken;
    }
    // Lost a race (a concurrent cancel, the session ending): nothing to cancel is exit 4, as the README says.
    if (outcome.kind === 'refused')
      return outcome.nothing
        ? fail(io, json, CANCEL_EXIT.nothing, 'nothing-to-cancel', outcome.message)
        : fail(io, json, CANCEL_EXIT.notTaken, 'refused', outcome.message);
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
