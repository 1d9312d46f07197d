/**
 * The PermissionRequest hook (`omc-top hooks install` puts it in a project's .claude/settings.local.json).
 * Claude Code runs it for each tool call that needs a permission decision, while its own dialog is already on
 * screen. It hands the request to a running omc-top and relays the answer, under rules that keep Claude safe:
 *
 * - only when a monitor that can answer runs for this project (a live listener); otherwise it exits at once;
 * - it writes only in omc-top's own state directory, atomically;
 * - it waits at most the user's bound (config `answers.permissionWaitSeconds`, default 60 s);
 * - an answer counts only with this request's nonce and digest, before the expiry, in the exact shape;
 * - it follows the Claude that asked: once that process is gone (a SIGKILL leaves this hook running, orphaned)
 *   it ends, and it never writes a receipt saying Claude was told when Claude was not there to be told: the
 *   receipt names the answer only once the reply was written whole to Claude (a failed write is "claude-gone");
 * - with no answer, a malformed or stale one, the monitor gone, or the prompt answered in the terminal, it
 *   prints nothing and exits 0: Claude Code keeps its normal prompt (fail open to the terminal, never "allow").
 */
import { readAnswersConfig } from '../config/answers-config.js';
import { ownStartIdentity, runningStartIdentity, type StartIdentity } from '../io/process-start.js';
import { atomicWriteSync, ensureOwnDir, readTextSync, unlinkUnder } from '../io/safe-fs/index.js';
import { answeredElsewhere, claudeGone, liveListener, registryOfEnv } from '../store/permissions/liveness.js';
import {
  ANSWERS,
  ANSWER_MARGIN_MS,
  AnswerSchema,
  DEFAULT_WAIT_SECONDS,
  FILE_MAX_BYTES,
  HookInputSchema,
  MAX_WAIT_SECONDS,
  MIN_WAIT_SECONDS,
  RECEIPTS,
  REQUESTS,
  hookReply,
  newNonce,
  requestDigest,
  stateDir,
  type AlwaysDestination,
  type HookOutcome,
  type PermissionRequestFile,
} from '../store/permissions/protocol.js';
import { printOutHandedOver } from '../io/output.js';
import { notHandedWords } from '../store/permissions/words.js';

export interface HookDeps {
  env: NodeJS.ProcessEnv;
  now(): number;
  sleep(ms: number): Promise<void>;
  /**
   * Writes the reply for Claude; resolves null once the write completed (the reply left the hook: handed to Claude),
   * else why it did not (Claude's end of the pipe closed). A test's sink may return nothing: handed over.
   */
  print(text: string): Promise<string | null> | void;
  startIdentity(pid: number): StartIdentity;
  /** Set by a signal handler: stop waiting now. */
  stopped(): boolean;
  /** The wait bound when the config file says nothing (tests). */
  waitSeconds?: number;
  pollMs?: number;
}

export type HookResult = { outcome: HookOutcome | 'ignored' | 'no-listener'; detail: string; id: string | null };

function waitBound(deps: HookDeps): { seconds: number; destination: AlwaysDestination } {
  const c = readAnswersConfig(deps.env);
  const s = c?.permissionWaitSeconds ?? deps.waitSeconds ?? DEFAULT_WAIT_SECONDS;
  return {
    seconds: Math.min(MAX_WAIT_SECONDS, Math.max(MIN_WAIT_SECONDS, s)),
    destination: c?.alwaysDestination ?? 'session',
  };
}

