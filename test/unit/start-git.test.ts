/**
 * A monitor started in a git project asks git a few questions before its first frame (the top level, its common dir,
 * its superproject), and each synchronous run stops the main thread for 3–10 ms. The bin asks them early, while the
 * app bundle compiles, and the start takes those answers (io/git-early.ts); the first store takes the root
 * resolution's answers instead of asking again (store.ts `git`). The real bundle, with a `git` on PATH that logs
 * every run: until `live`, no question is asked twice in the same directory. Before 2026-12-07 the top level and the
 * common dir were each run twice (the root's pass and the store's Claude settings each asked).
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { writeLiveRalph } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const SID = 'c0ffee00-1111-4222-8333-444455556666';

/** A directory holding a `git` that logs its directory and arguments, then runs the real git. */
function loggingGit(dir: string): { path: string; runs: () => string[] } {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = path.join(dir, 'bin');
  const log = path.join(dir, 'git.log');
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh\nprintf '%s %s\\n' "$(pwd -P)" "$*" >> '${log}'\nexec '${realGit}' "$@"\n`,
    { mode: 0o755 },
  );
  return {
    path: `${bin}:${process.env.PATH ?? ''}`,
    runs: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  };
}

describe('git at start-up', () => {
  it('the monitor in a git project runs each git question once until live', async ({ emptyProject, tempDir, pty }) => {
    writeLiveRalph(emptyProject, { sessionId: SID, prompt: 'make the checkout tests pass' });
    const git = loggingGit(tempDir('omc-top-git-'));
    const t = pty({ cwd: emptyProject.dir, env: { PATH: git.path } });
    await t.waitForText('c0ffee00', scaled(20_000));
    await t.waitForText(/ live\s*$/m, scaled(20_000));
    const runs = git.runs();
    const top = fs.realpathSync(emptyProject.dir);
    // The questions were asked through the logging git (the test looks at something).
    expect(runs).toContain(`${top} rev-parse --show-toplevel`);
    expect(runs).toContain(`${top} rev-parse --path-format=absolute --git-common-dir`);
    const twice = runs.filter((r, i) => runs.indexOf(r) !== i);
    expect(twice, runs.join('\n')).toEqual([]);
  });

  it('--root <project>/.omc from another repository: git is asked about the project only, once each', async ({
    emptyProject,
    newProject,
    tempDir,
    pty,
  }) => {
    writeLiveRalph(emptyProject, { sessionId: SID, prompt: 'make the checkout tests pass' });
    const elsewhere = newProject({ prefix: 'omc-top-elsewhere-' });
    const git = loggingGit(tempDir('omc-top-git-'));
    const t = pty({ cwd: elsewhere.dir, args: ['--root', emptyProject.root], env: { PATH: git.path } });
    await t.waitForText('c0ffee00', scaled(20_000));
    await t.waitForText(/ live\s*$/m, scaled(20_000));
    const runs = git.runs();
    const project = fs.realpathSync(emptyProject.dir);
    expect(runs).toContain(`${project} rev-parse --show-toplevel`);
    // The repository omc-top was started in is not the project: nothing is asked there.
    expect(runs.filter((r) => r.startsWith(`${fs.realpathSync(elsewhere.dir)} `))).toEqual([]);
    const twice = runs.filter((r, i) => runs.indexOf(r) !== i);
    expect(twice, runs.join('\n')).toEqual([]);
  });
});
