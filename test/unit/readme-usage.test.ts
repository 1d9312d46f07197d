/**
 * README's usage block says what `omc-top --help` of the shipped bundle says:
 * every command line and every option, word for word, so a new flag or
 * subcommand cannot be left out of the README (it was: --no-mouse,
 * --omc-version, --notify, --no-title, watch and status were missing).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';

const help = execFileSync(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), '--help'], { encoding: 'utf8' });
const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');

/** The code block right under "## Use it on your project". */
function usageBlock(): string {
  const at = readme.indexOf('## Use it on your project');
  const open = readme.indexOf('```\n', at);
  const close = readme.indexOf('\n```', open + 4);
  expect(at >= 0 && open > at && close > open, 'README has a usage code block').toBe(true);
  return readme.slice(open + 4, close);
}

/** The help's lines between `heading` and the next blank line. */
function helpSection(heading: string): string[] {
  const lines = help.split('\n');
  const from = lines.indexOf(heading) + 1;
  expect(from, `--help has a "${heading}" section`).toBeGreaterThan(0);
  const to = lines.findIndex((l, i) => i >= from && l.trim() === '');
  return lines.slice(from, to === -1 ? undefined : to);
}

describe('README usage', () => {
  it('lists every command line of --help', () => {
    // A long command carries on over indented lines in both (README's indent its own).
    const block = usageBlock()
      .split('\n')
      .map((l) => l.trim());
    for (const line of helpSection('Usage:')) expect(block, 'README usage').toContain(line.trim());
  });

  it('lists every option of --help, as --help words it', () => {
    const block = usageBlock().split('\n');
    for (const line of helpSection('Options:')) expect(block, 'README options').toContain(line);
  });
});
