/**
 * npm's global prefix as npm finds it, with npm itself as the referee (`npm prefix -g`, `npm ls -g`, run offline
 * with a scratch HOME), and the global OMC under a prefix set in `~/.npmrc` (`npm config set prefix ~/.npm-global`,
 * npm's own no-sudo advice) found and judged by its own book, `doctor` naming where the prefix came from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { npmGlobalPrefix } from '../../src/store/npm-prefix.js';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import { REPO } from '../helpers/fixtures.js';
import { OMC444 } from '../helpers/omc-packages.mjs';

/** Only what npm needs: npm's own `npm_config_*` of a `npm test` run must not leak into the case. */
const npmEnv = (home: string, more: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  HOME: home,
  PATH: process.env.PATH ?? '',
  npm_config_update_notifier: 'false',
  npm_config_offline: 'true',
  ...more,
});

/** What npm says the global prefix is with this environment. */
function npmSays(env: NodeJS.ProcessEnv, cwd: string): string {
  const r = spawnSync('npm', ['prefix', '-g'], { env, cwd, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
}

const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};

describe('npm global prefix, as npm finds it', () => {
  it.for([
    { name: '~/ in ~/.npmrc (npm config set prefix ~/.npm-global)', rc: 'prefix=~/.npm-global\n' },
    { name: 'a ${VAR} and an inline comment', rc: 'prefix = ${NPMG}/x ; set by hand\n', env: { NPMG: '/opt/g' } },
    { name: '${VAR?} unset inside single quotes', rc: "prefix='${NOT_SET_HERE?}/q'\n" },
    { name: 'double quotes, # comment line', rc: '# mine\nprefix="/opt/quoted # not a comment"\n' },
    { name: 'the last line of a key wins', rc: 'prefix=/opt/first\nprefix=/opt/second\n' },
    { name: 'a prefix inside a [section] does not count', rc: 'x=1\n[work]\nprefix=/opt/nope\n' },
    {
      name: 'npm_config_prefix (with ~/) wins over ~/.npmrc',
      rc: 'prefix=/opt/rc\n',
      env: { npm_config_prefix: '~/e' },
    },
    { name: 'NPM_CONFIG_PREFIX empty does not count', rc: 'prefix=/opt/rc\n', env: { NPM_CONFIG_PREFIX: '' } },
    {
      name: 'NPM_CONFIG_USERCONFIG names the user config',
      rc: 'prefix=/opt/home-rc\n',
      files: { 'elsewhere/rc': 'prefix=/opt/other-rc\n' },
      env: { NPM_CONFIG_USERCONFIG: '<tmp>/elsewhere/rc' },
    },
    {
      name: 'the global npmrc under $PREFIX',
      files: { 'pp/etc/npmrc': 'prefix=/opt/from-global\n' },
      env: { PREFIX: '<tmp>/pp' },
    },
    {
      name: 'globalconfig named in ~/.npmrc',
      rc: 'globalconfig=~/g/npmrc\n',
      files: { 'home/g/npmrc': 'prefix=/opt/g2\n' },
    },
    { name: 'nothing set: next to node', rc: '' },
  ] as Array<{ name: string; rc?: string; env?: Record<string, string>; files?: Record<string, string> }>)(
    '$name',
    (c, { tempDir }) => {
      const tmp = tempDir('omc-top-npmrc-');
      const home = path.join(tmp, 'home');
      fs.mkdirSync(home);
      if (c.rc !== undefined) write(path.join(home, '.npmrc'), c.rc);
      for (const [rel, text] of Object.entries(c.files ?? {})) write(path.join(tmp, rel), text);
      const more = Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, v.replace('<tmp>', tmp)]));
      const env = npmEnv(home, more);
      // npm's node is the one on PATH; ours must be the same for "next to node" to mean one place.
      const node = spawnSync('node', ['-p', 'process.execPath'], { env, encoding: 'utf8' }).stdout.trim();
      expect(npmGlobalPrefix(env, node).dir).toBe(npmSays(env, tmp));
    },
  );
});

describe('a global OMC under the prefix set in ~/.npmrc', () => {
  it('is found and judged by its own book; doctor says where the prefix came from', ({ tempDir }) => {
    const tmp = tempDir('omc-top-npmg-');
    const home = path.join(tmp, 'home');
    const config = path.join(home, '.claude');
    fs.mkdirSync(config, { recursive: true });
    const lib = path.join(home, '.npm-global', 'lib', 'node_modules');
    fs.mkdirSync(lib, { recursive: true });
    fs.symlinkSync(OMC444, path.join(lib, 'oh-my-claude-sisyphus'));
    fs.writeFileSync(path.join(home, '.npmrc'), 'prefix=~/.npm-global\n');
    const env = npmEnv(home, { CLAUDE_CONFIG_DIR: config });
    const project = path.join(tmp, 'proj');
    fs.mkdirSync(project);

    // npm itself sees OMC 4.4.4 installed globally there.
    const ls = spawnSync('npm', ['ls', '-g', '--depth', '0', '--json'], { env, cwd: tmp, encoding: 'utf8' });
    expect(JSON.parse(ls.stdout).dependencies['oh-my-claude-sisyphus'].version).toBe('4.4.4');

    expect(detectOmcInstall({ env, projectDir: project, processes: false })).toMatchObject({
      version: '4.4.4',
      rules: '4.4.4',
      assumed: false,
      source: 'global npm install (prefix from ~/.npmrc)',
    });

    const doctor = spawnSync(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), 'doctor', '--cwd', project], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(doctor.stdout).toMatch(
      /OMC install +oh-my-claudecode 4\.4\.4 \(global npm install \(prefix from ~\/\.npmrc\)\)/,
    );
    expect(doctor.stdout).toContain(`npm global prefix: ${path.join(home, '.npm-global')} (from ~/.npmrc)`);
  });
});
