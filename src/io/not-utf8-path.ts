/**
 * Paths are bytes on Linux; Node hands them to us as text. A directory whose name is not valid UTF-8 (a byte 0xff,
 * say) comes back from process.cwd() and process.argv with U+FFFD in place of its bad bytes, and that text names no
 * file. The bytes themselves are still there: /proc/self/cwd (a link the kernel answers in bytes) and
 * /proc/self/cmdline (the arguments as they were given). `usablePath` recovers them and opens the directory by its
 * bytes (safe-fs/byte-paths.ts), so the project can be monitored; only when that fails is the path refused, in true
 * words with its bytes shown as \xNN, instead of a failure further down (git "not installed", "no .omc found").
 */
import fs from 'node:fs';
import { readBytesSync, readLinkSync } from './safe-fs/index.js';
import { pathForBytes, showBytes } from './safe-fs/byte-paths.js';
import { fatalDecoder, lenientDecoder } from './safe-fs/utf8.js';

export { showBytes };

const CMDLINE_MAX_BYTES = 256 * 1024;

function invalid(raw: Buffer): boolean {
  try {
    fatalDecoder.decode(raw);
    return false;
  } catch {
    return true;
  }
}

/** The raw strings Node decoded lossily for us: the current directory and each argument. */
function lossySources(): Buffer[] {
  const out: Buffer[] = [];
  if (process.platform !== 'linux') return out;
  const cwd = readLinkSync('/proc', 'self/cwd');
  if (cwd.ok && cwd.invalidUtf8) out.push(cwd.raw);
  const cmd = readBytesSync('/proc', 'self/cmdline', CMDLINE_MAX_BYTES);
  if (cmd.ok) {
    let start = 0;
    for (let i = 0; i <= cmd.bytes.length; i++) {
      if (i < cmd.bytes.length && cmd.bytes[i] !== 0) continue;
      const arg = cmd.bytes.subarray(start, i);
      if (arg.length > 0 && invalid(arg)) out.push(Buffer.from(arg));
      start = i + 1;
    }
  }
  return out;
}

/**
 * The bytes `p` (a path as Node gave it to us) stands for, when it is the lossy text of a name that is not valid
 * UTF-8: each lossy text of the current directory or an argument found in it is put back as its bytes. Null for
 * every path that is what it says (no U+FFFD, or a file by that very name exists) and when nothing matches.
 */
export function recoverBytes(p: string): Buffer | null {
  if (!p.includes('\ufffd') || fs.existsSync(p)) return null;
  let pieces: Array<string | Buffer> = [p];
  let found = false;
  for (const raw of lossySources()) {
    // An argument `--cwd=<path>` holds the path after its first "=".
    const eq = raw[0] === 0x2d ? raw.indexOf(0x3d) : -1;
    for (const part of eq > 0 ? [raw, raw.subarray(eq + 1)] : [raw]) {
      const lossy = lenientDecoder.decode(part);
      if (lossy === '') continue;
      // A relative argument was resolved against the current directory: its text is inside the path.
      const i = pieces.findIndex((x) => typeof x === 'string' && x.includes(lossy));
      if (i < 0) continue;
      const text = pieces[i] as string;
      const at = text.indexOf(lossy);
      pieces = [...pieces.slice(0, i), text.slice(0, at), part, text.slice(at + lossy.length), ...pieces.slice(i + 1)];
      found = true;
      break;
    }
  }
  return found ? Buffer.concat(pieces.map((x) => (typeof x === 'string' ? Buffer.from(x) : x))) : null;
}

/**
 * `p` as a path omc-top can open: itself, or (a name that is not UTF-8) the directory held open by its bytes and
 * named /proc/self/fd/N. `refused` (the path with its bytes as \xNN) when the bytes cannot be recovered or opened.
 */
export function usablePath(p: string): { ok: true; path: string } | { ok: false; shown: string } {
  if (!p.includes('\ufffd') || fs.existsSync(p)) return { ok: true, path: p };
  const raw = recoverBytes(p);
  if (raw === null) return { ok: true, path: p };
  const held = pathForBytes(raw);
  return held !== null ? { ok: true, path: held } : { ok: false, shown: showBytes(raw) };
}

/** The message for such a path: what it is, why it cannot be monitored, what to do. */
export function notUtf8Message(what: string, shown: string): string {
  return `${what} ${shown} is not valid UTF-8 (the bytes shown as \\xNN): omc-top could not open it by its bytes`;
}
