/**
 * A user's argument named back in a message (`"abc\e[31m" is not a valid OMC session id`, `unknown option --x\e`):
 * every byte shown as a path is (io/shown-path.ts, io/safe-fs/escape-bytes.ts: `\e`, `\n`, `\xNN`, the backslash
 * doubled), so the message names the value that was given, not the one left once the sanitiser removed a sequence
 * from it (which could read as a valid one). The one way every command quotes an argument. A leaf module: the bin's
 * status path uses it before anything else is loaded.
 */
import { escapeBytes } from './safe-fs/escape-bytes.js';

/** The argument's text, every byte a terminal would act on, hide or reorder escaped (an option's name, unquoted). */
export function shownArgText(arg: string): string {
  return escapeBytes(Buffer.from(arg, 'utf8'));
}

/** The argument in double quotes, as shownArgText shows it (a quote inside written `\"`). No control byte. */
export function shownArg(arg: string): string {
  return `"${shownArgText(arg).replace(/"/g, '\\"')}"`;
}
