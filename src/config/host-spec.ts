/**
 * `--host user@box[:dir]`: a destination handed to the user's own ssh and an
 * optional directory on that machine. Both come from the command line or the
 * config file and end up in a command line, so the grammar is strict: no
 * leading "-" (it would be an ssh option), no spaces, quotes or control
 * characters in the destination, an absolute or ~ directory without control
 * characters. The directory is single-quoted for the remote shell.
 *
 * The spec is also drawn (the fleet's group header, messages): a directory
 * holding anything the one sanitiser would change (bidi controls that reorder
 * the header, line separators, Hangul fillers and other characters whose
 * width terminals dispute) is refused with the reason, never drawn.
 */
import path from 'node:path';
import { cleanLine } from '../io/sanitize.js';

export interface HostSpec {
  /** As given, for marks and messages. */
  label: string;
  /** What ssh gets as its destination (user@box, box, or an alias from ~/.ssh/config). */
  destination: string;
  dir: string | null;
}

const DEST = /^(?:[A-Za-z0-9._%+-]{1,64}@)?[A-Za-z0-9._-]{1,253}$/;

export function parseHostSpec(raw: string): HostSpec | null {
  const r = checkHostSpec(raw);
  return typeof r === 'string' ? null : r;
}

/** The spec, or why it is not one (in words for the usage error and the config file's problem line). */
export function checkHostSpec(raw: string): HostSpec | string {
  const usage = 'not user@box or user@box:/dir';
  if (typeof raw !== 'string' || raw.length > 600) return usage;
  const colon = raw.indexOf(':');
  const destination = colon === -1 ? raw : raw.slice(0, colon);
  const dir = colon === -1 ? null : raw.slice(colon + 1);
  if (destination.startsWith('-') || !DEST.test(destination)) return usage;
  if (dir !== null) {
    if (dir === '' || !(dir.startsWith('/') || dir === '~' || dir.startsWith('~/')))
      return 'the directory after ":" must be absolute or start with ~';
    if (/[\u0000-\u001f\u007f-\u009f]/.test(dir)) return 'the directory holds control characters';
    if (cleanLine(dir) !== dir)
      return 'the directory holds bidi controls, line separators or characters whose width terminals dispute (Hangul fillers, zero-width marks)';
  }
  return { label: raw, destination, dir };
}

/**
 * The directory as the remote omc-top is started in it, normalised: trailing and doubled slashes, `.` and `..`
 * segments (`/r/shop/`, `/r/./shop`, `/r/x/../shop` are `/r/shop`); no directory and `~` are both the remote home.
 * A `~` path climbing above the home (`~/..`) is kept as written: the home's parent is not known here.
 */
function normalDir(dir: string | null): string {
  if (dir === null || dir === '~') return '~';
  if (dir.startsWith('~/')) {
    const rest = path.posix.normalize(dir.slice(2));
    if (rest === '..' || rest.startsWith('../')) return dir;
    return rest === '.' || rest === './' ? '~' : `~/${rest.replace(/\/+$/, '')}`;
  }
  const n = path.posix.normalize(dir);
  return n === '/' ? n : n.replace(/\/+$/, '');
}

/**
 * What makes two specs one project: the same ssh destination (as written: which user `box` logs in as is ssh's to
 * say, so `box` and `me@box` stay two) and the same directory once normalised.
 */
export function hostSpecKey(spec: HostSpec): string {
  return `${spec.destination}\u0000${normalDir(spec.dir)}`;
}

/**
 * Each project once, the first spec that names it kept (the command line's before the config file's), and the
 * words for the ones left out (null: none), said once where the fleet says things (its message line, serve's stderr).
 */
export function uniqueHostSpecs(specs: readonly HostSpec[]): { specs: HostSpec[]; twice: string | null } {
  const first = new Map<string, HostSpec>();
  const dropped: string[] = [];
  for (const s of specs) {
    const key = hostSpecKey(s);
    const kept = first.get(key);
    if (!kept) first.set(key, s);
    else if (kept.label === s.label) dropped.push(s.label);
    else dropped.push(`${s.label} (the same as ${kept.label})`);
  }
  const said = [...new Set(dropped)];
  return {
    specs: [...first.values()],
    twice: said.length === 0 ? null : `--host given twice: ${said.join(', ')}: shown once`,
  };
}

/** Single-quotes a word for a POSIX shell (the remote login shell parses ssh's command). */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** `--cwd DIR` for the remote omc-top; "~" stays unquoted so the remote shell expands it. */
export function remoteCwdArgs(spec: HostSpec): string {
  if (spec.dir === null) return '';
  if (spec.dir === '~') return ' --cwd ~';
  if (spec.dir.startsWith('~/')) return ` --cwd ~/${shellQuote(spec.dir.slice(2))}`;
  return ` --cwd ${shellQuote(spec.dir)}`;
}
