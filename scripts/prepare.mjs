// `prepare`: builds dist/omc-top.mjs (and the app bundle beside it) when npm packs this directory (`npm pack`,
// `npm publish`) or installs it from git (`npm install -g git+<url>`).
//
// A global install from git runs this script in npm's temporary clone without
// having installed the devDependencies the build needs (npm/cli#8440: the outer
// `npm install -g` passes `global=true` and its prefix down to the inner
// install through npm_config_* variables, so that install goes elsewhere). When
// esbuild cannot be resolved here we install the locked devDependencies into
// this directory ourselves, without their install scripts (nothing the bundle
// inlines needs one), and then build.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function canResolve(name) {
  try {
    createRequire(path.join(root, 'package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** The npm_config_* settings of the npm that ran us, minus those that would send the install elsewhere. */
function localInstallEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    const k = key.toLowerCase();
    if (!k.startsWith('npm_config_')) continue;
    const name = k.slice('npm_config_'.length).replace(/-/g, '_');
    if (
      ['global', 'prefix', 'location', 'global_style', 'install_strategy', 'omit', 'include', 'production'].includes(
        name,
      )
    )
      delete env[key];
  }
  env.npm_config_ignore_scripts = 'true';
  return env;
}

function installDevDependencies() {
  process.stderr.write('omc-top prepare: installing the devDependencies the build needs (npm/cli#8440)\n');
  const npmCli = process.env.npm_execpath;
  const [cmd, pre] = npmCli && /\.c?js$/.test(npmCli) ? [process.execPath, [npmCli]] : ['npm', []];
  const r = spawnSync(
    cmd,
    [...pre, 'install', '--no-save', '--no-audit', '--no-fund', '--include=dev', '--ignore-scripts', '--global=false'],
    { cwd: root, env: localInstallEnv(), stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (r.status !== 0)
    throw new Error(`omc-top prepare: npm install in ${root} failed (${r.error?.message ?? r.status})`);
}

/**
 * The same npm bug has the inner install (global, in the clone) link the global
 * package directory to the clone itself, which npm deletes when it is done: the
 * install ends with a dangling `omc-top` on the PATH. When we are that inner run
 * and the link points at us, put a real copy of the package in its place; the
 * outer install then unpacks the same files over it.
 */
function replaceGlobalLinkToClone() {
  const prefix = process.env.npm_config_prefix;
  if (process.env.npm_config_global !== 'true' || !process.env._PACOTE_NO_PREPARE_ || !prefix) return;
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const link = path.join(prefix, 'lib', 'node_modules', pkg.name);
  let target;
  try {
    if (!fs.lstatSync(link).isSymbolicLink()) return;
    target = fs.realpathSync(link);
  } catch {
    return;
  }
  if (target !== fs.realpathSync(root)) return;
  const copy = `${link}.omc-top-prepare-${process.pid}`;
  fs.mkdirSync(copy);
  for (const f of ['package.json', 'README.md', 'LICENSE', ...pkg.files]) {
    fs.cpSync(path.join(root, f), path.join(copy, f), { recursive: true });
  }
  fs.unlinkSync(link);
  fs.renameSync(copy, link);
}

if (!canResolve('esbuild')) installDevDependencies();
const { buildAll } = await import('./build.mjs');
await buildAll();
replaceGlobalLinkToClone();
