/**
 * A command that fails as a bug would ends with one line on stderr, never a Node stack trace, and exit 1; asked
 * for JSON, stdout holds one JSON object in the commands' own failure shape; OMC_TOP_DEBUG=1 brings the stack
 * back. The real bundle, made to fail by the test seam OMC_TOP_TEST_FAULT (src/commands/test-fault.ts): inside
 * the command's promise, from a timer, from a promise no one awaits.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { TempProject } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';
import { errorMessage } from '../../src/commands/internal-error.js';

/** Runs the bundle on the project with the fault asked; its exit, stdout and stderr. */
function failing(p: TempProject, args: string[], fault: string, extra: NodeJS.ProcessEnv = {}) {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: path.join(p.dir, 'home'),
    XDG_STATE_HOME: path.join(p.dir, 'xdg-state'),
    XDG_CONFIG_HOME: path.join(p.dir, 'xdg-config'),
    NO_COLOR: '1',
    OMC_TOP_TEST_FAULT: fault,
    ...extra,
  };
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: p.dir, env, encoding: 'utf8', timeout: scaled(60_000) });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

const STACK_FRAME = /^\s+at /m;

describe('a command that fails unexpectedly', { timeout: scaled(120_000) }, () => {
  it('says one clean line on stderr, no stack, and exits 1', ({ emptyProject: p }) => {
    const r = failing(p, ['cancel', 'abc', '--root', p.root], 'cancel');
    expect(r.status).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'omc-top: internal error in cancel: test fault in cancel requested by OMC_TOP_TEST_FAULT' +
        ' (run again with OMC_TOP_DEBUG=1 for the stack)\n',
    );
  });

  it('the status line, from its own bundle, says it the same way', ({ emptyProject: p }) => {
    const r = failing(p, ['status', '--root', p.root], 'status');
    expect(r.status).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'omc-top: internal error in status: test fault in status requested by OMC_TOP_TEST_FAULT' +
        ' (run again with OMC_TOP_DEBUG=1 for the stack)\n',
    );
  });

  it('asked for JSON, prints one JSON object in the failure shape of cancel --json on stdout', ({
    emptyProject: p,
  }) => {
    for (const [args, fault, command] of [
      [['cancel', 'abc', '--json', '--root', p.root], 'cancel', 'cancel'],
      [['--json', '--root', p.root], '--json', '--json'],
      [['doctor', '--json', '--root', p.root], 'doctor:uncaught', 'doctor'],
      [['watch', '--json', '--root', p.root], 'watch:rejection', 'watch'],
      [['wiki', 'search', 'x', '--json', '--root', p.root], 'wiki', 'wiki'],
    ] as const) {
      const r = failing(p, [...args], fault);
      expect(r.status, fault).toBe(1);
      const words = `internal error in ${command}: test fault in ${command} requested by OMC_TOP_TEST_FAULT`;
      expect(JSON.parse(r.out), fault).toEqual({ ok: false, error: 'internal', message: words });
      expect(r.out.trim().split('\n'), fault).toHaveLength(1);
      expect(r.err, fault).toBe(`omc-top: ${words} (run again with OMC_TOP_DEBUG=1 for the stack)\n`);
    }
  });

  it('outside the command, from a timer or an unawaited promise, ends the same way', ({ emptyProject: p }) => {
    for (const fault of ['ack:uncaught', 'ack:rejection']) {
      const r = failing(p, ['ack', 'x', '--root', p.root], fault);
      expect(r.status, fault).toBe(1);
      expect(r.err, fault).toMatch(/^omc-top: internal error in ack: test fault in ack .*OMC_TOP_DEBUG=1.*\n$/);
      expect(r.err, fault).not.toMatch(STACK_FRAME);
    }
  });

  it('with OMC_TOP_DEBUG=1 shows the stack on stderr, stdout still one JSON object', ({ emptyProject: p }) => {
    const r = failing(p, ['cancel', 'abc', '--json', '--root', p.root], 'cancel', { OMC_TOP_DEBUG: '1' });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject({ ok: false, error: 'internal' });
    expect(r.err).toMatch(/^omc-top: internal error in cancel: test fault in cancel .*\nError: test fault/);
    expect(r.err).toMatch(STACK_FRAME);
  });

  it('names a path the error carries as every path is shown, its control bytes visible', () => {
    const p = '/tmp/a\u001b[31mred\nx';
    const err = Object.assign(new Error(`ENOENT: no such file or directory, open '${p}'`), { path: p });
    expect(errorMessage(err)).toBe("ENOENT: no such file or directory, open '/tmp/a\\e[31mred\\nx'");
  });
});
