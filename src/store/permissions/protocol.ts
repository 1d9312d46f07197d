/**
 * The permission bridge's files, shared by the hook (dist/omc-top-hook.mjs, run by Claude Code) and the
 * monitor. Everything lives in omc-top's own state directory (`$XDG_STATE_HOME/omc-top/permissions/`):
 *
 * - `listeners/<pid>.json`  a monitor that can answer (its pid, start time and project); the hook asks only
 *                           when one of them is alive, so with no monitor Claude's own prompt is all there is;
 * - `requests/<id>.json`    one permission request, written by the hook: the tool, its input, the session, a
 *                           nonce (`id`), the expiry, and a digest binding all of it;
 * - `answers/<id>.json`     the monitor's answer, valid only with that request's id and digest, before expiry;
 * - `receipts/<id>.json`    what the hook did in the end (replied allow / deny, timed out, refused an answer…).
 *
 * Every file is validated strictly (zod, its small "mini" build: the hook loads this module). A request or an answer that does not match exactly is refused: the
 * hook then prints nothing and Claude Code shows its normal prompt (it never fails to "allow").
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import * as z from 'zod/mini';
import { samplesDir } from '../runs/samples.js';
import { lazyObject } from '../../io/lazy-object.js';

export const PERMISSIONS_DIR = 'permissions';
export const REQUESTS = `${PERMISSIONS_DIR}/requests`;
export const ANSWERS = `${PERMISSIONS_DIR}/answers`;
export const RECEIPTS = `${PERMISSIONS_DIR}/receipts`;
export const LISTENERS = `${PERMISSIONS_DIR}/listeners`;

/** The bound on how long the hook waits for an answer when the config file says nothing. */
export const DEFAULT_WAIT_SECONDS = 60;
export const MIN_WAIT_SECONDS = 5;
export const MAX_WAIT_SECONDS = 600;
/** Claude Code's `timeout` for the hook is this much above the wait: the hook always ends first. */
export const HOOK_TIMEOUT_MARGIN_SECONDS = 5;
/** An answer must arrive this long before the expiry to be used (the hook still has to print it). */
export const ANSWER_MARGIN_MS = 250;
/** Request and answer files are small; anything near this is not one. */
export const FILE_MAX_BYTES = 256 * 1024;

/** omc-top's own state directory (shared with the iteration samples). */
export const stateDir = (env: NodeJS.ProcessEnv = process.env) => samplesDir(env);

const NONCE = /^[0-9a-f]{32}$/;
const DIGEST = /^[0-9a-f]{64}$/;
export const newNonce = () => randomBytes(16).toString('hex');
export const isNonce = (s: unknown): s is string => typeof s === 'string' && NONCE.test(s);

const ms = lazyObject(() => z.int().check(z.gt(0), z.lte(253_402_300_799_999)));
const pid = lazyObject(() => z.int().check(z.gt(0), z.lte(2 ** 31)));

/** What Claude Code 2.1.332 sends a PermissionRequest hook on stdin (the fields the bridge uses). */
export const HookInputSchema = lazyObject(() =>
  z.object({
    hook_event_name: z.literal('PermissionRequest'),
    session_id: z.string().check(z.minLength(1), z.maxLength(200)),
    cwd: z.string().check(z.minLength(1), z.maxLength(4096)),
    tool_name: z.string().check(z.minLength(1), z.maxLength(200)),
    tool_input: z.record(z.string(), z.unknown()),
    prompt_id: z.optional(z.string().check(z.maxLength(200))),
    transcript_path: z.optional(z.string().check(z.maxLength(4096))),
    permission_mode: z.optional(z.string().check(z.maxLength(60))),
  }),
);
export type HookInput = z.infer<typeof HookInputSchema>;

export const RequestSchema = lazyObject(() =>
  z.strictObject({
    v: z.literal(1),
    id: z.string().check(z.regex(NONCE)),
    session_id: z.string().check(z.minLength(1), z.maxLength(200)),
    cwd: z.string().check(z.minLength(1), z.maxLength(4096)),
    prompt_id: z.nullable(z.string().check(z.maxLength(200))),
    tool_name: z.string().check(z.minLength(1), z.maxLength(200)),
    tool_input: z.record(z.string(), z.unknown()),
    transcript_path: z.nullable(z.string().check(z.maxLength(4096))),
    /** The CLI that asked (CLAUDE_PID): its registry entry tells whether the prompt was answered in the terminal. */
    claude_pid: z.nullable(pid),
    /**
     * That CLI's start identity as the hook read it when it asked (/proc/<pid>/stat field 22 on Linux, through
     * safe-fs): a pid reused by another process is not that Claude, whether or not its registry entry records a
     * `procStart`. Absent in a request of an older hook.
     */
    claude_start: z.optional(z.nullable(z.string().check(z.regex(/^\d{1,20}$/)))),
    hook_pid: pid,
    /** The hook's start identity (/proc/<pid>/stat field 22): a reused pid is not this hook. */
    hook_start: z.nullable(z.string().check(z.regex(/^\d{1,20}$/))),
    created_at: ms,
    expires_at: ms,
    digest: z.string().check(z.regex(DIGEST)),
  }),
);
export type PermissionRequestFile = z.infer<typeof RequestSchema>;

export const ALWAYS_DESTINATIONS = ['session', 'localSettings'] as const;
export type AlwaysDestination = (typeof ALWAYS_DESTINATIONS)[number];
export const DECISIONS = ['allow', 'deny', 'always'] as const;
export type PermissionDecision = (typeof DECISIONS)[number];

