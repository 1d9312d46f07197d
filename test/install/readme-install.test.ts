// The README's Install commands, run as written, one by one, from a directory
// inside a project (not the clone), in a scratch $HOME with the clone the README
// assumes at ~/src/omc-top and a scratch global prefix. npm is told to stay
// offline (npm_config_offline: the build's devDependencies come from this
// machine's npm cache), so no command reaches the network.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TREE, REPO } from '../helpers/fixtures.js';
import { scaled } from '../helpers/time-scale.js';

const PKG = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const BIG = scaled(600_000);

/** The commands of the first ```bash block under "## Install" of docs/install.md (the README links there). */
function installCommands(): string[] {
  const readme = fs.readFileSync(path.join(REPO, 'docs', 'install.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Install\n'));
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
}

let scratch: string;
let home: string;
let inProject: string;
let env: NodeJS.ProcessEnv;

const run = (cmd: string) =>
  spawnSync('bash', ['-c', cmd], { cwd: inProject, env, encoding: 'utf8', timeout: scaled(300_000), stdio: 'pipe' });

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-readme-'));
  home = path.join(scratch, 'home');
  const app = path.join(home, 'code', 'app');
  inProject = path.join(app, 'src');
  fs.mkdirSync(inProject, { recursive: true });
  spawnSync('git', ['init', '-q', app]);
  fs.cpSync(FIXTURE_TREE, path.join(app, '.omc'), { recursive: true });
  spawnSync('git', ['clone', '-q', REPO, path.join(home, 'src', 'omc-top')]);
  env = {
    PATH: `${path.join(home, 'global', 'bin')}${path.delimiter}${process.env.PATH}`,
    HOME: home,
    npm_config_prefix: path.join(home, 'global'),
    npm_config_cache: path.join(os.homedir(), '.npm'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}, BIG);

afterAll(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('README Install section', () => {
  it('has the six ways and a build step, each as a user types it', () => {
    const cmds = installCommands();
    expect(cmds).toContain('(cd ~/src/omc-top && npm install && npm pack)');
    expect(cmds.some((c) => c.startsWith('npm install -g ~/src/omc-top') && !c.includes('.tgz'))).toBe(true);
    expect(cmds.join('\n')).not.toMatch(/ignore-scripts|--no-save/);
    expect(cmds.some((c) => /^npm install -g .*\.tgz/.test(c))).toBe(true);
    expect(cmds.some((c) => c.startsWith('npx --package'))).toBe(true);
    expect(cmds.some((c) => c.startsWith('npm install -g git+'))).toBe(true);
    expect(cmds.some((c) => c.startsWith('node ~/src/omc-top/dist/omc-top.mjs'))).toBe(true);
    expect(cmds.some((c) => c.includes('npm link'))).toBe(true);
  });

  it(
    'every command works as written from inside a project',
    () => {
      for (const cmd of installCommands()) {
        const r = run(cmd);
        const what = `${cmd}\nexit ${r.status}\n${r.stdout.slice(-1500)}\n${r.stderr.slice(-1500)}`;
        if (r.status === 2 && /needs a terminal/.test(r.stderr)) {
          // It started the monitor (no terminal here): the same command as --json shows which root it found.
          const json = run(`${cmd} --json`);
          expect(json.status, what).toBe(0);
          expect(JSON.parse(json.stdout).root, what).toBe(path.join(home, 'code', 'app', '.omc'));
          continue;
        }
        expect(r.status, what).toBe(0);
        if (/npm install -g|npm link/.test(cmd)) {
          const v = run('omc-top --version');
          expect(v.stdout, what).toBe(`omc-top ${PKG.version}\n`);
          // What the global install holds: the package alone (npm link: the clone itself).
          const mods = fs.readdirSync(path.join(home, 'global', 'lib', 'node_modules'));
          expect(mods, what).toEqual(['omc-top']);
        }
      }
    },
    BIG,
  );
});
