/**
 * The bin asks git for the top level while the app bundle compiles (io/git-early.ts); the first identical
 * question takes that answer. Whichever way git ran, the root resolution must see the same answer, and a git that
 * failed must be described in the same words.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  askGitEarly,
  askTopLevelEarly,
  COMMON_DIR_ARGS,
  earlyGitSettled,
  SUPERPROJECT_ARGS,
  takeEarlyAnswer,
  TOP_LEVEL_ARGS,
} from '../../src/io/git-early.js';
import { realGit } from '../../src/io/git.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-git-early-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
const repo = path.join(base, 'repo');
const inside = path.join(repo, 'src', 'deep');
const plain = path.join(base, 'plain');
fs.mkdirSync(inside, { recursive: true });
fs.mkdirSync(plain);
execFileSync('git', ['init', '-q', repo], { stdio: 'ignore' });
const gitDir = path.join(repo, '.git');

/** The answer and the failure words for `dir`, with the question asked early first, then run again synchronously. */
async function bothWays(dir: string) {
  askGitEarly(dir, TOP_LEVEL_ARGS);
  await earlyGitSettled();
  const early = { top: realGit.topLevel(dir), failure: realGit.failure?.(dir) ?? null };
  // Taken once: the same question now runs git itself.
  expect(takeEarlyAnswer(dir, TOP_LEVEL_ARGS)).toBeNull();
  const sync = { top: realGit.topLevel(dir), failure: realGit.failure?.(dir) ?? null };
  return { early, sync };
}

describe('git asked early', () => {
  it('inside a repository: the same top level as git run when asked', async () => {
    const { early, sync } = await bothWays(inside);
    expect(early).toEqual({ top: repo, failure: null });
    expect(early).toEqual(sync);
  });

  it('outside any repository: no top level and no failure, either way', async () => {
    // A directory under the system temp dir might still sit in someone's repository: compare, do not assume.
    const { early, sync } = await bothWays(plain);
    expect(early).toEqual(sync);
  });

  it('git refusing the question (inside .git, no work tree): the same failure words', async () => {
    const { early, sync } = await bothWays(gitDir);
    expect(early.top).toBeNull();
    expect(early.failure).toMatch(/^git failed \(exit \d+/);
    expect(early).toEqual(sync);
  });

  it('a directory that does not exist: the same words, not "git is not installed"', async () => {
    const gone = path.join(base, 'gone');
    const { early, sync } = await bothWays(gone);
    expect(early).toEqual({ top: null, failure: `git could not run in ${gone}: that directory does not exist` });
    expect(early).toEqual(sync);
  });

  it('an early answer is only for its own directory and question', async () => {
    askGitEarly(repo, TOP_LEVEL_ARGS);
    await earlyGitSettled();
    expect(realGit.topLevel(inside)).toBe(repo); // run by itself: the early answer for `repo` is still there
    expect(realGit.commonDir(repo)).toBe(gitDir);
    expect(takeEarlyAnswer(repo, TOP_LEVEL_ARGS)).toEqual({ stdout: Buffer.from(`${repo}\n`) });
  });

  it('nothing asked early: settled at once, and git runs when asked', async () => {
    await earlyGitSettled();
    expect(takeEarlyAnswer(inside, TOP_LEVEL_ARGS)).toBeNull();
    expect(realGit.topLevel(inside)).toBe(repo);
  });

  it('the top level asked early brings the two questions a start asks of it next, with the answers git gives', async () => {
    askTopLevelEarly(inside, [COMMON_DIR_ARGS, SUPERPROJECT_ARGS]);
    await earlyGitSettled(); // settled only once the follow-ups are answered too
    expect(realGit.topLevel(inside)).toBe(repo);
    // Taken from the early runs: the next identical question would run git itself.
    expect(realGit.commonDir(repo)).toBe(gitDir);
    expect(takeEarlyAnswer(repo, COMMON_DIR_ARGS)).toBeNull();
    expect(realGit.superproject(repo)).toBeNull(); // not a submodule: git printed nothing
    expect(takeEarlyAnswer(repo, SUPERPROJECT_ARGS)).toBeNull();
    // Asked again by git itself: the same answers.
    expect(realGit.commonDir(repo)).toBe(gitDir);
  });

  it('no top level, no follow-up question', async () => {
    const gone = path.join(base, 'gone-too');
    askTopLevelEarly(gone, [COMMON_DIR_ARGS]);
    await earlyGitSettled();
    expect(realGit.topLevel(gone)).toBeNull();
    expect(takeEarlyAnswer(gone, COMMON_DIR_ARGS)).toBeNull();
  });

  it('a follow-up waits in the registry until its own question comes', async () => {
    askTopLevelEarly(repo, [COMMON_DIR_ARGS, SUPERPROJECT_ARGS]);
    await earlyGitSettled();
    expect(takeEarlyAnswer(repo, COMMON_DIR_ARGS)).toEqual({ stdout: Buffer.from(`${gitDir}\n`) });
    expect(takeEarlyAnswer(repo, TOP_LEVEL_ARGS)).toEqual({ stdout: Buffer.from(`${repo}\n`) });
    expect(takeEarlyAnswer(repo, SUPERPROJECT_ARGS)).toEqual({ stdout: Buffer.alloc(0) });
  });
});
