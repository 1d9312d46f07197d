// Installs omc-top the way a user would and runs what got installed.
//
// A `git clone` of this checkout's HEAD (so only what is committed) → plain
// `npm install` (builds the bundle in `prepare`, runs no native build) → plain
// `npm pack` → a tarball with exactly the bundles, the user docs, README,
// LICENSE and package.json. From that one clone and tarball, every route a user types:
// `npm install -g <tgz>` into a scratch prefix (with an empty npm cache,
// --offline and, where the kernel lets us, in a network namespace with no
// network at all and the source checkout hidden under an empty tmpfs),
// `npx --package <tgz>`, `npm install -g <clone dir>` and
// `npm install -g git+file://<clone>` (npm clones it and runs `prepare`).
// The clone's installs run with this machine's npm configuration and cache
// (and may reach the registry); the tarball's install and npx run offline with
// none of it. (The README's commands as written: readme-install.test.ts.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TREE, REPO, SESSION } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const PKG = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const BIG = scaled(600_000);

/** `unshare` flags we may use here: a user namespace with no network (-n) and our own mounts (-m). */
function isolationSupport(): { ok: boolean; why: string } {
  const r = spawnSync('unshare', ['-U', '-r', '-n', '-m', 'sh', '-c', `mount -t tmpfs none ${REPO}`], {
    encoding: 'utf8',
    timeout: scaled(10_000),
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
    timeout: scaled(120_000),
  });
}

function ok(r: SpawnSyncReturns<string>): string {
  if (r.status !== 0)
    throw new Error(
      `exit ${r.status} ${r.error?.message ?? ''}\n${String(r.stdout).slice(-2000)}\n${String(r.stderr).slice(-2000)}`,
    );
  return r.stdout;
}

/** What npm writes to the terminal during a step, for a failure message. */
const tail = (r: SpawnSyncReturns<string>) => `${String(r.stdout).slice(-1500)}\n${String(r.stderr).slice(-1500)}`;

let clone: string;
let cloneInstall: SpawnSyncReturns<string>;
/** npm as a user runs it in their clone: their npm configuration, cache and registry. */
let userEnv: NodeJS.ProcessEnv;

/** The user docs the package ships (package.json `files`): the pages doctor, --help and the README send a user to. */
const USER_DOCS = [
  'docs/answering.md',
  'docs/attention.md',
  'docs/cancel-and-compatibility.md',
  'docs/cost.md',
  'docs/fleet.md',
  'docs/install.md',
  'docs/json-fields.md',
  'docs/keys.md',
  'docs/notifications.md',
  'docs/panes.md',
  'docs/reach.md',
  'docs/robustness.md',
  'docs/scripting.md',
  'docs/writing-files.md',
];

/** Runs npm in the clone (or with `cwd`) as the user would. */
function npmAsUser(args: string[], cwd = clone): SpawnSyncReturns<string> {
  return spawnSync('npm', args, { cwd, env: userEnv, encoding: 'utf8', timeout: scaled(300_000) });
}

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-install-'));
  fs.writeFileSync(path.join(scratch, 'user.npmrc'), '');
  fs.writeFileSync(path.join(scratch, 'global.npmrc'), '');
  const quiet = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
  env = {
    PATH: process.env.PATH,
    HOME: path.join(scratch, 'home'),
    // Nothing from this machine's npm set-up: an empty cache and no config files.
    npm_config_cache: path.join(scratch, 'empty-cache'),
    npm_config_userconfig: path.join(scratch, 'user.npmrc'),
    npm_config_globalconfig: path.join(scratch, 'global.npmrc'),
    ...quiet,
  };
  // This machine's own npm set-up (its CA, proxy, cache), as the user's npm would have it;
  // none of the npm_* variables an outer `npm test` passes down to its scripts.
  userEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  Object.assign(userEnv, quiet, { npm_config_prefer_offline: 'true' });
  fs.mkdirSync(env.HOME as string);

  clone = path.join(scratch, 'omc-top');
  ok(spawnSync('git', ['clone', '-q', REPO, clone], { encoding: 'utf8', timeout: scaled(120_000) }));
  cloneInstall = npmAsUser(['install']);
  ok(cloneInstall);
  // Plain `npm pack`, as typed: it prints the tarball's name last.
  const name = ok(npmAsUser(['pack']))
    .trim()
    .split('\n')
    .at(-1) as string;
  tarball = path.join(clone, name);
  const dry = ok(npmAsUser(['pack', '--dry-run', '--json']));
  packed = (JSON.parse(dry) as Array<typeof packed>)[0] as typeof packed;
  // Input data only: a project with OMC's own fixture tree, and a Claude config dir.
  project = path.join(scratch, 'project');
  fs.cpSync(FIXTURE_TREE, path.join(project, '.omc'), { recursive: true });
  claudeDir = path.join(scratch, 'claude');
  fs.mkdirSync(path.join(claudeDir, 'sessions'), { recursive: true });
}, BIG);

