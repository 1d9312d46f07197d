/**
 * Paths are bytes on Linux; Node's path strings are text. A directory whose name is not valid UTF-8 (a byte 0xff)
 * has no text name: Node decodes it with U+FFFD, and that text names no file. Such a directory is opened once by
 * its bytes (Node's fs takes a Buffer path) and held: everything under it is then reached as
 * `/proc/self/fd/<N>/…`, a plain ASCII path the kernel resolves to the directory we hold (an "anchor"). The rest
 * of omc-top keeps working on text paths.
 *
 * Three things must not turn an anchored path back into the lossy text: resolving it (`realpathText` maps the
 * kernel's answer, bytes, back under the anchor), walking up from it (`parentPath`), and showing it
 * (`showPaths`, applied by the one sanitiser: the bad bytes appear as `\xNN`, never raw, on every surface).
 * Without any anchor (every project with a UTF-8 path) each of these is the plain Node call.
 */
import fs from 'node:fs';
import path from 'node:path';
import { escapeBytes } from './escape-bytes.js';
import { fatalDecoder, lenientDecoder } from './utf8.js';

interface Anchor {
  fd: number;
  /** `/proc/self/fd/<fd>`: the text that stands for the directory. */
  prefix: string;
  /** The directory's real path, as bytes. */
  raw: Buffer;
  /** The real path with its bad bytes as \xNN: what a user sees. */
  shown: string;
}

const anchors: Anchor[] = [];
const PROC_FD_PREFIX = '/proc/self/fd/';
const { O_RDONLY, O_DIRECTORY = 0, O_NONBLOCK = 0 } = fs.constants;

/**
 * The bytes as text, every byte that is not part of valid UTF-8 written as \xNN, and every control or hidden
 * character escaped as well (escape-bytes.ts): a held directory's name is a path like any other.
 */
export const showBytes = (raw: Buffer): string => escapeBytes(raw);

function strict(raw: Buffer): string | null {
  try {
    return fatalDecoder.decode(raw);
  } catch {
    return null;
  }
}

/** Path operations on bytes: latin1 maps each byte to one code unit and back, so path.posix works on them. */
const asLatin1 = (raw: Buffer) => raw.toString('latin1');
const fromLatin1 = (s: string) => Buffer.from(s, 'latin1');

/** `raw` equals `base` or lies inside it, component-wise; the rest after `base` (without its slash), or null. */
function restUnder(raw: Buffer, base: Buffer): Buffer | null {
  if (raw.length < base.length || !raw.subarray(0, base.length).equals(base)) return null;
  if (raw.length === base.length) return Buffer.alloc(0);
  if (base.length === 1 && base[0] === 0x2f) return raw.subarray(1);
  return raw[base.length] === 0x2f ? raw.subarray(base.length + 1) : null;
}

/** The text for bytes the kernel handed back (a real path): under an anchor when one holds them. */
function textOfRealBytes(raw: Buffer): string | null {
  for (const a of anchors) {
    const rest = restUnder(raw, a.raw);
    if (rest === null) continue;
    if (rest.length === 0) return a.prefix;
    const text = strict(rest);
    if (text !== null) return `${a.prefix}/${text}`;
  }
  return strict(raw);
}

/** True once some directory is held by its bytes (the only case where anything here differs from Node's own). */
export const hasAnchors = () => anchors.length > 0;

/**
 * A text path for the absolute path `raw` (bytes): the text itself when it is valid UTF-8, else a path under a
 * held directory. When no held one covers it, the outermost directory of `raw` whose name is not UTF-8 is opened
 * and held (one anchor per bad name, so every path under it shares one prefix), and the rest follows as text.
 * Null when that directory cannot be opened, or when a name below it is not UTF-8 either.
 */
