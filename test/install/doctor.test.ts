// `omc-top doctor`: what it concludes on a healthy tree, a project without .omc,
// a watcher that polls (asked for, and forced by a real inotify limit), and a
// Claude config directory whose session registry cannot be read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import {
  collectDoctorReport,
  MIN_NODE,
  type DoctorOptions,
  type DoctorReport,
} from '../../src/commands/doctor-checks.js';
import { formatDoctorReport } from '../../src/commands/doctor.js';
import { makeProject, REPO, type TempProject } from '../helpers/fixtures.js';
import { inUserNs, shq, userNsSupport } from '../helpers/fault-userns.js';
import { scaled } from '../helpers/time-scale.js';

const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function tempDir(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(d, { recursive: true, force: true }));
  return d;
}

function project(): TempProject {
  const p = makeProject({ withFixture: true, prefix: 'omc-top-doctor-' });
  cleanups.push(p.cleanup);
  return p;
}

/** A Claude config dir with a session registry holding one entry. */
function claudeDir(): string {
  const d = tempDir('omc-top-doctor-claude-');
  fs.mkdirSync(path.join(d, 'sessions'));
  fs.writeFileSync(path.join(d, 'sessions', '4242.json'), JSON.stringify({ pid: 4242, sessionId: 'abc' }));
  return d;
}

function options(over: Partial<DoctorOptions> & { cwd: string; env: NodeJS.ProcessEnv }): DoctorOptions {
  return {
    poll: false,
    version: 'test',
    nodeVersion: process.version,
    terminal: { isTTY: true, columns: 120, rows: 40, colorDepth: 8 },
    // Generous: the watcher settles in milliseconds, but the CI box may be loaded.
    watchTimeoutMs: 60_000,
    ...over,
  };
}