afterAll(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('a clean clone', () => {
  it('`npm install` builds the bundle and runs no native build (OMC packages are not root dependencies)', () => {
    expect(fs.statSync(path.join(clone, 'dist', 'omc-top.mjs')).mode & 0o111).toBe(0o111);
    expect(`${cloneInstall.stdout}${cloneInstall.stderr}`).toMatch(/> node scripts\/prepare\.mjs/);
    expect(`${cloneInstall.stdout}${cloneInstall.stderr}`, tail(cloneInstall)).not.toMatch(/node-gyp|prebuild-install/);
    expect(fs.existsSync(path.join(clone, 'node_modules', 'better-sqlite3'))).toBe(false);
    expect(fs.existsSync(path.join(clone, 'node_modules', 'oh-my-claude-sisyphus'))).toBe(false);
  });
});

describe('npm pack', () => {
  it('`npm pack --dry-run` lists exactly the bin, the bundles it loads, the user docs, README, LICENSE and package.json', () => {
    expect(packed.files.map((f) => f.path).sort()).toEqual([
      'LICENSE',
      'README.md',
      'dist/omc-top-app.mjs',
      'dist/omc-top-hook.mjs',
      'dist/omc-top-status.mjs',
      'dist/omc-top.mjs',
      ...USER_DOCS,
      'package.json',
    ]);
    expect((packed.files.find((f) => f.path === 'dist/omc-top.mjs')?.mode ?? 0) & 0o111).toBe(0o111);
  });

  it('the tarball holds exactly those: the bin executable, with its shebang', () => {
    const listing = ok(spawnSync('tar', ['tvzf', tarball], { encoding: 'utf8' }));
    const files = listing
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/).at(-1));
    expect(files.sort()).toEqual([
      'package/LICENSE',
      'package/README.md',
      'package/dist/omc-top-app.mjs',
      'package/dist/omc-top-hook.mjs',
      'package/dist/omc-top-status.mjs',
      'package/dist/omc-top.mjs',
      ...USER_DOCS.map((d) => `package/${d}`),
      'package/package.json',
    ]);
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
    expect(fs.readdirSync(dir).sort()).toEqual(['LICENSE', 'README.md', 'dist', 'docs', 'package.json']);
    // The pages doctor and --help name are there to read.
    expect(fs.readdirSync(path.join(dir, 'docs')).sort()).toEqual(USER_DOCS.map((d) => path.basename(d)).sort());
    expect(fs.readlinkSync(bin())).toBe('../lib/node_modules/omc-top/dist/omc-top.mjs');
  });

  it(
    `--version, --help, --json on the fixture tree and doctor --json work${isolation.ok ? ' with no network and no checkout' : ` (not isolated: ${isolation.why})`}`,
    { timeout: BIG },
    () => {
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
    },
  );

  it('the docs --help and doctor name are files of the installed package, by their full path', { timeout: BIG }, () => {
    const installed = path.join(prefix(), 'lib', 'node_modules', 'omc-top');
    // A project whose Claude settings have no omc-top hook: doctor's hook line names answering.md.
    const said = [
      ok(isolated(bin(), ['hooks', '--help'])),
      ok(isolated(bin(), ['serve', '--help'])),
      isolated(bin(), ['doctor', '--cwd', project], { CLAUDE_CONFIG_DIR: claudeDir, NO_COLOR: '1' }).stdout,
    ].join('\n');
    const docs = [...said.matchAll(/(?:^|[\s(])((?:~|\/)[^\s()]*\/docs\/[a-z-]+\.md)/g)].map((m) => m[1] as string);
    expect(docs).toEqual(
      expect.arrayContaining([path.join(installed, 'docs', 'answering.md'), path.join(installed, 'docs', 'reach.md')]),
    );
    // The prefix is not under the scratch $HOME, so each is written whole; each is there to open.
    for (const d of docs) {
      expect(path.dirname(d), d).toBe(path.join(installed, 'docs'));
      expect(fs.statSync(d).isFile(), d).toBe(true);
    }
    expect(said).not.toMatch(/(^|[\s(])docs\//m);
  });
});

describe('npx --package <tarball>', () => {
  it('runs omc-top from an empty cache, offline', { timeout: BIG }, () => {
    const r = isolated('npx', ['--offline', '--yes', '--package', tarball, 'omc-top', '--version'], {
      npm_config_cache: path.join(scratch, 'npx-cache'),
    });
    expect(ok(r)).toBe(`omc-top ${PKG.version}\n`);
  });
});

/** `omc-top --version`, and `--json` on the fixture tree, from the bin a global install put in `prefix`. */
function expectWorkingBin(prefix: string) {
  const bin = path.join(prefix, 'bin', 'omc-top');
  expect(ok(spawnSync(bin, ['--version'], { cwd: scratch, env, encoding: 'utf8', timeout: scaled(60_000) }))).toBe(
    `omc-top ${PKG.version}\n`,
  );
  const doc = JSON.parse(
    ok(
      spawnSync(bin, ['--json', '--root', path.join(project, '.omc')], {
        cwd: scratch,
        env,
        encoding: 'utf8',
        timeout: scaled(60_000),
      }),
    ),
  );
  expect((doc.sessions as Array<{ id: string }>).map((s) => s.id)).toEqual(expect.arrayContaining([SESSION.ralph]));
}

describe('npm install -g <clone dir>', () => {
  it('links the clone into the prefix: omc-top runs its bundle', { timeout: BIG }, () => {
    const prefix = path.join(scratch, 'prefix-dir');
    ok(npmAsUser(['install', '-g', '--prefix', prefix, clone], scratch));
    expect(fs.realpathSync(path.join(prefix, 'lib', 'node_modules', 'omc-top'))).toBe(fs.realpathSync(clone));
    expectWorkingBin(prefix);
  });
});

describe('npm install -g git+file://<clone>', () => {
  it('npm clones it, `prepare` builds, and the prefix holds a real copy of the package alone', { timeout: BIG }, () => {
    const prefix = path.join(scratch, 'prefix-git');
    ok(npmAsUser(['install', '-g', '--prefix', prefix, `git+file://${clone}`], scratch));
    const dir = path.join(prefix, 'lib', 'node_modules', 'omc-top');
    expect(fs.readdirSync(path.join(prefix, 'lib', 'node_modules'))).toEqual(['omc-top']);
    expect(fs.lstatSync(dir).isSymbolicLink()).toBe(false);
    expect(fs.readdirSync(dir).sort()).toEqual(['LICENSE', 'README.md', 'dist', 'docs', 'package.json']);
    expectWorkingBin(prefix);
  });
});
