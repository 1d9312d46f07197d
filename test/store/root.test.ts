/**
 * Root resolution must land where OMC itself puts state. Every case runs the
 * real OMC 5.5.0 getOmcRoot (test/omc-packages) in a child
 * process with the same environment and compares.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noRootMessage, resolveOmcRoot } from '../../src/store/root.js';
import { OMC55 } from '../helpers/omc-packages.mjs';

const OMC_PATHS = path.join(OMC55, 'dist', 'lib', 'worktree-paths.js');
let base: string;
let home: string;

function omcRoot(dir: string, env: Record<string, string>): string {
  const script = `const m = await import(${JSON.stringify(OMC_PATHS)}); process.stdout.write(m.getOmcRoot(process.argv[1]));`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script, dir], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
    encoding: 'utf8',
  });
}

function ours(dir: string, env: Record<string, string>) {
  return resolveOmcRoot({ cwd: dir, env: { HOME: home, ...env }, home, tmpdir: env.TMPDIR ?? os.tmpdir() });
}

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-root-')));
  home = path.join(base, 'home');
  fs.mkdirSync(home);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('resolveOmcRoot agrees with OMC 5.5.0 getOmcRoot', () => {
  it('git top-level and a subdirectory without OMC_STATE_DIR', () => {
    const repo = path.join(base, 'plain');
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    git(base, 'init', '-q', repo);
    expect(ours(repo, {}).root).toBe(omcRoot(repo, {}));
    expect(ours(repo, {}).rule).toBe('git');
    // OMC's MCP tools and HUD anchor a subdirectory at the git top-level, as we do.
    expect(ours(path.join(repo, 'src'), {}).root).toBe(path.join(repo, '.omc'));
  });

  it('OMC_STATE_DIR with a remote, without a remote, and from a subdirectory', () => {
    const central = path.join(base, 'central');
    const withRemote = path.join(base, 'remote-repo');
    git(base, 'init', '-q', withRemote);
    git(withRemote, 'remote', 'add', 'origin', 'https://example.com/acme/widgets.git');
    const local = path.join(base, 'local-repo');
    fs.mkdirSync(path.join(local, 'deep', 'er'), { recursive: true });
    git(base, 'init', '-q', local);
    const env = { OMC_STATE_DIR: central };
    expect(ours(withRemote, env).root).toBe(omcRoot(withRemote, env));
    expect(ours(local, env).root).toBe(omcRoot(local, env));
    // 5.5.0: a subdirectory of a local-only repo shares the top-level's id.
    expect(ours(path.join(local, 'deep', 'er'), env).root).toBe(omcRoot(local, env));
    expect(ours(local, env).rule).toBe('state-dir');
  });

  it('OMC_STATE_DIR with a workspace marker id, and a non-git directory (literal "non-git")', () => {
    const ws = path.join(base, 'ws');
    const member = path.join(ws, 'member');
    fs.mkdirSync(member, { recursive: true });
    git(base, 'init', '-q', member);
    fs.writeFileSync(path.join(ws, '.omc-workspace'), JSON.stringify({ id: 'Team Space ✓' }));
    const env = { OMC_STATE_DIR: path.join(base, 'central2') };
    expect(ours(member, env).root).toBe(omcRoot(member, env));
    const nogit = path.join(base, 'nogit');
    fs.mkdirSync(nogit);
    expect(ours(nogit, env).root).toBe(omcRoot(nogit, env));
    expect(ours(nogit, env).root.endsWith(`${path.sep}non-git`)).toBe(true);
  });

  it('a workspace marker is honoured outside sensitive places and vetoed under the temp dir', () => {
    const ws = path.join(base, 'mono');
    const pkg = path.join(ws, 'packages', 'app');
    fs.mkdirSync(pkg, { recursive: true });
    git(base, 'init', '-q', pkg);
    fs.writeFileSync(path.join(ws, '.omc-workspace'), '');
    // With TMPDIR elsewhere, the marker counts (OMC reads os.tmpdir() from TMPDIR).
    const notTmp = { TMPDIR: path.join(base, 'elsewhere-tmp') };
    expect(ours(pkg, notTmp).root).toBe(omcRoot(pkg, notTmp));
    expect(ours(pkg, notTmp).rule).toBe('marker');
    // Under the real temp dir 5.5.0 ignores it; we say so.
    const vetoed = { TMPDIR: base };
    expect(ours(pkg, vetoed).root).toBe(omcRoot(pkg, vetoed));
    expect(ours(pkg, vetoed).notices.join(' ')).toMatch(/ignored \.omc-workspace/);
  });

  it('with no .omc under a marker whose directory name holds a newline, the message is one line naming it', () => {
    const ws = path.join(base, 'two\nlines');
    const pkg = path.join(ws, 'pkg');
    fs.mkdirSync(pkg, { recursive: true });
    git(base, 'init', '-q', pkg);
    fs.writeFileSync(path.join(ws, '.omc-workspace'), '');
    const res = ours(pkg, { TMPDIR: path.join(base, 'elsewhere-tmp') });
    expect(res.rule).toBe('marker');
    expect(res.exists).toBe(false);
    // The newline as `\n`: the directory by its real name (`two lines` names no directory), on one line.
    expect(noRootMessage(res)).toBe(`no .omc directory found (.omc-workspace at ${ws.replace('\n', '\\n')})`);
    expect(noRootMessage(res)).not.toMatch(/\n/);
  });

  it('a non-git directory maps to $HOME/.omc (5.5.0), and falls back to ./.omc when only the 4.x location exists', () => {
    const dir = path.join(base, 'scratch');
    fs.mkdirSync(dir);
    expect(ours(dir, {}).root).toBe(omcRoot(dir, {}));
    expect(ours(dir, {}).exists).toBe(false);
    fs.mkdirSync(path.join(dir, '.omc', 'state'), { recursive: true });
    const r = ours(dir, {});
    expect(r.root).toBe(path.join(dir, '.omc'));
    expect(r.rule).toBe('cwd-4x');
    expect(r.notices.join(' ')).toMatch(/OMC 4\.x/);
  });

  it('--root bypasses resolution and reports where it looked when missing', () => {
    const r = resolveOmcRoot({ cwd: base, rootOverride: 'nope/.omc' });
    expect(r).toMatchObject({ rule: 'override', exists: false, root: path.join(base, 'nope', '.omc') });
    expect(r.looked).toEqual([path.join(base, 'nope', '.omc')]);
    // Every command's one line names the path typed, though "does not exist" is the commonest fault.
    expect(noRootMessage(r)).toBe(
      `no .omc directory found (--root): ${path.join(base, 'nope', '.omc')} does not exist`,
    );
  });

  it('--root D where D/.omc is a file: the root is D/.omc, and the line says it is a file (not "no loops" in D)', () => {
    const d = fs.mkdtempSync(path.join(base, 'omcfile-'));
    fs.writeFileSync(path.join(d, '.omc'), '');
    const r = resolveOmcRoot({ cwd: base, rootOverride: d });
    expect(r).toMatchObject({ rule: 'override', exists: false, root: path.join(d, '.omc') });
    expect(noRootMessage(r)).toBe(
      `no .omc directory found (--root): ${path.join(d, '.omc')} is a file, not a directory`,
    );
  });
});
