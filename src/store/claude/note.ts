/**
 * A note to a running Claude session through Claude Code's own per-session inbox socket (2.1.224 and later;
 * protocol learnt from 2.1.332, see /work/notes/claude-2.1.332-protocols.md §2): the registry names the socket,
 * the key file `sessions/<pid>.<sha256(socket path)>.key` holds the peer token. Newline-delimited JSON: an auth
 * line, one `user` line, a half-close. The CLI never answers on the socket, so "sent" is all the connection can
 * say; delivery is seen in the transcript (a `user` line or queued command whose origin is `peer`, from omc-top).
 */
import { createHash } from 'node:crypto';
import { readJsonSync } from '../../io/safe-fs/index.js';
import { cleanBlock } from '../../io/sanitize.js';
import { checkOwnSocket, sendLines } from '../../io/unix-socket.js';
import type { ProcessView } from './model.js';
import { CLAUDE_DIR_READ } from './config-dir.js';

export const NOTE_FROM = 'omc-top';
export const NOTE_MAX_CHARS = 4_000;

export type NotePlan =
  | { ok: true; pid: number; sessionId: string; socket: string; token: string | null }
  | {
      ok: false;
      reason: string;
      /** No socket, but the session runs in a tmux pane: typing into it may be offered (never by default). */
      paneFallback: boolean;
    };

/** The note as sent: control bytes and escape sequences removed, trimmed, bounded; null when nothing is left. */
export function cleanNote(text: string): string | null {
  const t = cleanBlock(text).trim();
  return t === '' ? null : t.slice(0, NOTE_MAX_CHARS);
}

export const keyFileRel = (pid: number, socket: string) =>
  `sessions/${pid}.${createHash('sha256').update(socket).digest('hex')}.key`;

export function planNote(configDir: string, p: ProcessView | null): NotePlan {
  if (!p) return { ok: false, reason: 'no Claude process is registered for this session', paneFallback: false };
  if (p.status === 'gone')
    return { ok: false, reason: `its Claude process (pid ${p.pid}) is gone: resume it first`, paneFallback: false };
  if (!p.messagingSocketPath)
    return {
      ok: false,
      reason: 'this session registers no inbox socket (Claude Code before 2.1.224, or an SDK session)',
      paneFallback: p.tmux !== null,
    };
  const check = checkOwnSocket(p.messagingSocketPath);
  if (!check.ok)
    return { ok: false, reason: `its inbox socket cannot be used: ${check.reason}`, paneFallback: p.tmux !== null };
  // The key file is Claude's: read through the safe path, and only the token taken from it.
  const key = readJsonSync(configDir, keyFileRel(p.pid, p.messagingSocketPath), 4096, CLAUDE_DIR_READ);
  const tok = key.ok ? (key.value as { peerToken?: unknown } | null)?.peerToken : undefined;
  const token = typeof tok === 'string' && /^[0-9a-f]{16,128}$/.test(tok) ? tok : null;
  return { ok: true, pid: p.pid, sessionId: p.sessionId, socket: p.messagingSocketPath, token };
}

/** The bytes on the wire (each one line of JSON). */
export function noteLines(plan: Extract<NotePlan, { ok: true }>, text: string): string[] {
  const lines: string[] = [];
  if (plan.token) lines.push(JSON.stringify({ type: 'auth', token: plan.token }));
  // session_id: if the pid now belongs to another session, the CLI drops the note instead of delivering it there.
  lines.push(
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: text },
      from: NOTE_FROM,
      session_id: plan.sessionId,
    }),
  );
  return lines;
}

export async function sendNote(plan: NotePlan, text: string): Promise<{ ok: boolean; message: string }> {
  if (!plan.ok) return { ok: false, message: plan.reason };
  const note = cleanNote(text);
  if (note === null) return { ok: false, message: 'the note is empty' };
  const r = await sendLines(plan.socket, noteLines(plan, note));
  return r.ok
    ? { ok: true, message: `note sent to pid ${plan.pid} through its inbox socket` }
    : { ok: false, message: `the note was not sent: ${r.reason}` };
}