export const AnswerSchema = lazyObject(() =>
  z.strictObject({
    v: z.literal(1),
    id: z.string().check(z.regex(NONCE)),
    digest: z.string().check(z.regex(DIGEST)),
    decision: z.enum(DECISIONS),
    /** For "always": where Claude Code keeps the rule (this session only, or the project's local settings). */
    destination: z.optional(z.enum(ALWAYS_DESTINATIONS)),
    answered_at: ms,
    by: z.literal('omc-top'),
  }),
);
export type PermissionAnswerFile = z.infer<typeof AnswerSchema>;

export const OUTCOMES = [
  'allow',
  'deny',
  'always',
  'timeout',
  'refused',
  'answered-elsewhere',
  /** The Claude that asked is gone (killed), or the reply could not be written to it: the answer reached nobody. */
  'claude-gone',
  'monitor-gone',
  'terminated',
] as const;
export type HookOutcome = (typeof OUTCOMES)[number];
export const ReceiptSchema = lazyObject(() =>
  z.strictObject({
    v: z.literal(1),
    id: z.string().check(z.regex(NONCE)),
    outcome: z.enum(OUTCOMES),
    detail: z.string().check(z.maxLength(500)),
    at: ms,
  }),
);
export type ReceiptFile = z.infer<typeof ReceiptSchema>;

export const ListenerSchema = lazyObject(() =>
  z.strictObject({
    v: z.literal(1),
    pid,
    proc_start: z.nullable(z.string().check(z.regex(/^\d{1,20}$/))),
    project_dir: z.string().check(z.minLength(1), z.maxLength(4096)),
    started_at: ms,
  }),
);
export type ListenerFile = z.infer<typeof ListenerSchema>;

/** JSON with sorted keys at every level: the same value always gives the same bytes. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** What an answer is bound to: the nonce and everything the user was shown. */
export function requestDigest(r: Omit<PermissionRequestFile, 'digest'>): string {
  const bound = {
    id: r.id,
    session_id: r.session_id,
    cwd: r.cwd,
    prompt_id: r.prompt_id,
    tool_name: r.tool_name,
    tool_input: r.tool_input,
    claude_pid: r.claude_pid,
    created_at: r.created_at,
    expires_at: r.expires_at,
  };
  return createHash('sha256').update(canonicalJson(bound)).digest('hex');
}

/** A file of a request directory: `<id>.json`, the id a nonce. */
export const idOfName = (name: string): string | null =>
  name.endsWith('.json') && isNonce(name.slice(0, -5)) ? name.slice(0, -5) : null;

/** Whether `cwd` (a session's) lies in the project a monitor watches. */
export function inProject(projectDir: string, cwd: string): boolean {
  const p = path.resolve(projectDir);
  const c = path.resolve(cwd);
  return c === p || c.startsWith(p.endsWith(path.sep) ? p : p + path.sep);
}

/** The one line the user is shown for a request: the command for Bash, the path for file tools, else the input. */
export function requestSubject(toolName: string, input: Record<string, unknown>): string {
  const pick = input.command ?? input.file_path ?? input.notebook_path ?? input.path ?? input.url ?? input.pattern;
  if (typeof pick === 'string') return pick;
  return canonicalJson(input);
}

/**
 * "Always" for this command: the rule Claude Code adds (observed with 2.1.332: the same command then runs with no
 * prompt). Built by the hook from its own request, never taken from the answer file. Only for Bash, where the rule
 * names the exact command; null for other tools.
 */
export function alwaysRule(
  toolName: string,
  input: Record<string, unknown>,
): { toolName: string; ruleContent: string } | null {
  if (alwaysRefusal(toolName, input) !== null) return null;
  return { toolName: 'Bash', ruleContent: input.command as string };
}

/**
 * Why "always" is not offered for this call, or null. A rule's text is a pattern to Claude Code, not a literal: `*`
 * matches anything and a trailing `:*` makes a prefix rule (`--allowedTools "Bash(echo:*)"` is "any echo"), and the
 * rule syntax has no escape for them. "Always allow `git log:*`" would allow `git log; rm -rf ~` as well: such a
 * command is allowed once (y) or answered in Claude's own prompt, never made a rule from here.
 */
export function alwaysRefusal(toolName: string, input: Record<string, unknown>): string | null {
  if (toolName !== 'Bash' || typeof input.command !== 'string' || input.command.trim() === '')
    return '"always" is offered for Bash commands only: y or n';
  if (input.command.includes('*'))
    return '"always" is not offered for a command holding *: Claude Code would read the rule as a pattern and allow other commands too: y or n';
  return null;
}

/** The hook's stdout for a decision (Claude Code's PermissionRequest reply format). */
export function hookReply(
  decision: PermissionDecision,
  req: Pick<PermissionRequestFile, 'tool_name' | 'tool_input'>,
  destination: AlwaysDestination,
): string | null {
  const out = (d: Record<string, unknown>) =>
    JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: d } });
  if (decision === 'allow') return out({ behavior: 'allow' });
  if (decision === 'deny') return out({ behavior: 'deny', message: 'Denied from omc-top by the operator' });
  const rule = alwaysRule(req.tool_name, req.tool_input);
  if (!rule) return null;
  return out({
    behavior: 'allow',
    updatedPermissions: [{ type: 'addRules', rules: [rule], behavior: 'allow', destination }],
  });
}
