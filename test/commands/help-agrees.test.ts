/**
 * The top-level help's synopsis of each subcommand and that subcommand's own help name the same options (they are
 * what its parser takes), and a usage error points at the help of the command it was made to.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';

const BIN = path.join(REPO, 'dist', 'omc-top.mjs');
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const SUBCOMMANDS = ['cancel', 'ack', 'wiki', 'doctor', 'serve', 'watch', 'status', 'hooks', 'send'];
/** The options a synopsis names (`--tag T[,T…]` is `--tag`). */
const optionsOf = (text: string) => [...new Set(text.match(/--[a-z][a-z-]*/g) ?? [])].sort();

/** The top-level help's synopsis of `sub`: its line and the lines continuing it. */
function topSynopsis(help: string, sub: string): string {
  const lines = help.split('\n');
  const i = lines.findIndex((l) => l.startsWith(`  omc-top ${sub} `) || l === `  omc-top ${sub}`);
  const out = [lines[i] ?? ''];
  for (let j = i + 1; j < lines.length && /^ {4,}\S/.test(lines[j] ?? ''); j++) out.push(lines[j] ?? '');
  return out.join(' ');
}

describe('help words', () => {
  it("each subcommand's synopsis in `omc-top --help` names the options its own --help names", () => {
    const top = run('--help').out;
    for (const sub of SUBCOMMANDS) {
      const own = run(sub, '--help').out.split('\n\n')[0] ?? '';
      expect(optionsOf(topSynopsis(top, sub)), sub).toEqual(optionsOf(own));
    }
    // The words of wiki's: a query of several words, tags as a list.
    expect(topSynopsis(top, 'wiki')).toContain('wiki search QUERY... ');
    expect(topSynopsis(top, 'wiki')).toContain('[--tag T[,T…]]');
  });

  it('an unknown option of a subcommand points at that subcommand’s help; of the monitor, at the top-level one', () => {
    for (const sub of ['wiki', 'status', 'doctor', 'cancel']) {
      const r = run(sub, '--bogus');
      expect(r.code, sub).toBe(2);
      expect(r.err, sub).toContain(`unknown option --bogus\nTry omc-top ${sub} --help.\n`);
    }
    const r = run('--bogus');
    expect(r.code).toBe(2);
    expect(r.err).toContain('Try omc-top --help.');
  });

  it('-h is --help for every subcommand, as the top-level help lists `-h, --help`', () => {
    expect(run('--help').out).toContain('-h, --help');
    for (const sub of SUBCOMMANDS) {
      const long = run(sub, '--help');
      expect({ sub, ...run(sub, '-h') }).toEqual({ sub, ...long });
      expect(long.code, sub).toBe(0);
    }
  });

  it('every --help fits 80 columns, its words and options all there (a long block is reflowed, not cut)', () => {
    const squash = (t: string) => t.replace(/\s+/g, '');
    for (const sub of ['', ...SUBCOMMANDS]) {
      const out = run(...(sub === '' ? [] : [sub]), '--help').out;
      for (const line of out.split('\n')) expect([...line].length, `${sub}: ${line}`).toBeLessThanOrEqual(80);
      expect(out, sub).toMatch(/Usage:/);
    }
    // Reflowed, the words are the ones written: the top-level help's options, in order.
    const top = run('--help').out;
    expect(squash(top)).toContain(
      squash('--all the fleet: every session of every .omc root on this machine, by project'),
    );
    expect(topSynopsis(top, 'cancel')).toContain('[--readonly]');
  });

  it('a subcommand after an option (`omc-top --cwd D status`) is said to go first', () => {
    const r = run('--cwd', REPO, 'status');
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'unexpected argument "status": put options after the subcommand (omc-top status [options])',
    );
  });
});
