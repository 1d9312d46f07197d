// The real OMC packages the tests run against: installed in test/omc-packages as
// its lockfile says, found only through test/helpers/omc-packages.mjs, and
// never again a root dependency (their install script would run on `npm install`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { firstMismatch, OMC_PACKAGES_DIR } from '../../scripts/omc-packages.mjs';
import { REPO } from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const version = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;

/** A folder with a lockfile of `locked` and, installed, `installed` (name → version). */
function folder(locked: Record<string, { version: string; optional?: boolean }>, installed: Record<string, string>) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-omcpkgs-'));
  dirs.push(d);
  const packages = Object.fromEntries(Object.entries(locked).map(([n, e]) => [`node_modules/${n}`, e]));
  fs.writeFileSync(
    path.join(d, 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { '': {}, ...packages } }),
  );
  for (const [n, v] of Object.entries(installed)) {
    fs.mkdirSync(path.join(d, 'node_modules', n), { recursive: true });
    fs.writeFileSync(path.join(d, 'node_modules', n, 'package.json'), JSON.stringify({ name: n, version: v }));
  }
  return d;
}

describe('test/omc-packages', () => {
  it('is installed exactly as its lockfile says, and the helper points at 5.5.0 and 4.4.4', () => {
    expect(OMC_PACKAGES_DIR).toBe(path.join(REPO, 'test', 'omc-packages'));
    expect(firstMismatch()).toBeNull();
    expect(version(OMC55)).toBe('5.5.0');
    expect(version(OMC444)).toBe('4.4.4');
  });

  it('firstMismatch names a missing package and one at another version, and skips other platforms builds', () => {
    expect(firstMismatch(folder({ a: { version: '1.0.0' } }, {}))).toBe('node_modules/a is missing (locked 1.0.0)');
    expect(firstMismatch(folder({ a: { version: '1.0.0' } }, { a: '0.9.0' }))).toBe(
      'node_modules/a is 0.9.0, locked 1.0.0',
    );
    expect(
      firstMismatch(folder({ a: { version: '1.0.0' }, b: { version: '2.0.0', optional: true } }, { a: '1.0.0' })),
    ).toBeNull();
  });

  it('the root declares neither OMC package, and nothing finds them by a node_modules path', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).not.toContain('oh-my-claude-sisyphus');
    expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).not.toContain('omc-444');
    // A path into the root node_modules would find nothing after a fresh install (or a stale copy).
    const r = spawnSync(
      'git',
      [
        'grep',
        '-n',
        '-E',
        `node_modules['"/, ]+(oh-my-claude-sisyphus|omc-444)`,
        '--',
        'src',
        'test',
        'bench',
        'scripts',
        'demo',
      ],
      { cwd: REPO, encoding: 'utf8' },
    );
    const hits = r.stdout
      .split('\n')
      // Not: captured fixtures, the folder itself, the install tests (which check the root has none), and the
      // OMC-install detector's test, which builds a fake global prefix of its own.
      .filter(
        (l) => l !== '' && !/^test\/(fixtures|omc-packages|install)\//.test(l) && !l.includes('NPM_CONFIG_PREFIX'),
      );
    expect(hits).toEqual([]);
  });
});
