/**
 * How a path is named to the user: in a message, a hint, a problem line, the header. A path is not data to be
 * cleaned (the sanitiser removes escape sequences and controls from prompts and phases, which is right for them):
 * a name with its control bytes removed names another directory, or none. So every byte stays, and the ones a
 * terminal would act on, hide or reorder are written as escapes (`\e`, `\n`, `\xNN`; io/safe-fs/escape-bytes.ts),
 * as a name that is not UTF-8 already was. The text that comes out holds no control byte: the sanitiser that
 * every row and message still goes through leaves it as it is.
 *
 * A held directory (a name that is not UTF-8, /proc/self/fd/N) is named by its real bytes, never its fd number.
 * `--json` keeps its raw path fields raw: these are for display strings only.
 */
import path from 'node:path';
import { bytesOfPath } from './safe-fs/byte-paths.js';
import { escapeBytes, NO_SHELL_WORD, shellWordOfBytes } from './safe-fs/escape-bytes.js';

/** A path to show: every byte visible, none that the terminal would act on (`a\e[31mred\nx`). */
export function shownPath(p: string): string {
  return escapeBytes(bytesOfPath(p));
}

/**
 * A path as one argument of a command a user can copy into a POSIX shell (dash included): bare, `'…'`, or
 * `"$(printf '…')"` when it holds a control byte or a byte that is not UTF-8
 * (`--root "$(printf 'a\033[31mred\012x/.omc')"`). Null when no shell word can carry it (a name ending in a newline):
 * the hint then says so in NO_SHELL_WORD's words (`shellArg`).
 */
export function shellPath(p: string): string | null {
  return shellWordOfBytes(bytesOfPath(p));
}

/**
 * A hint's command with `p` as its argument (`--root <p>`), or, when no shell word can carry `p`, the path as shown
 * and why there is no command: the same words on every surface that offers one.
 */
export function shellArg(p: string, command: (word: string) => string): string {
  const word = shellPath(p);
  return word !== null ? command(word) : `${command(shownPath(p))} (${NO_SHELL_WORD})`;
}

/**
 * The last part of a path as a label (a project's name in the header, the title, the fleet, `watch --json`'s
 * `project`): every byte shown as shownPath shows it, so a name holding an escape sequence reads as its bytes,
 * not as the text left once the sanitiser has dropped the sequence with its contents.
 */
export function shownName(p: string): string {
  return path.basename(shownPath(p));
}
