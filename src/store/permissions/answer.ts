/**
 * Answering a permission request from the monitor: the answer file bound to the exact request shown (its nonce
 * and digest), written only while that request is live. A stale request (the hook's wait is over, the hook has
 * ended, or Claude already moved on because the prompt was answered in its terminal) is refused with a message.
 */
import { runningStartIdentity, type StartIdentity } from '../../io/process-start.js';
import { atomicWriteSync, describeWriteError, readJsonSync, statSync } from '../../io/safe-fs/index.js';
import { cleanLine } from '../../io/sanitize.js';
import { askerRegistry } from './asker-registry.js';
import { answeredElsewhere, claudeGone, isLive } from './liveness.js';
import { answeredFirst } from './words.js';
import type { PermissionRequestView } from './model.js';
import {
  ANSWERS,
  ANSWER_MARGIN_MS,
  AnswerSchema,
  FILE_MAX_BYTES,
  REQUESTS,
  RequestSchema,
  alwaysRefusal,
  requestDigest,
  type AlwaysDestination,
  type PermissionDecision,
} from './protocol.js';

export interface AnswerDeps {
  now?: () => number;
  startIdentity?: (pid: number) => StartIdentity;
  /**
   * The directory the monitor reads Claude's registry in: where the asking Claude's entry is looked for when the
   * request does not say which directory that Claude uses (asker-registry.ts).
   */
  claudeEnv?: NodeJS.ProcessEnv;
}

export type AnswerResult = { ok: true; message: string } | { ok: false; message: string };

/** Why this request cannot be answered now, or null. */
export function staleReason(stateDir: string, req: PermissionRequestView, deps: AnswerDeps = {}): string | null {
  const now = (deps.now ?? Date.now)();
  const r = readJsonSync(stateDir, `${REQUESTS}/${req.id}.json`, FILE_MAX_BYTES);
  if (!r.ok) return 'stale: the hook is no longer waiting (Claude answered it, or the hook ended)';
  const f = RequestSchema.safeParse(r.value);
  if (!f.success || f.data.digest !== req.file.digest) return 'refused: the request on disk is not the one shown';
  const { digest, ...rest } = f.data;
  if (requestDigest(rest) !== digest) return 'refused: the request on disk was changed after the hook wrote it';
  if (now >= f.data.expires_at - ANSWER_MARGIN_MS)
    return "stale: the hook's wait is over; Claude's own prompt is in its terminal";
  const startIdentity = deps.startIdentity ?? runningStartIdentity;
  if (!isLive(startIdentity, f.data.hook_pid, f.data.hook_start)) return 'stale: the hook has ended';
  // The hook outlives a killed Claude: an answer it took would reach nobody.
  const registry = askerRegistry(f.data, deps.claudeEnv ?? process.env);
  const gone = claudeGone(registry, f.data, startIdentity);
  if (gone) return `stale: ${gone}; no answer can reach it`;
  if (answeredElsewhere(registry, f.data))
    return 'stale: Claude already moved on (the prompt was answered in its terminal)';
  return null;
}

export function answerPermission(
  stateDir: string,
  req: PermissionRequestView,
  decision: PermissionDecision,
  opts: AnswerDeps & { destination?: AlwaysDestination } = {},
): AnswerResult {
  const noAlways = decision === 'always' ? alwaysRefusal(req.file.tool_name, req.file.tool_input) : null;
  if (noAlways) return { ok: false, message: noAlways };
  // Every surface (keys, the ! list, the serve page) answers through here: none allows what it could not show.
  if (decision !== 'deny' && req.allowRefused) return { ok: false, message: req.allowRefused };
  const stale = staleReason(stateDir, req, opts);
  if (stale) return { ok: false, message: stale };
  const rel = `${ANSWERS}/${req.id}.json`;
  if (statSync(stateDir, rel)) return { ok: false, message: `refused: ${firstAnswer(stateDir, rel)}` };
  const doc = {
    v: 1 as const,
    id: req.id,
    digest: req.file.digest,
    decision,
    ...(decision === 'always' && opts.destination ? { destination: opts.destination } : {}),
    answered_at: (opts.now ?? Date.now)(),
    by: 'omc-top' as const,
  };
  if (!AnswerSchema.safeParse(doc).success) return { ok: false, message: 'refused: the answer would be malformed' };
  try {
    atomicWriteSync(stateDir, rel, JSON.stringify(doc), { mkdir: 'private' });
  } catch (e) {
    return { ok: false, message: `could not write the answer: ${cleanLine(describeWriteError(e))}` };
  }
  const what = decision === 'always' ? 'always allow' : decision;
  return { ok: true, message: `${what} sent to the hook for ${req.toolName} ${req.subject}` };
}

/** The answer already there (a second omc-top, or the `serve` page, was first): which one, when it can be read. */
function firstAnswer(stateDir: string, rel: string): string {
  const r = readJsonSync(stateDir, rel, FILE_MAX_BYTES);
  const a = r.ok ? AnswerSchema.safeParse(r.value) : null;
  return a?.success ? answeredFirst(a.data.decision, false) : 'this request already has an answer';
}
