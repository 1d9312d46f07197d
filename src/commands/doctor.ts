/**
 * `omc-top doctor [--json] [--cwd DIR | --root DIR] [--poll]`: prints the
 * set-up omc-top sees and exits 1 when something in it is broken.
 */
import { fitHelp } from './help-width.js';
import { cleanLine } from '../io/sanitize.js';
import { printJson, printOut } from '../io/output.js';
import { VERSION } from '../version.js';
import { parseArgs, UsageError } from './args.js';
import { collectDoctorReport, type DoctorReport } from './doctor-checks.js';
import { shownArg } from '../io/shown-arg.js';
import { wrapText } from '../io/wrap-text.js';
import { docPath } from '../io/doc-path.js';

export const DOCTOR_USAGE = `Usage: omc-top doctor [--json] [--cwd DIR | --root DIR] [--poll] [--test-push]

Explains the set-up: Node.js, how the .omc root was found (and the other
candidates), the OMC install, Claude Code's config directory and session
registry, omc-top's config file, push channels, omc-top's state directory, watching and the
inotify limits, tmux, the terminal.
Exits 1 when something is broken, 0 otherwise (warnings included).
  --json        one JSON document: {"ok", "omcTop", "checks": [{"id", "status", "summary", "details", "data"}]}
  --cwd DIR     find the .omc root from DIR;  --root DIR  use DIR as the .omc root
  --poll        check the watcher as omc-top --poll would run it
  --test-push   send a test message to each push channel (${docPath('reach.md')})`;

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = {
  json: 'bool',
  cwd: 'value',
  root: 'value',
  poll: 'bool',
  'test-push': 'bool',
  help: 'bool',
} as const;

const MARK: Record<string, string> = { ok: 'ok    ', warn: 'warn  ', broken: 'BROKEN', info: 'info  ' };

/**
 * The report as text. `columns`: the terminal's width when stdout is one; each check's words then wrap at word
 * boundaries under its text column (the terminal would cut them mid-word). Null (a pipe, a file): one line each,
 * as scripts read it.
 */
export function formatDoctorReport(report: DoctorReport, columns: number | null = null): string {
  const width = Math.max(...report.checks.map((c) => c.title.length));
  const indent = ' '.repeat(10 + width);
  // Narrower than the marks and titles leave room for: under them from the line's start, at the whole width.
  const room = columns === null ? null : columns - indent.length >= 24 ? columns - indent.length : columns;
  const lead = room === columns ? '' : indent;
  const wrapped = (text: string): string[] => (room === null ? [text] : wrapText(text, room, { asWritten: true }));
  const lines = [`omc-top ${report.omcTop} doctor`];
  for (const c of report.checks) {
    const head = `${MARK[c.status]}  ${c.title.padEnd(width)}  `;
    const [first = '', ...more] = wrapped(cleanLine(c.summary));
    if (lead === '' && room !== null) lines.push(head.trimEnd(), ...[first, ...more]);
    else lines.push(`${head}${first}`, ...more.map((l) => `${lead}${l}`));
    for (const d of c.details)
      for (const l of wrapped(cleanLine(d))) lines.push(`${room === null ? indent : lead}${l}`);
  }
  const broken = report.checks.filter((c) => c.status === 'broken').map((c) => c.title);
  lines.push(broken.length > 0 ? `broken: ${broken.join(', ')}` : 'nothing broken');
  return lines.join('\n');
}

export async function runDoctorCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    printOut(fitHelp(DOCTOR_USAGE) + '\n');
    return 0;
  }
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${shownArg(args.positionals[0]!)}`);
  if (args.flags.has('cwd') && args.flags.has('root')) throw new UsageError('--cwd and --root are exclusive');
  const out = process.stdout;
  const report = await collectDoctorReport({
    cwd: (args.flags.get('cwd') as string | undefined) ?? process.cwd(),
    rootOverride: args.flags.get('root') as string | undefined,
    env: process.env,
    poll: args.flags.has('poll'),
    testPush: args.flags.has('test-push'),
    version: VERSION,
    nodeVersion: process.version,
    terminal: {
      isTTY: out.isTTY === true,
      columns: out.isTTY ? (out.columns ?? null) : null,
      rows: out.isTTY ? (out.rows ?? null) : null,
      colorDepth: out.isTTY ? out.getColorDepth(process.env) : null,
    },
  });
  if (args.flags.has('json')) printJson(report);
  else printOut(formatDoctorReport(report, out.isTTY ? (out.columns ?? null) : null) + '\n');
  return report.ok ? 0 : 1;
}
