/**
 * Finding the install and the root asks git about the same directory more than once (the top level first for
 * the install, then again for the root): each answer is a git process the start waits for, so one resolution
 * asks each question once, and gets the same root as when every question ran git.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { GitProbe } from '../../src/io/git.js';
import { resolveRootAndOmc } from '../../src/store/omc-root.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-git-once-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
const home = path.join(base, 'home');
const repo = path.join(base, 'repo');
const sub = path.join(repo, 'pkg');
fs.mkdirSync(path.join(repo, '.omc'), { recursive: true });
fs.mkdirSync(sub, { recursive: true });
fs.mkdirSync(home);

/** git as it would answer for `repo`, counting each question asked of it. */
function countingGit() {
  const asked = new Map<string, number>();
  const count = (q: string, d: string) => asked.set(`${q} ${d}`, (asked.get(`${q} ${d}`) ?? 0) + 1);
  const git: GitProbe = {
    topLevel: (d) => (count('top', d), d.startsWith(repo) ? repo : null),
    superproject: (d) => (count('super', d), null),
    remoteOrigin: (d) => (count('origin', d), null),
    commonDir: (d) => (count('common', d), d.startsWith(repo) ? path.join(repo, '.git') : null),
  };
  return { git, asked };
}

const env = { HOME: home, PATH: process.env.PATH ?? '', CLAUDE_CONFIG_DIR: path.join(home, '.claude') };

it.each([
  // --root <project>/.omc names its project: the directory it was started in is not asked about at all.
  ['from a subdirectory', {}, 1],
  ['with --root', { rootOverride: path.join(repo, '.omc') }, undefined],
])('one resolution asks git each question once (%s)', (_, extra, topOfCwd) => {
  const { git, asked } = countingGit();
  const { res } = resolveRootAndOmc({ cwd: sub, env, home, git, ...extra });
  expect(res.root).toBe(path.join(repo, '.omc'));
  expect(res.projectDir).toBe(repo);
  expect(asked.get(`top ${sub}`)).toBe(topOfCwd);
  expect([...asked.values()].every((n) => n === 1)).toBe(true);
});
