/**
 * Talking to another program's unix socket (Claude Code's per-session inbox): connect only to a socket that is
 * one (not a file or a link), owned by this user, in a directory owned by this user that nobody else can write
 * (so nobody else can swap it between the check and the connect); write newline-delimited lines, half-close,
 * and report how the connection ended. Bounded in time; never throws.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { cleanLine } from './sanitize.js';

export type SocketCheck = { ok: true } | { ok: false; reason: string };

export function checkOwnSocket(abs: string, uid: number | null = process.getuid?.() ?? null): SocketCheck {
  if (!path.isAbsolute(abs)) return { ok: false, reason: 'the socket path is not absolute' };
  let st: fs.Stats;
  let dir: fs.Stats;
  try {
    st = fs.lstatSync(abs);
    dir = fs.lstatSync(path.dirname(abs));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? 'the socket is gone' : `cannot check the socket (${code})` };
  }
  if (!st.isSocket()) return { ok: false, reason: 'the registered path is not a socket' };
  if (!dir.isDirectory()) return { ok: false, reason: "the socket's directory is a link or not a directory" };
  if (uid !== null && (st.uid !== uid || dir.uid !== uid))
    return { ok: false, reason: 'the socket or its directory belongs to another user' };
  if ((dir.mode & 0o022) !== 0) return { ok: false, reason: "others can write to the socket's directory" };
  return { ok: true };
}

export type SendResult = { ok: true } | { ok: false; reason: string };

/** Connects, writes `lines` (each followed by a newline), half-closes, and waits for the peer to close. */
export function sendLines(abs: string, lines: readonly string[], timeoutMs = 5_000): Promise<SendResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(r);
    };
    const sock = net.createConnection({ path: abs });
    const timer = setTimeout(
      () => done({ ok: false, reason: `no answer from the socket within ${timeoutMs} ms` }),
      timeoutMs,
    );
    sock.on('connect', () => {
      sock.end(lines.map((l) => `${l}\n`).join(''));
    });
    // The peer closes after reading everything up to our end: that is all a successful handover looks like.
    sock.on('close', (hadError) => done(hadError ? { ok: false, reason: 'the connection failed' } : { ok: true }));
    sock.on('error', (e: NodeJS.ErrnoException) =>
      done({ ok: false, reason: `cannot connect: ${cleanLine(e.code ?? e.message)}` }),
    );
    sock.on('data', () => undefined); // nothing is expected back; reading keeps the close event coming
  });
}
