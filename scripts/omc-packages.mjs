// Installs the real OMC releases the tests run against (test/omc-packages/)
// from that folder's own lockfile, unless what is there already matches it.
// `npm test` runs this first (`pretest`), so one command still runs every test.
//
// Why a folder of their own: OMC depends on better-sqlite3, whose install
// script downloads a prebuilt binary from GitHub or else compiles SQLite with
// headers from nodejs.org. No test uses it, so these packages are installed
// with --ignore-scripts; the root project no longer needs `ignore-scripts=true`,
// and a plain `npm install` / `npm pack` in a clone runs omc-top's `prepare`.
//
//   node scripts/omc-packages.mjs          install if missing or out of date
//   node scripts/omc-packages.mjs --check  exit 1 (saying why) instead of installing
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OMC_PACKAGES_DIR = path.join(root, 'test', 'omc-packages');

const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

/** The first locked package that is absent or at another version, or null when the install matches the lockfile. */
export function firstMismatch(dir = OMC_PACKAGES_DIR) {
  const lock = readJson(path.join(dir, 'package-lock.json'));
  if (!lock?.packages) return `${path.join(dir, 'package-lock.json')} cannot be read`;
  for (const [key, entry] of Object.entries(lock.packages)) {
    // Optional entries are other platforms' native builds: absent here by design.
    if (key === '' || entry.optional || entry.link) continue;
    const installed = readJson(path.join(dir, key, 'package.json'));
    if (installed?.version !== entry.version)
      return `${key} ${installed ? `is ${installed.version}, locked ${entry.version}` : `is missing (locked ${entry.version})`}`;
  }
  return null;
}

function install(dir) {
  // Run by npm (`pretest`): use the same npm; run by hand: the one on the PATH.
  const npmCli = process.env.npm_execpath;
  const [cmd, pre] = npmCli && /\.c?js$/.test(npmCli) ? [process.execPath, [npmCli]] : ['npm', []];
  // --no-save: exactly the locked tree, the lockfile untouched (`npm ci` refuses it on
  // registries without every platform build of @ast-grep/napi, an optional dependency).
  const r = spawnSync(cmd, [...pre, 'install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`npm install in ${dir} failed (${r.error?.message ?? `exit ${r.status}`})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const why = firstMismatch();
  if (why === null) process.exit(0);
  if (process.argv.includes('--check')) {
    process.stderr.write(`test/omc-packages is not installed as locked: ${why}\n`);
    process.exit(1);
  }
  process.stderr.write(`installing OMC's packages for the tests into test/omc-packages (${why})\n`);
  install(OMC_PACKAGES_DIR);
  const still = firstMismatch();
  if (still !== null) {
    process.stderr.write(`test/omc-packages still differs from its lockfile after npm install: ${still}\n`);
    process.exit(1);
  }
}
