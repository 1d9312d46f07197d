/**
 * store/hook-root.ts says which `.omc` the hooks of a Claude process read from the directory it runs in. The referee
 * is OMC 5.5.0's own root resolution, called as its hooks call it (the raw cwd passed in), in a process with the
 * hooks' environment: the project's top level, a git subdirectory (its own `.omc`), a submodule's subdirectory (the
 * superproject's), another project, and a directory outside git ($HOME/.omc).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { hookRootOf, hooksReadRoot } from '../../src/store/hook-root.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { describe, expect, it } from '../helpers/it.js';

const git = (cwd: string, ...args: string[]) =>
  spawnSync('git', ['-c', 'protocol.file.allow=always', ...args], { cwd, stdio: 'ignore' });

/** OMC 5.5.0's getOmcRoot(dir) for each dir, in one process whose environment is the hooks'. */
function omcRoots(dirs: string[], home: string): string[] {
  const script = `const w = await import(${JSON.stringify(path.join(OMC55, 'dist', 'lib', 'worktree-paths.js'))});
for (const d of JSON.parse(process.argv[1])) console.log(w.getOmcRoot(d));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(dirs)], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    encoding: 'utf8',
  });
  return out.trim().split('\n');
}

describe('the .omc a Claude process’s hooks read', () => {
  it('agrees with OMC 5.5.0 for the top level, a subdirectory, a submodule, another project and no git', ({
    emptyProject: p,
    newProject,
    tempDir,
  }) => {
    const other = newProject().dir;
    const sub = path.join(p.dir, 'src', 'deep');
    fs.mkdirSync(sub, { recursive: true });
    // A submodule of the project, with a subdirectory Claude could run in.
    const lib = newProject().dir;
    fs.writeFileSync(path.join(lib, 'README'), 'x');
    git(lib, 'add', 'README');
    git(lib, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x');
    git(p.dir, 'submodule', 'add', '-q', lib, 'vendor/lib');
    const inSubmodule = path.join(p.dir, 'vendor', 'lib', 'docs');
    fs.mkdirSync(inSubmodule, { recursive: true });
    const home = tempDir('home-');
    const plain = tempDir('plain-');
    const dirs = [p.dir, sub, inSubmodule, other, plain];
    const ctx = { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home }, home, flavor: '5.5' as const };
    const ours = dirs.map((d) => hookRootOf(d, ctx));
    expect(ours).toEqual(omcRoots(dirs, home));
    expect(ours).toEqual([p.root, path.join(sub, '.omc'), p.root, path.join(other, '.omc'), path.join(home, '.omc')]);

    // As the join asks it for this project's root: only the top level and the submodule's directory read it.
    const here = hooksReadRoot({ root: p.root, projectDir: p.dir, rule: 'git', ...ctx });
    expect(dirs.map(here)).toEqual([true, false, true, false, false]);
  });
});
