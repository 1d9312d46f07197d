/**
 * Paths are bytes on Linux; Node hands them to us as text. A directory whose name is not valid UTF-8 (a byte 0xff,
 * say) comes back from process.cwd() and process.argv with U+FFFD in place of its bad bytes, and that text names no
 * file: every open, git run and watch of it fails. omc-top cannot monitor such a path yet (its reads are by path
 * text); this says so in true words, with the bytes shown as \xNN, instead of a failure further down (git "not
 * installed", "no .omc found"). The evidence is the bytes themselves: /proc/self/cwd and /proc/self/cmdline.
 */
import fs from 'node:fs';
import { readBytesSync, readLinkSync } from './safe-fs/index.js';
import { fatalDecoder, lenientDecoder } from './safe-fs/utf8.js';

const CMDLINE_MAX_BYTES = 256 * 1024;

/** The bytes as text, every byte that is not part of valid UTF-8 written as \xNN. */
export function showBytes(raw: Buffer): string {
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const b = raw[i] as number;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len > 0 && i + len <= raw.length) {
      try {
        out += fatalDecoder.decode(raw.subarray(i, i + len));
        i += len;
        continue;
      } catch {
        /* not a whole character: shown as a byte below */
      }
    }
    out += `\\x${b.toString(16).padStart(2, '0')}`;
    i++;
  }
  return out;
}

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
 * When `p` (a path as Node gave it to us) stands for a name that is not valid UTF-8: that name with its bad bytes
 * as \xNN. Null for every path that is what it says (no U+FFFD, or a file by that very name exists).
 */
export function notUtf8Path(p: string): string | null {
  if (!p.includes('\ufffd') || fs.existsSync(p)) return null;
  for (const raw of lossySources()) {
    // An argument `--cwd=<path>` holds the path after its first "=".
    const eq = raw[0] === 0x2d ? raw.indexOf(0x3d) : -1;
    for (const part of eq > 0 ? [raw, raw.subarray(eq + 1)] : [raw]) {
      const lossy = lenientDecoder.decode(part);
      // A relative argument was resolved against the current directory: its text is inside the path.
      if (lossy !== '' && p.includes(lossy)) return p.replace(lossy, showBytes(part));
    }
  }
  return null;
}

/** The message for such a path: what it is, why it cannot be monitored, what to do. */
export function notUtf8Message(what: string, shown: string): string {
  return `${what} ${shown} is not valid UTF-8 (the bytes shown as \\xNN): omc-top cannot open such a path yet; rename the directory to a UTF-8 name`;
}
