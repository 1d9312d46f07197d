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