const check = (r: DoctorReport, id: string) => {
  const c = r.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no ${id} check`);
  return c;
};

/** Runs the built bundle's doctor --json; returns its exit status and parsed report. */
function runDoctor(args: string[], env: NodeJS.ProcessEnv, cwd = os.tmpdir()) {
  const r = spawnSync(process.execPath, [BUNDLE, 'doctor', '--json', ...args], {
    env,
    cwd,
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  return { status: r.status, report: JSON.parse(r.stdout) as DoctorReport, stderr: r.stderr };
}

const baseEnv = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: tempDir('omc-top-doctor-home-'),
  // Never this machine's own omc-top config (os.homedir() is the real $HOME in-process).
  XDG_CONFIG_HOME: tempDir('omc-top-doctor-xdg-'),
  ...extra,
});

/** Writes `$XDG_CONFIG_HOME/omc-top/config.json` for `env`; returns its path. */
function writeConfig(env: NodeJS.ProcessEnv, text: string): string {
  const file = path.join(env.XDG_CONFIG_HOME as string, 'omc-top', 'config.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

describe('omc-top doctor', { timeout: scaled(120_000) }, () => {
  it('on a healthy tree: nothing broken, file events, the registry counted, exit 0', async () => {
    const p = project();
    const env = baseEnv({ CLAUDE_CONFIG_DIR: claudeDir() });
    const report = await collectDoctorReport(options({ cwd: p.dir, env }));
    expect(report.ok).toBe(true);
    expect(check(report, 'node').status).toBe('ok');
    expect(check(report, 'root')).toMatchObject({ status: 'ok', data: { root: p.root, rule: 'git', exists: true } });
    expect(check(report, 'claude')).toMatchObject({
      status: 'ok',
      data: { rule: 'CLAUDE_CONFIG_DIR', sessions: { readable: true, entries: 1 } },
    });
    const watch = check(report, 'watch');
    expect(watch.data.mode).toBe('events');
    // One watch per directory of the tree, the root included.
    const dirs = spawnSync('find', [p.root, '-type', 'd'], { encoding: 'utf8' }).stdout.trim().split('\n').length;
    expect(watch.data.directories).toBe(dirs);
    expect(watch.data.maxUserWatches).toBeGreaterThan(0);
    expect(check(report, 'terminal')).toMatchObject({ status: 'ok', summary: expect.stringMatching(/^120x40/) });
    expect(formatDoctorReport(report)).toMatch(/\nnothing broken$/);

    const cli = runDoctor(['--cwd', p.dir], env);
    expect(cli.status).toBe(0);
    expect(cli.report.ok).toBe(true);
    expect(check(cli.report, 'root').data.root).toBe(p.root);
  });

  it('without .omc: says where it looked, the root is broken, exit 1', async () => {
    const dir = tempDir('omc-top-doctor-empty-');
    const env = baseEnv({ CLAUDE_CONFIG_DIR: claudeDir() });
    const report = await collectDoctorReport(options({ cwd: dir, env }));
    expect(report.ok).toBe(false);
    const root = check(report, 'root');
    expect(root.status).toBe('broken');
    expect(root.data.exists).toBe(false);
    expect(root.data.candidates).toEqual(
      expect.arrayContaining([{ path: path.join(dir, '.omc'), exists: false, chosen: false, considered: true }]),
    );
    expect(check(report, 'watch').status).toBe('info');

    const cli = runDoctor(['--cwd', dir], env);
    expect(cli.status).toBe(1);
    expect(check(cli.report, 'root').status).toBe('broken');
  });

  it('--root given a file: doctor and the app say it is a file, not that nothing is there', async () => {
    const file = path.join(tempDir('omc-top-doctor-file-'), 'notes.txt');
    fs.writeFileSync(file, 'not a directory\n');
    const env = baseEnv({ CLAUDE_CONFIG_DIR: claudeDir() });
    const report = await collectDoctorReport(options({ cwd: os.tmpdir(), env, rootOverride: file }));
    expect(check(report, 'root').status).toBe('broken');
    expect(check(report, 'root').summary).toBe(`${file} (--root): is a file, not a directory`);

    const app = spawnSync(process.execPath, [BUNDLE, '--json', '--root', file], {
      env,
      encoding: 'utf8',
      timeout: scaled(60_000),
    });
    expect(app.status).toBe(2);
    expect(app.stderr).toContain(`Looked in:\n  ${file}: is a file, not a directory\n`);
    // A path that is simply missing keeps the plain line: the heading already says nothing was found.
    const missing = spawnSync(process.execPath, [BUNDLE, '--json', '--root', `${file}-gone`], {
      env,
      encoding: 'utf8',
      timeout: scaled(60_000),
    });
    expect(missing.stderr).toContain(`Looked in:\n  ${file}-gone\n`);
    // The subcommands say it the same way.
    for (const sub of [['watch', '--json'], ['status'], ['cancel', 'abc']]) {
      const r = spawnSync(process.execPath, [BUNDLE, ...sub, '--root', file], {
        env,
        encoding: 'utf8',
        timeout: scaled(60_000),
      });
      expect(r.stderr, sub.join(' ')).toContain(`no .omc directory found (--root): ${file} is a file, not a directory`);
    }
  });

  it('names a second .omc that exists but is not the one used (./.omc in a subdirectory, as OMC 4.x wrote)', async () => {
    const p = project();
    const sub = path.join(p.dir, 'packages', 'web');
    fs.mkdirSync(path.join(sub, '.omc'), { recursive: true });
    const report = await collectDoctorReport(options({ cwd: sub, env: baseEnv({ CLAUDE_CONFIG_DIR: claudeDir() }) }));
    const root = check(report, 'root');
    expect(root.data.root).toBe(p.root);
    expect(root.details).toContain(`also exists, not used: ${path.join(sub, '.omc')}`);
  });

  it('--poll: reports polling as asked, not as a problem', async () => {
    const p = project();
    const report = await collectDoctorReport(
      options({ cwd: p.dir, env: baseEnv({ CLAUDE_CONFIG_DIR: claudeDir() }), poll: true }),
    );
    expect(check(report, 'watch')).toMatchObject({ status: 'ok', data: { mode: 'polling', requested: 'poll' } });
    // In the words the monitor's footer and the fleet's header say it with.
    expect(check(report, 'watch').summary).toBe('polling every 1 s (--poll)');
  });

  const ns = userNsSupport().inotify;
  it.skipIf(!ns.ok)(
    `a real inotify limit too low for the tree: polling fallback, with the limit and the need${ns.ok ? '' : ` (skipped: ${ns.why})`}`,
    () => {
      const p = project();
      const env = baseEnv({ CLAUDE_CONFIG_DIR: claudeDir() });
      const { file, args } = inUserNs(
        `echo 3 > /proc/sys/user/max_inotify_watches && exec ${shq(process.execPath)} ${shq(BUNDLE)} doctor --json --cwd ${shq(p.dir)}`,
      );
      const r = spawnSync(file, args, { env, encoding: 'utf8', timeout: scaled(60_000) });
      const report = JSON.parse(r.stdout) as DoctorReport;
      const watch = check(report, 'watch');
      expect(watch.status).toBe('warn');
      expect(watch.data.mode).toBe('polling');
      expect(watch.data.maxUserWatches).toBe(3);
      expect(watch.details.join('\n')).toMatch(/max_user_watches 3/);
      expect(watch.details.join('\n')).toMatch(/sysctl fs\.inotify\.max_user_watches=\d+/);
      // Polling works: nothing is broken, so the exit status is 0.
      expect(r.status).toBe(0);
    },
  );

  it('a session registry that is a file, not a directory: broken, exit 1', () => {
    const p = project();
    const cfg = tempDir('omc-top-doctor-claude-');
    fs.writeFileSync(path.join(cfg, 'sessions'), 'not a directory');
    const cli = runDoctor(['--cwd', p.dir], baseEnv({ CLAUDE_CONFIG_DIR: cfg }));
    expect(cli.status).toBe(1);
    expect(check(cli.report, 'claude')).toMatchObject({
      status: 'broken',
      data: { dir: cfg, sessions: { readable: false, error: 'not-a-file' } },
    });
  });

  it('a Claude config dir this user may not read: broken, exit 1', () => {
    // Root reads through any permission bits, so as root the check runs as nobody.
    const asRoot = process.getuid?.() === 0;
    const world = tempDir('omc-top-doctor-perm-');
    fs.chmodSync(world, 0o755);
    const bundle = path.join(world, 'omc-top.mjs');
    // The bin loads its bundles from beside itself: copy them all.
    for (const f of fs.readdirSync(path.dirname(BUNDLE)).filter((x) => x.endsWith('.mjs')))
      fs.copyFileSync(path.join(path.dirname(BUNDLE), f), path.join(world, f));
    const home = path.join(world, 'home');
    fs.cpSync(path.join(REPO, 'test', 'fixtures', 'real-omc', 'tree'), path.join(home, '.omc'), { recursive: true });
    spawnSync('chmod', ['-R', 'a+rX', home]);
    const cfg = path.join(world, 'claude');
    fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
    fs.chmodSync(cfg, 0o700);
    cleanups.unshift(() => fs.chmodSync(cfg, 0o700));
    if (!asRoot) fs.chmodSync(cfg, 0o000);
    const env = { PATH: process.env.PATH, HOME: home, CLAUDE_CONFIG_DIR: cfg };
    const cmd = asRoot
      ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath]
      : [process.execPath];
    const r = spawnSync(
      cmd[0] as string,
      [...cmd.slice(1), bundle, 'doctor', '--json', '--root', path.join(home, '.omc')],
      {
        env,
        cwd: world,
        encoding: 'utf8',
        timeout: scaled(60_000),
      },
    );
    const report = JSON.parse(r.stdout) as DoctorReport;
    expect(check(report, 'claude')).toMatchObject({ status: 'broken', data: { dir: cfg, error: 'permission' } });
    expect(check(report, 'root').status).toBe('ok');
    expect(r.status).toBe(1);
  });

  it('a path with escape sequences reaches the text output without its control bytes', async () => {
    const cfg = path.join(tempDir('omc-top-doctor-esc-'), 'evil\u001b[2J\u001b]0;title\u0007dir');
    fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
    const report = await collectDoctorReport(options({ cwd: project().dir, env: baseEnv({ CLAUDE_CONFIG_DIR: cfg }) }));
    expect(check(report, 'claude').status).toBe('ok');
    const text = formatDoctorReport(report);
    expect(text).toContain('evil');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('no config file: fine, the defaults are in force', async () => {
    const env = baseEnv({ CLAUDE_CONFIG_DIR: claudeDir() });
    const report = await collectDoctorReport(options({ cwd: project().dir, env }));
    const file = path.join(env.XDG_CONFIG_HOME as string, 'omc-top', 'config.json');
    expect(check(report, 'config')).toMatchObject({
      status: 'ok',
      summary: `${file} does not exist: the defaults apply`,
      data: { path: file, exists: false, inForce: { channels: ['bell', 'tmux'], debounceMs: 1500, title: true } },
    });
    expect(check(report, 'config').details).toContain('terminal title: on (default)');
    expect(report.ok).toBe(true);
  });

  it('a valid config file: the values in force, and which came from the file', async () => {
    const env = baseEnv({ CLAUDE_CONFIG_DIR: claudeDir() });
    const file = writeConfig(
      env,
      JSON.stringify({ notify: { channels: ['osc'], reasons: { 'loop finished': false } }, title: false }),
    );
    const report = await collectDoctorReport(options({ cwd: project().dir, env }));
    const c = check(report, 'config');
    expect(c).toMatchObject({
      status: 'ok',
      summary: `${file}: valid`,
      data: {
        exists: true,
        fromFile: ['notify.channels', 'notify.reasons.loop finished', 'title'],
        inForce: { channels: ['osc'], debounceMs: 1500, title: false },
      },
    });
    expect((c.data.inForce as { reasons: Record<string, unknown> }).reasons).toMatchObject({
      'loop finished': false,
      'loop stopped': true,
    });
    expect(c.details).toEqual([
      'notification channels: osc; --notify overrides',
      'notifications closer than 1500 ms become one (default)',
      'terminal title: off',
      '"loop finished": never',
    ]);
    expect(report.ok).toBe(true);
  });

  it('an invalid config file: the path and the field, broken, exit 1', async () => {
    const p = project();
    const env = baseEnv({ CLAUDE_CONFIG_DIR: claudeDir() });
    const file = writeConfig(env, JSON.stringify({ notify: { debounceMs: 'soon' } }));
    const report = await collectDoctorReport(options({ cwd: p.dir, env }));
    const c = check(report, 'config');
    expect(c.status).toBe('broken');
    expect(c.summary).toContain(`${file}: notify.debounceMs: `);
    expect(report.ok).toBe(false);
    expect(formatDoctorReport(report)).toMatch(/\nbroken: config file$/);

    const cli = runDoctor(['--cwd', p.dir], env);
    expect(cli.status).toBe(1);
    expect(check(cli.report, 'config')).toMatchObject({ status: 'broken', data: { path: file, exists: true } });
    expect(check(cli.report, 'root').status).toBe('ok');

    // Not JSON at all: the file and what is wrong with it.
    writeConfig(env, '{"title": tru');
    const bad = check(await collectDoctorReport(options({ cwd: p.dir, env })), 'config');
    expect(bad).toMatchObject({ status: 'broken', summary: expect.stringContaining(`${file}: not valid JSON`) });
  });

  it('a small terminal and NO_COLOR are reported; MIN_NODE is package.json engines', async () => {
    const dir = tempDir('omc-top-doctor-term-');
    const report = await collectDoctorReport(
      options({
        cwd: dir,
        env: baseEnv({ NO_COLOR: '1', TERM: 'xterm' }),
        terminal: { isTTY: true, columns: 70, rows: 20, colorDepth: 8 },
      }),
    );
    expect(check(report, 'terminal')).toMatchObject({
      status: 'warn',
      summary: '70x20, TERM=xterm, no colour (NO_COLOR is set, --no-color, or a monochrome TERM)',
    });
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    expect(pkg.engines.node).toBe(`>=${MIN_NODE.replace(/\.0$/, '')}`);
  });
});
