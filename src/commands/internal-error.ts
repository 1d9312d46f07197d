/**
 * How a command ends when it fails in a way it did not foresee (a bug, not a usage slip): one line a user can
 * read and report, never a Node stack trace, exit 1. A command asked for JSON also writes one JSON object on
 * stdout, in the shape the commands' own failures already have (`cancel --json`, `hooks --json`:
 * `{ok: false, error, message}`), so a script reading stdout still parses it. `OMC_TOP_DEBUG=1` adds the stack on
 * stderr, for the report. The full-screen monitor has its own crash path (terminal/full-screen.tsx): it must give
 * the terminal back first.
 */
import { cleanLine, terminalSafeJson } from '../io/sanitize.js';
import { shownPath } from '../io/shown-path.js';
import type { TextSink } from '../io/output.js';

/** The variable that brings the stack back (stderr). */
export const DEBUG_VAR = 'OMC_TOP_DEBUG';

/** The `error` value of the JSON object: what a script tells apart from a command's own failures. */
export const INTERNAL_ERROR = 'internal';

/** The flags before `--`: what was asked (after it, `--json` is an argument, not the flag). */
const flagsOf = (argv: readonly string[]): readonly string[] => {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
};

/** Whether the command line asked for JSON on stdout (`--json`, as every command that has it spells it). */
export function asksJson(argv: readonly string[]): boolean {
  return flagsOf(argv).includes('--json');
}

/** The command a failure is said to be in: the subcommand, else `--json` or the monitor. */
export function commandOf(argv: readonly string[], subcommands: ReadonlySet<string>): string {
  const first = argv[0];
  if (first !== undefined && subcommands.has(first)) return first;
  return asksJson(argv) ? '--json' : 'the monitor';
}

/**
 * The line after a usage error: the help of the command that was given it (`omc-top wiki --help` lists what
 * `wiki` takes; the top-level help only its synopsis). Every subcommand answers --help.
 */
export function tryHelpLine(command: string): string {
  return command === 'the monitor' || command === '--json' ? 'Try omc-top --help.' : `Try omc-top ${command} --help.`;
}

/**
 * The error's message as one clean line. A path the error names (Node's `path` and `dest`) is shown as every path
 * is (each byte visible, io/shown-path.ts) before the line is cleaned, so it still names the same file.
 */
export function errorMessage(err: unknown): string {
  let text = err instanceof Error ? err.message : String(err);
  const e = err as { path?: unknown; dest?: unknown } | null;
  for (const p of [e?.path, e?.dest]) if (typeof p === 'string' && p !== '') text = text.split(p).join(shownPath(p));
  return cleanLine(text) || (err instanceof Error ? err.name : 'unknown error');
}

/** The words, as both the line and the JSON `message` say them. */
export const internalErrorWords = (command: string, err: unknown): string =>
  `internal error in ${command}: ${errorMessage(err)}`;

/**
 * Says the failure: the JSON object on stdout when JSON was asked, the line on stderr always (a script's stderr
 * is its log), and the stack on stderr with OMC_TOP_DEBUG=1.
 */
export function reportInternalError(
  sink: TextSink,
  command: string,
  json: boolean,
  err: unknown,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const words = internalErrorWords(command, err);
  if (json) sink.out(terminalSafeJson({ ok: false, error: INTERNAL_ERROR, message: words }, 0) + '\n');
  const debug = env[DEBUG_VAR] !== undefined && env[DEBUG_VAR] !== '' && env[DEBUG_VAR] !== '0';
  const stack = err instanceof Error && err.stack ? err.stack : String(err);
  sink.err(
    debug ? `omc-top: ${words}\n${stack}\n` : `omc-top: ${words} (run again with ${DEBUG_VAR}=1 for the stack)\n`,
  );
}

/**
 * Outside the command's promise (a timer, a stream's callback, a promise no one awaits): the same words and the
 * same exit, not Node's trace. For the commands only: the full-screen monitor installs its own (it restores the
 * terminal first). Said once: a second failure while the first is being said is not said again.
 */
export function endUncaughtAsInternal(
  sink: TextSink,
  command: string,
  json: boolean,
  exit: (code: number) => void,
): void {
  let said = false;
  const end = (err: unknown) => {
    if (said) return;
    said = true;
    reportInternalError(sink, command, json, err);
    exit(1);
  };
  process.on('uncaughtException', end);
  process.on('unhandledRejection', end);
}
