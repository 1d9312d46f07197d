/** A small, strict argument parser: unknown flags are errors, not silently ignored. */
import { shownArgText } from '../io/shown-arg.js';

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * The general options of `--help`, taken by every command wherever they stand before `--` (an alias
 * `omc-top --no-color` must not break `omc-top status`). Each acts for the whole process: `noColorAsked`.
 */
export const GENERAL_FLAGS: Readonly<Record<string, 'bool' | 'value'>> = { 'no-color': 'bool' };

/**
 * Whether `--no-color` is among the options (before `--`), or the terminal is a monochrome one. The bin sets
 * NO_COLOR=1 for the whole process when it is: the theme, chalk and doctor's terminal check read that, whichever
 * command runs.
 */
export function noColorAsked(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--no-color') || monochromeTerm(env.TERM);
}

/**
 * A terminal whose terminfo name says it shows no colour: the `-mono` and `-m` suffixes (xterm-mono, vt220-m).
 * chalk reads only the name's start (`xterm…`) and would give it 16 colours.
 */
export const monochromeTerm = (term: string | undefined): boolean => term !== undefined && /-(mono|m)$/.test(term);

/**
 * @param spec flag name → 'bool' | 'value'. Short aliases map to long names.
 */
export function parseArgs(
  argv: readonly string[],
  spec: Record<string, 'bool' | 'value'>,
  aliases: Record<string, string> = {},
): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('-') && a !== '-') {
      let name = a.replace(/^--?/, '');
      let value: string | undefined;
      const eq = name.indexOf('=');
      if (eq !== -1) {
        value = name.slice(eq + 1);
        name = name.slice(0, eq);
      }
      // `-h` is `--help` wherever --help is (the top-level help lists `-h, --help`): every command answers both.
      name = aliases[name] ?? (a === '-h' && spec.help !== undefined ? 'help' : name);
      const kind = spec[name] ?? GENERAL_FLAGS[name];
      if (!kind) throw new UsageError(`unknown option ${shownArgText(a)}`);
      if (kind === 'bool') {
        if (value !== undefined) throw new UsageError(`option --${name} takes no value`);
        flags.set(name, true);
      } else {
        if (value === undefined) {
          value = argv[i + 1];
          i++;
        }
        if (value === undefined || value === '') throw new UsageError(`option --${name} needs a value`);
        flags.set(name, value);
      }
      continue;
    }
    positionals.push(a);
  }
  return { positionals, flags };
}

/**
 * `--cwd DIR` and `--root DIR` say where to look in two ways (the help gives them as `--cwd DIR | --root DIR`):
 * both at once is a usage error, not one silently winning. The --root given, if any.
 */
export function rootFlag(args: ParsedArgs): string | undefined {
  if (args.flags.has('cwd') && args.flags.has('root')) throw new UsageError('use either --cwd or --root, not both');
  return args.flags.get('root') as string | undefined;
}