export async function runPermissionHook(stdin: string, deps: HookDeps): Promise<HookResult> {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch {
    return { outcome: 'ignored', detail: 'stdin is not JSON', id: null };
  }
  const input = HookInputSchema.safeParse(raw);
  if (!input.success) return { outcome: 'ignored', detail: 'not a PermissionRequest payload', id: null };
  const hi = input.data;
  // A question is not a yes/no: Claude asks it in its terminal.
  if (hi.tool_name === 'AskUserQuestion')
    return { outcome: 'ignored', detail: 'a question, not a permission', id: null };
  const dir = stateDir(deps.env);
  if (!liveListener(dir, hi.cwd, deps.startIdentity))
    return { outcome: 'no-listener', detail: 'no omc-top answers for this project', id: null };

  const { seconds, destination } = waitBound(deps);
  const created = deps.now();
  const claudePid = Number(deps.env.CLAUDE_PID);
  const asker = Number.isSafeInteger(claudePid) && claudePid > 0 ? claudePid : null;
  // Claude runs now (it waits for this hook): its start identity tells it from a process that reuses its pid later.
  const claudeStart = asker === null ? null : deps.startIdentity(asker);
  const own = ownStartIdentity();
  const base: Omit<PermissionRequestFile, 'digest'> = {
    v: 1,
    id: newNonce(),
    session_id: hi.session_id,
    cwd: hi.cwd,
    prompt_id: hi.prompt_id ?? null,
    tool_name: hi.tool_name,
    tool_input: hi.tool_input,
    transcript_path: hi.transcript_path ?? null,
    claude_pid: asker,
    claude_start: typeof claudeStart === 'string' && claudeStart !== 'absent' ? claudeStart : null,
    hook_pid: process.pid,
    hook_start: typeof own === 'string' && own !== 'absent' ? own : null,
    created_at: created,
    expires_at: created + seconds * 1000,
  };
  const req: PermissionRequestFile = { ...base, digest: requestDigest(base) };
  const reqRel = `${REQUESTS}/${req.id}.json`;
  const ansRel = `${ANSWERS}/${req.id}.json`;
  const finish = (outcome: HookOutcome, detail: string): HookResult => {
    try {
      atomicWriteSync(
        dir,
        `${RECEIPTS}/${req.id}.json`,
        JSON.stringify({ v: 1, id: req.id, outcome, detail, at: deps.now() }),
        { mkdir: 'private' },
      );
    } catch {
      /* the receipt only informs the monitor */
    }
    for (const rel of [reqRel, ansRel])
      try {
        unlinkUnder(dir, rel);
      } catch {
        /* best effort */
      }
    return { outcome, detail, id: req.id };
  };
  const text = JSON.stringify(req);
  // A request no monitor would read (a heredoc writing a big file) must not hold Claude's own prompt for the bound.
  if (Buffer.byteLength(text) > FILE_MAX_BYTES)
    return {
      outcome: 'ignored',
      detail: `the request is ${Math.ceil(Buffer.byteLength(text) / 1024)} KB, over the ${FILE_MAX_BYTES / 1024} KB a monitor reads: Claude's own prompt answers it`,
      id: null,
    };
  try {
    ensureOwnDir(dir);
    atomicWriteSync(dir, reqRel, text, { mkdir: 'private' });
  } catch {
    return { outcome: 'ignored', detail: 'cannot write to the state directory', id: null };
  }

  const poll = deps.pollMs ?? 100;
  // Claude Code runs this hook with its own environment: its config directory is the one whose registry it keeps.
  const registry = registryOfEnv(deps.env);
  let lastCheck = created;
  while (deps.now() < req.expires_at - ANSWER_MARGIN_MS) {
    if (deps.stopped()) return finish('terminated', 'Claude Code ended the hook');
    const a = readTextSync(dir, ansRel, FILE_MAX_BYTES);
    if (a.ok) {
      let v: unknown;
      try {
        v = JSON.parse(a.text);
      } catch {
        return finish('refused', 'the answer file is not JSON');
      }
      const ans = AnswerSchema.safeParse(v);
      if (!ans.success) return finish('refused', 'the answer file is not in the expected shape');
      const d = ans.data;
      if (d.id !== req.id || d.digest !== req.digest) return finish('refused', 'the answer is for another request');
      if (
        d.answered_at < req.created_at ||
        d.answered_at > req.expires_at - ANSWER_MARGIN_MS ||
        deps.now() >= req.expires_at
      )
        return finish('refused', 'the answer came after the request expired');
      const reply = hookReply(d.decision, req, d.destination ?? destination);
      if (reply === null) return finish('refused', `"always" is offered for Bash commands only`);
      // A reply to a Claude that is gone reaches nobody: the receipt must not say Claude was told.
      const gone = claudeGone(registry, req, deps.startIdentity);
      if (gone) return finish('claude-gone', gone);
      // The receipt says the answer was given only once the reply left this process: a write that failed (Claude's
      // end of the pipe was closed) handed nothing over, and the answer was lost.
      const notHanded = (await deps.print(reply)) ?? null;
      if (notHanded !== null) return finish('claude-gone', notHandedWords(notHanded));
      return finish(d.decision, d.decision === 'always' ? `always (${d.destination ?? destination})` : d.decision);
    }
    if (a.code !== 'missing') return finish('refused', `the answer file cannot be read: ${a.message}`);
    if (deps.now() - lastCheck >= 500) {
      lastCheck = deps.now();
      const gone = claudeGone(registry, req, deps.startIdentity);
      if (gone) return finish('claude-gone', gone);
      if (answeredElsewhere(registry, req))
        return finish('answered-elsewhere', 'answered in the terminal, or the turn moved on');
      if (!liveListener(dir, hi.cwd, deps.startIdentity))
        return finish('monitor-gone', 'omc-top quit before answering');
    }
    await deps.sleep(poll);
  }
  return finish('timeout', `no answer within ${seconds} s`);
}

/** The real process's deps. */
export function systemHookDeps(): HookDeps & { stop(): void } {
  let stop = false;
  return {
    env: process.env,
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    print: (t) => printOutHandedOver(`${t}\n`),
    startIdentity: runningStartIdentity,
    stopped: () => stop,
    stop: () => {
      stop = true;
    },
  };
}
