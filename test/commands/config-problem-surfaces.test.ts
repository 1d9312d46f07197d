/**
 * A config file with a bad field is said by every process that reads it, the same line everywhere (the
 * monitor's message line at start): `serve` and `watch --json` on stderr, `--json` in `problems`, doctor on
 * its BROKEN line. The real bundle (`node scripts/build.mjs` first), a child process per surface. The file is
 * a symlink into a dotfiles directory, as home-manager and stow make it: it is read, and only the bad field is
 * left out (push stays on with `title` wrong; push is said OFF when its only channel is the bad field).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A git project with an empty `.omc`, a home of its own, and `config` as the config file (a symlink to it). */
function project(config: unknown): { dir: string; env: NodeJS.ProcessEnv; file: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-cfg-surfaces-')));
  dirs.push(base);
  const home = path.join(base, 'home');
  const dir = path.join(base, 'proj');
  fs.mkdirSync(path.join(home, '.config', 'omc-top'), { recursive: true });
  fs.mkdirSync(path.join(home, 'dotfiles'));
  fs.mkdirSync(path.join(dir, '.omc', 'state', 'sessions'), { recursive: true });
  execFileSync('git', ['init', '-q', dir]);
  const real = path.join(home, 'dotfiles', 'omc-top.json');
  fs.writeFileSync(real, JSON.stringify(config));
  const file = path.join(home, '.config', 'omc-top', 'config.json');
  fs.symlinkSync(real, file);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
  };
  delete env.OMC_STATE_DIR;
  delete env.CLAUDE_CONFIG_DIR;
  delete env.CI;
  return { dir, env, file };
}

/** Starts `args`, stops it (SIGTERM) once stdout matches `first`, and gives its stderr. */
async function stderrUntil(p: { dir: string; env: NodeJS.ProcessEnv }, args: string[], first: RegExp) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: p.dir, env: p.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const ended = new Promise<void>((r) => child.on('close', () => r()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no first line: ${out} ${err}`)), scaled(60_000));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      if (first.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
  }).finally(() => child.kill('SIGTERM'));
  await ended;
  return err;
}

const NTFY = { type: 'ntfy', url: 'http://127.0.0.1:9/topic-secret-abc' };

describe("a config file's bad field, on every surface", () => {
  it('title wrong: every process names the file and the field, and push stays on', async () => {
    const p = project({ title: 'no', push: { channels: [NTFY] } });
    const line = `${p.file}: title: Invalid input: expected boolean, received string (left out: title; the rest of the file applies)`;
    const serve = await stderrUntil(p, ['serve', '--port', '0', '--readonly'], /http:\/\//);
    expect(serve).toContain(`omc-top serve: config: ${line}\n`);
    const watch = await stderrUntil(p, ['watch', '--json', '--snapshot', '--poll'], /"type":"ready"/);
    expect(watch).toBe(`omc-top watch: config: ${line}\n`);
    const json = spawnSync(process.execPath, [BIN, '--json'], { cwd: p.dir, env: p.env, encoding: 'utf8' });
    expect(json.status).toBe(0);
    const problems = (JSON.parse(json.stdout) as { problems: unknown[] }).problems;
    expect(problems).toContainEqual({
      path: p.file,
      message: `config file: ${line.slice(p.file.length + 2)}`,
      severity: 'error',
    });
    const doctor = spawnSync(process.execPath, [BIN, 'doctor'], { cwd: p.dir, env: p.env, encoding: 'utf8' });
    expect(doctor.stdout).toContain(`BROKEN  config file         ${line}`);
    expect(doctor.stdout).toContain('omc-top runs without title until the file is fixed; the rest of it applies:');
    expect(doctor.stdout).toMatch(/ok {6}push {16}1 channel\(s\): ntfy \(127\.0\.0\.1:9\)/);
    expect(doctor.stdout).not.toContain('topic-secret-abc');
  });

  it('the only channel wrong: serve says push is OFF', async () => {
    const p = project({ push: { channels: [{ ...NTFY, url: 'ftp://127.0.0.1/x' }] } });
    const serve = await stderrUntil(p, ['serve', '--port', '0', '--readonly'], /http:\/\//);
    expect(serve).toMatch(/^omc-top serve: config: .*push\.channels\.0\.url: .*push is OFF \(no channel left\)/m);
  });
});
