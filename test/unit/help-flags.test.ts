/**
 * `omc-top --help` names every flag each command takes: the usage line of each command is checked against the
 * command's own parser table, so a flag added to a parser and not to the help (and README's copy of it) fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../src/cli.js';
import { FLAGS as ACK } from '../../src/commands/ack.js';
import { FLAGS as CANCEL } from '../../src/commands/cancel.js';
import { FLAGS as DOCTOR } from '../../src/commands/doctor.js';
import { FLAGS as HOOKS } from '../../src/commands/hooks.js';
import { FLAGS as SEND } from '../../src/commands/send.js';
import { FLAGS as STATUS } from '../../src/commands/status-fast.js';
import { FLAGS as WATCH } from '../../src/commands/watch.js';
import { FLAGS as WIKI } from '../../src/commands/wiki.js';
import { FLAGS as SERVE } from '../../src/commands/serve/command.js';
import { REPO } from '../helpers/fixtures.js';

const COMMANDS: Record<string, Readonly<Record<string, string>>> = {
  ack: ACK,
  cancel: CANCEL,
  doctor: DOCTOR,
  hooks: HOOKS,
  send: SEND,
  status: STATUS,
  watch: WATCH,
  'wiki search': WIKI,
  serve: SERVE,
};

/** A command's usage: its `omc-top <command>` line and the indented lines that carry it on. */
function usageOf(text: string, command: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trimStart().startsWith(`omc-top ${command} `));
  if (at === -1) return '';
  let end = at + 1;
  while (end < lines.length && /^\s{8,}\[/.test(lines[end] as string)) end++;
  return lines.slice(at, end).join(' ');
}

describe('--help names every flag of every command', () => {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  for (const [command, flags] of Object.entries(COMMANDS))
    it(`omc-top ${command}: in --help and in README.md`, () => {
      const names = Object.keys(flags).filter((f) => f !== 'help');
      for (const text of [USAGE, readme]) {
        const usage = usageOf(text, command);
        expect(usage, `the usage line of ${command}`).not.toBe('');
        const missing = names.filter((f) => !usage.includes(`--${f}`));
        expect(missing, usage).toEqual([]);
      }
    });
});