export function pathForBytes(raw: Buffer): string | null {
  const norm = fromLatin1(path.posix.resolve(asLatin1(raw)));
  const known = textOfRealBytes(norm);
  if (known !== null) return known;
  // The outermost prefix that is not valid UTF-8 ends at the end of some component.
  let end = 1;
  while (end < norm.length) {
    const slash = norm.indexOf(0x2f, end + 1);
    end = slash < 0 ? norm.length : slash;
    if (strict(norm.subarray(0, end)) === null) break;
  }
  const dir = norm.subarray(0, end);
  const fd = openAnchor(dir);
  if (fd === null) return null;
  const prefix = `${PROC_FD_PREFIX}${fd}`;
  let real: Buffer;
  try {
    real = fs.realpathSync.native(prefix, { encoding: 'buffer' });
  } catch {
    fs.closeSync(fd);
    return null;
  }
  // A link with a bad name to a directory with a good one, or a directory already held under another name.
  const again = textOfRealBytes(real);
  if (again !== null) fs.closeSync(fd);
  else {
    anchors.push({ fd, prefix, raw: real, shown: showBytes(real) });
    // Outermost first: a path under two held directories is always named under the same one.
    anchors.sort((a, b) => a.raw.length - b.raw.length);
  }
  const base = again ?? prefix;
  if (end === norm.length) return base;
  const rest = strict(norm.subarray(end + 1));
  if (rest !== null) return `${base}/${rest}`;
  // A second bad name further down is not held (one per path is what a project needs): no text for it.
  return null;
}

function openAnchor(dir: Buffer): number | null {
  try {
    // O_NONBLOCK: O_DIRECTORY already refuses a FIFO before it could wait; this says so in the flags too.
    return fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NONBLOCK);
  } catch {
    return null;
  }
}

function anchorOf(p: string): { a: Anchor; rest: string } | null {
  if (anchors.length === 0 || !p.startsWith(PROC_FD_PREFIX)) return null;
  for (const a of anchors) {
    if (p === a.prefix) return { a, rest: '' };
    if (p.startsWith(a.prefix + '/')) return { a, rest: p.slice(a.prefix.length + 1) };
  }
  return null;
}

/** True when `p` is exactly a held directory's /proc/self/fd/N. */
export const isHeldDir = (p: string): boolean => anchorOf(p)?.rest === '';

/** The bytes a text path stands for (a held directory's own bytes in place of its /proc/self/fd prefix). */
export function bytesOfPath(p: string): Buffer {
  const at = anchorOf(p);
  if (!at) return Buffer.from(p);
  return at.rest === '' ? at.a.raw : Buffer.concat([at.a.raw, Buffer.from('/' + at.rest)]);
}

/**
 * The text Node itself would have made of the path (bad bytes as U+FFFD): what a process that took it from
 * process.cwd() holds, for comparing with such text (Claude Code's registry) and for rules written on it.
 */
export const lossyText = (p: string): string => (anchorOf(p) ? lenientDecoder.decode(bytesOfPath(p)) : p);

/** fs.realpathSync.native, keeping a held directory's prefix (the kernel answers in bytes, Node in lossy text). */
export function realpathText(p: string): string {
  if (anchors.length === 0) return fs.realpathSync.native(p);
  const raw = fs.realpathSync.native(p, { encoding: 'buffer' });
  return textOfRealBytes(raw) ?? lenientDecoder.decode(raw);
}

/** path.dirname, except that the parent of a held directory is its real parent (not /proc/self/fd). */
export function parentPath(p: string): string {
  const at = anchorOf(p);
  if (!at || at.rest !== '') return path.dirname(p);
  return pathForBytes(fromLatin1(path.posix.dirname(asLatin1(at.a.raw)))) ?? path.dirname(p);
}

const FD_PATH = /\/proc\/self\/fd\/(\d+)(?![0-9])/g;

/**
 * Text with every held directory's /proc/self/fd prefix replaced by its real path, bad bytes as \xNN. `inJson`:
 * the text is JSON, so the backslash of \xNN is written escaped.
 */
export function showPaths(text: string, inJson = false): string {
  if (anchors.length === 0 || !text.includes(PROC_FD_PREFIX)) return text;
  return text.replace(FD_PATH, (whole, fd: string) => {
    const shown = anchors.find((a) => a.fd === Number(fd))?.shown;
    if (shown === undefined) return whole;
    return inJson ? JSON.stringify(shown).slice(1, -1) : shown;
  });
}

/**
 * path.basename as a user knows the name: a held directory's own name (bad bytes as \xNN), not its fd number. Raw
 * otherwise, for data (`watch --json`'s `project`); a label on screen is io/shown-path.ts's shownName.
 */
export const shownBasename = (p: string): string => path.basename(showPaths(p));
