/**
 * spawn reports a working directory that does not exist as ENOENT, the same code as a git that is not installed.
 * A project path Node could not hand over as it is (not UTF-8) is such a directory: the message must say the
 * directory is missing, not that git is.
 */
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { realGit } from '../../src/io/git.js';

it('git run in a directory that does not exist says so, not "git is not installed"', () => {
  const dir = path.join(os.tmpdir(), `omc-top-no-such-dir-${process.pid}-\ufffd`);
  expect(realGit.topLevel(dir)).toBeNull();
  expect(realGit.failure?.(dir)).toBe(`git could not run in ${dir}: that directory does not exist`);
});
