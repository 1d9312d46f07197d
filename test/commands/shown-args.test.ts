/**
 * An argument quoted back in an error shows every byte it holds (`\e`, `\xNN`, as a path is shown), so the message
 * names the value given, never a valid-looking one left once an escape sequence was removed; and no control byte
 * reaches the terminal. The real bundle, each command as a user types it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/pty.js';
import { makeProject, type TempProject } from '../helpers/fixtures.js';
import { shownArg } from '../../src/io/shown-arg.js';

let p: TempProject | null = null;
let home: string | null = null;
afterEach(() => {
  p?.cleanup();
  p = null;
  if (home) fs.rmSync(home, { recursive: true, force: true });
  home = null;
});

describe('an argument with an escape sequence, named in an error', () => {
  it('is shown with the sequence escaped, on every command; exit 2; no control byte on stderr', () => {
    p = makeProject();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-args-home-'));
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, '.cache') };
    delete env.XDG_STATE_HOME;
    delete env.XDG_CONFIG_HOME;
    const cases: [string[], string][] = [
      [['cancel', 'abc\x1b[31m'], 'omc-top cancel: "abc\\e[31m" is not a valid OMC session id'],
      [['cancel', 'x1', '--wait', '9\x07'], 'omc-top: --wait needs a number of seconds, not "9\\x07"'],
      [
        ['--json', '--notify=bell\x1b[31m'],
        'omc-top: --notify: unknown channel "bell\\e[31m" (bell, osc, tmux or none)',
      ],
      [
        ['status', '--omc-version', '5.5.0\x1b[0m'],
        'omc-top: --omc-version needs a version like 5.5.0 or 4.4.4, not "5.5.0\\e[0m"',
      ],
      [['ack', 'team-stalled:x@1796062487414\x1b[0m'], 'omc-top: not an item id: "team-stalled:x@1796062487414\\e[0m"'],
      [['doctor', '--x\x1b]0;pwn\x07'], 'omc-top: unknown option --x\\e]0;pwn\\x07'],
      [['watch', '--json', 'a"b\u202e'], 'omc-top: unexpected argument "a\\"b\\xe2\\x80\\xae"'],
    ];
    for (const [args, line] of cases) {
      const r = spawnSync(process.execPath, [BIN, ...args, '--root', p.root], { cwd: p.dir, env, encoding: 'utf8' });
      const what = JSON.stringify(args);
      expect(r.stderr.split('\n')[0], what).toContain(line);
      expect(r.status, what).toBe(2);
      expect(r.stderr, what).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f\u202e]/);
    }
  });

  it('shownArg: a plain value in quotes; a quote and a backslash written so the text maps back', () => {
    expect(shownArg('abc')).toBe('"abc"');
    expect(shownArg('a"b\\c')).toBe('"a\\"b\\\\c"');
  });
});
