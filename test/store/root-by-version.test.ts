/**
 * Where each OMC release keeps a project's state, as its real hooks wrote it (the keyword detector's
 * ralph-state.json; test/fixtures/omc-4.15.10/boundary.json `roots`, made by running 4.15.10, 5.5.0 and
 * 4.4.4): omc-top looks there when it knows the release, and says so where the user's setting is one
 * their OMC ignores.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GitProbe } from '../../src/io/git.js';
import { resolveRootAndOmc } from '../../src/store/omc-root.js';

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-rootv-')));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
const home = path.join(base, 'home');
const repo = path.join(base, 'repo');
const superRepo = path.join(base, 'super');
const mod = path.join(superRepo, 'mod');
const central = path.join(base, 'central');
const noGitBin = path.join(base, 'nogit-bin');
for (const d of [home, path.join(repo, '.git'), path.join(superRepo, '.git'), mod, central, noGitBin])
  fs.mkdirSync(d, { recursive: true });
fs.writeFileSync(path.join(mod, '.git'), 'gitdir: ../.git/modules/mod\n');

/** git as it answers here (a submodule's top level is the submodule; its superproject the outer repo). */
const git = (available: boolean): GitProbe => ({
  topLevel: (d) =>
    !available
      ? null
      : d.startsWith(mod)
        ? mod
        : d.startsWith(superRepo)
          ? superRepo
          : d.startsWith(repo)
            ? repo
            : null,
  superproject: (d) => (available && d.startsWith(mod) ? superRepo : null),
  remoteOrigin: () => null,
  commonDir: () => null,
});

const resolve = (cwd: string, version: string | undefined, env: Record<string, string> = {}, gitOk = true) =>
  resolveRootAndOmc({
    cwd,
    override: version,
    env: {
      HOME: home,
      PATH: gitOk ? (process.env.PATH ?? '') : noGitBin,
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      ...env,
    },
    home,
    git: git(gitOk),
  }).res;

describe('the .omc root by OMC release', () => {
  it('4.4.4 ignores OMC_STATE_DIR and writes <repo>/.omc: shown there, with a notice', () => {
    const r = resolve(repo, '4.4.4', { OMC_STATE_DIR: central });
    expect(r.root).toBe(path.join(repo, '.omc'));
    expect(r.notices.join('\n')).toMatch(/OMC_STATE_DIR is set, but OMC 4\.4\.4 .*ignores it/);
    // 5.5.0 uses it.
    expect(resolve(repo, '5.5.0', { OMC_STATE_DIR: central }).root.startsWith(central)).toBe(true);
  });

  it("4.4.4 in a submodule keeps state in the submodule's .omc (4.15 and 5.5 climb to the superproject)", () => {
    const r = resolve(mod, '4.4.4');
    expect(r.root).toBe(path.join(mod, '.omc'));
    expect(r.notices.join('\n')).toContain('submodule');
    expect(resolve(mod, '5.5.0').root).toBe(path.join(superRepo, '.omc'));
  });

  it('git missing from PATH: 5.5.0 writes ~/.omc, 4.15.10 and 4.4.4 <repo>/.omc, 5.6 (or unknown) <repo>/.omc', () => {
    const r55 = resolve(repo, '5.5.0', {}, false);
    expect(r55.root).toBe(path.join(home, '.omc'));
    expect(r55.notices.join('\n')).toContain('git is not on PATH');
    expect(resolve(repo, '4.15.10', {}, false).root).toBe(path.join(repo, '.omc'));
    expect(resolve(repo, '4.4.4', {}, false).root).toBe(path.join(repo, '.omc'));
    expect(resolve(repo, '5.6.0', {}, false).root).toBe(path.join(repo, '.omc'));
    const unknown = resolve(repo, undefined, {}, false);
    expect(unknown.root).toBe(path.join(repo, '.omc'));
    expect(unknown.notices.join('\n')).toContain(path.join(home, '.omc'));
  });
});
