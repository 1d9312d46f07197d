// Installs omc-top the way a user would and runs what got installed.
//
// `npm pack` in this checkout → a tarball with exactly the bundle, README,
// LICENSE and package.json → `npm install -g` of it into a scratch prefix, with
// an empty npm cache, --offline, and (where the kernel lets us) in a network
// namespace with no network at all and the source checkout hidden under an
// empty tmpfs: the installed bin works with nothing but the tarball.
// `npx --package <tgz>` the same way. (A global install from git: readme-install.test.ts.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TREE, REPO, SESSION } from '../helpers/fixtures.js';

const PKG = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const BIG = 300_000;

/** `unshare` flags we may use here: a user namespace with no network (-n) and our own mounts (-m). */
function isolationSupport(): { ok: boolean; why: string } {
  const r = spawnSync('unshare', ['-U', '-r', '-n', '-m', 'sh', '-c', `mount -t tmpfs none ${REPO}`], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (r.error) return { ok: false, why: r.error.message };
  return r.status === 0 ? { ok: true, why: '' } : { ok: false, why: (r.stderr || `status ${r.status}`).trim() };
}
const isolation = isolationSupport();

let scratch: string;
let tarball: string;
let packed: { files: Array<{ path: string; mode: number }> };
let env: NodeJS.ProcessEnv;
let project: string;
let claudeDir: string;

/**
 * Runs a command with no network and the checkout hidden (when supported),
 * from inside the scratch directory, with the scratch npm configuration.
 */
function isolated(cmd: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  const [file, argv] = isolation.ok
    ? ['unshare', ['-U', '-r', '-n', '-m', 'sh', '-c', `mount -t tmpfs none "$0" && exec "$@"`, REPO, cmd, ...args]]
    : [cmd, args];
  return spawnSync(file, argv, {
    cwd: scratch,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

function ok(r: SpawnSyncReturns<string>): string {
  if (r.status !== 0)
    throw new Error(
      `exit ${r.status} ${r.error?.message ?? ''}\n${String(r.stdout).slice(-2000)}\n${String(r.stderr).slice(-2000)}`,
    );
  return r.stdout;
}

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-install-'));
  fs.writeFileSync(path.join(scratch, 'user.npmrc'), '');
  fs.writeFileSync(path.join(scratch, 'global.npmrc'), '');
  env = {
    PATH: process.env.PATH,
    HOME: path.join(scratch, 'home'),
    // Nothing from this machine's npm set-up: an empty cache and no config files.
    npm_config_cache: path.join(scratch, 'empty-cache'),
    npm_config_userconfig: path.join(scratch, 'user.npmrc'),
    npm_config_globalconfig: path.join(scratch, 'global.npmrc'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
  fs.mkdirSync(env.HOME as string);
  // The checkout's .npmrc turns scripts off (dependency install scripts never run
  // here); --ignore-scripts=false lets npm run this package's own `prepare` (the build).
  const out = ok(
    spawnSync('npm', ['pack', '--ignore-scripts=false', '--json', '--pack-destination', scratch], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    }),
  );
  packed = (JSON.parse(out) as Array<typeof packed & { filename: string }>)[0] as typeof packed & { filename: string };
  tarball = path.join(scratch, (packed as unknown as { filename: string }).filename);
  // Input data only: a project with OMC's own fixture tree, and a Claude config dir.
  project = path.join(scratch, 'project');
  fs.cpSync(FIXTURE_TREE, path.join(project, '.omc'), { recursive: true });
  claudeDir = path.join(scratch, 'claude');
  fs.mkdirSync(path.join(claudeDir, 'sessions'), { recursive: true });
}, BIG);

afterAll(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('holds exactly the bundle (executable, with its shebang), README, LICENSE and package.json', () => {
    expect(packed.files.map((f) => f.path).sort()).toEqual([
      'LICENSE',
      'README.md',
      'dist/omc-top.mjs',
      'package.json',
    ]);
    const bin = packed.files.find((f) => f.path === 'dist/omc-top.mjs');
    expect((bin?.mode ?? 0) & 0o111).toBe(0o111);
    const listing = ok(spawnSync('tar', ['tvzf', tarball], { encoding: 'utf8' }));
    expect(listing).toMatch(/^-rwxr-xr-x .* package\/dist\/omc-top\.mjs$/m);
    const head = ok(
      spawnSync('tar', ['xzOf', tarball, 'package/dist/omc-top.mjs'], { encoding: 'utf8', maxBuffer: 64 << 20 }),
    );
    expect(head.split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('declares no runtime dependencies, and its LICENSE is the licence package.json names', () => {
    const inner = JSON.parse(ok(spawnSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })));
    for (const k of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies'])
      expect(inner[k]).toBeUndefined();
    expect(inner.bin).toEqual({ 'omc-top': 'dist/omc-top.mjs' });
    expect(inner.license).toBe('MIT');
    const license = ok(spawnSync('tar', ['xzOf', tarball, 'package/LICENSE'], { encoding: 'utf8' }));
    expect(license.split('\n')[0]).toBe('MIT License');
  });
});

describe('installed from the tarball', () => {
  const prefix = () => path.join(scratch, 'prefix');
  const bin = () => path.join(prefix(), 'bin', 'omc-top');

  beforeAll(() => {
    const out = ok(isolated('npm', ['install', '-g', '--offline', '--prefix', prefix(), tarball]));
    expect(out).toMatch(/added 1 package/);
  }, BIG);

  it('installs one package and nothing else', () => {
    expect(fs.readdirSync(path.join(prefix(), 'lib', 'node_modules'))).toEqual(['omc-top']);
    const dir = path.join(prefix(), 'lib', 'node_modules', 'omc-top');
    expect(fs.readdirSync(dir).sort()).toEqual(['LICENSE', 'README.md', 'dist', 'package.json']);
    expect(fs.readlinkSync(bin())).toBe('../lib/node_modules/omc-top/dist/omc-top.mjs');
  });

  it(`--version, --help, --json on the fixture tree and doctor --json work${isolation.ok ? ' with no network and no checkout' : ` (not isolated: ${isolation.why})`}`, () => {
    expect(ok(isolated(bin(), ['--version']))).toBe(`omc-top ${PKG.version}\n`);
    const help = ok(isolated(bin(), ['--help']));
    expect(help).toMatch(/^Usage:$/m);
    expect(help).toMatch(/omc-top doctor/);

    const doc = JSON.parse(ok(isolated(bin(), ['--json', '--root', path.join(project, '.omc')])));
    expect(doc.root).toBe(path.join(project, '.omc'));
    const ids = (doc.sessions as Array<{ id: string }>).map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining([SESSION.ralph, SESSION.autopilot, SESSION.team]));

    const r = isolated(bin(), ['doctor', '--json', '--root', path.join(project, '.omc')], {
      CLAUDE_CONFIG_DIR: claudeDir,
    });
    const report = JSON.parse(r.stdout);
    expect(report.omcTop).toBe(PKG.version);
    expect(report.checks.find((c: { id: string }) => c.id === 'root').status).toBe('ok');
    expect(report.ok).toBe(true);
    expect(r.status).toBe(0);
  });
});

describe('npx --package <tarball>', () => {
  it('runs omc-top from an empty cache, offline', () => {
    const r = isolated('npx', ['--offline', '--yes', '--package', tarball, 'omc-top', '--version'], {
      npm_config_cache: path.join(scratch, 'npx-cache'),
    });
    expect(ok(r)).toBe(`omc-top ${PKG.version}\n`);
  });
});
