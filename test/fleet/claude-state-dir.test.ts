/**
 * `omc-top --all` finds each live Claude's state where that Claude's own hooks write it: a Claude started
 * `OMC_STATE_DIR=… claude` keeps it under that directory (OMC 5.5.0's own getOmcRoot says where), whatever the
 * fleet runs with; a fleet started with OMC_STATE_DIR still finds the Claudes that run without it; a Claude whose
 * state is nowhere is said, never dropped without a word.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocalFleet } from '../../src/fleet/local.js';
import { waitFor } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { omc55Root } from '../helpers/omc-plugin.js';
import { makeLive } from '../helpers/sessions-gen.js';
import { fleetRigPerTest, type Machine } from './fleet-tree.js';

const rig = fleetRigPerTest();
const CENTRAL_SID = '55555555-1111-4222-8333-444444444444';

/** The session ids of the fleet's rows, by group label ("alpha: <sid>"). */
const rowsOf = (fleet: LocalFleet) =>
  fleet
    .getSnapshot()
    .groups.flatMap((g) => g.rows.map((r) => `${g.label}: ${r.session}`))
    .sort();

/**
 * A git project `p5s` whose Claude runs with OMC_STATE_DIR=<base>/central: its ralph loop is where OMC 5.5.0 puts
 * that session's state, under the central directory, and the project has no .omc of its own.
 */
function centralProject(m: Machine): { dir: string; central: string; root: string; pid: number } {
  const dir = path.join(m.base, 'p5s');
  fs.mkdirSync(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const central = path.join(m.base, 'central');
  const root = omc55Root(dir, { HOME: m.home, OMC_STATE_DIR: central });
  expect(root.startsWith(central + path.sep)).toBe(true);
  fs.mkdirSync(path.join(root, 'state', 'sessions'), { recursive: true });
  makeLive(root, CENTRAL_SID);
  const claude = m.register(CENTRAL_SID, dir, { env: { OMC_STATE_DIR: central } });
  expect(fs.existsSync(path.join(dir, '.omc'))).toBe(false);
  return { dir, central, root, pid: claude.pid as number };
}

describe("each Claude's root, with its own OMC_STATE_DIR", () => {
  it('a fleet without OMC_STATE_DIR shows the loop of a Claude started with it, and the others', async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 0);
    centralProject(m);
    const fleet = rig.fleet(m);
    fleet.start();
    const rows = await waitFor(() => rowsOf(fleet).length === 2 && rowsOf(fleet), {
      what: `both loops (${rowsOf(fleet).join('; ')}; ${fleet.getSnapshot().problems.join('; ')})`,
    });
    expect(rows).toEqual([`alpha: ${alpha.live}`, `p5s: ${CENTRAL_SID}`]);
    expect(fleet.getSnapshot().problems).toEqual([]);
  });

  it('a fleet started with OMC_STATE_DIR still shows the Claudes that run without it', async () => {
    const m = rig.machine();
    const alpha = m.project('alpha', 0);
    const { central } = centralProject(m);
    const fleet = rig.fleet(m, { env: { ...m.env, OMC_STATE_DIR: central } });
    fleet.start();
    const rows = await waitFor(() => rowsOf(fleet).length === 2 && rowsOf(fleet), {
      what: `both loops (${rowsOf(fleet).join('; ')}; ${fleet.getSnapshot().problems.join('; ')})`,
    });
    expect(rows).toEqual([`alpha: ${alpha.live}`, `p5s: ${CENTRAL_SID}`]);
    expect(fleet.getSnapshot().roots).toBe(2);
  });

  it('a Claude whose state is nowhere is said, with where it was looked for; one not running OMC is not', async () => {
    const m = rig.machine();
    m.project('alpha', 0);
    // A Claude in a project with no .omc and no OMC_STATE_DIR: one not running OMC there, said nowhere.
    const plain = path.join(m.base, 'plain');
    fs.mkdirSync(plain);
    execFileSync('git', ['init', '-q'], { cwd: plain });
    m.register('77777777-1111-4222-8333-444444444444', plain);
    const bare = path.join(m.base, 'bare');
    fs.mkdirSync(bare);
    execFileSync('git', ['init', '-q'], { cwd: bare });
    const claude = m.register('66666666-1111-4222-8333-444444444444', bare, {
      env: { OMC_STATE_DIR: path.join(m.base, 'nowhere') },
    });
    const fleet = rig.fleet(m);
    fleet.start();
    const problems = await waitFor(() => fleet.getSnapshot().problems.length > 0 && fleet.getSnapshot().problems, {
      what: 'a problem line',
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      new RegExp(
        `^Claude pid ${claude.pid}: its state is not found \\(it runs with OMC_STATE_DIR=${m.base}/nowhere: looked in ${m.base}/nowhere/bare-[0-9a-f]{16}\\)$`,
      ),
    );
    expect(fleet.getSnapshot().localClaude).toBe(3);
  });
});

describe('a monitor in that project', () => {
  /** `omc-top --json` in `dir` with the machine's Claude config and `env`: its exit status and stderr. */
  const jsonIn = (m: Machine, dir: string, env: Record<string, string> = {}, args = ['--json']) => {
    const r = spawnSync(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { ...m.env, XDG_STATE_HOME: path.join(m.base, 'xdg'), ...env },
      encoding: 'utf8',
    });
    return { status: r.status, err: r.stderr };
  };

  it('that finds no .omc names the Claude there that runs with OMC_STATE_DIR, and the command to look there', async () => {
    const m = rig.machine();
    const { dir, central, pid } = centralProject(m);
    const r = jsonIn(m, dir);
    expect(r.status).toBe(2);
    expect(r.err).toContain('no .omc directory found');
    const note = `note: Claude pid ${pid} here runs with OMC_STATE_DIR=${central}: try OMC_STATE_DIR=${central} omc-top`;
    expect(r.err).toContain(note);
    // `serve`, which needs the root too, says the same note.
    const serve = jsonIn(m, dir, {}, ['serve', '--port', '0']);
    expect(serve.status).toBe(2);
    expect(serve.err).toContain(note);
    // `watch --json` waits for OMC to make a root (as the monitor does), and says the same note meanwhile.
    const watch = spawn(process.execPath, [BIN, 'watch', '--json'], {
      cwd: dir,
      env: { ...m.env, XDG_STATE_HOME: path.join(m.base, 'xdg') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => watch.once('exit', resolve));
    let out = '';
    let err = '';
    watch.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    watch.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    try {
      await waitFor(() => err.includes(note) && out.includes('"type":"root"'), {
        timeoutMs: 30_000,
        what: `watch's note and its waiting root line (${err}${out})`,
      });
      expect(watch.exitCode).toBeNull();
    } finally {
      watch.kill('SIGTERM');
      await exited;
    }
    // And the other way: omc-top run with an OMC_STATE_DIR that the Claude here does not have.
    const bare = path.join(m.base, 'bare');
    fs.mkdirSync(bare);
    execFileSync('git', ['init', '-q'], { cwd: bare });
    const plain = m.register('77777777-1111-4222-8333-444444444444', bare);
    const other = jsonIn(m, bare, { OMC_STATE_DIR: central });
    expect(other.status).toBe(2);
    expect(other.err).toContain(
      `note: Claude pid ${plain.pid} here runs without OMC_STATE_DIR: try env -u OMC_STATE_DIR omc-top`,
    );
  });

  it("with OMC_STATE_DIR in the project's Claude settings: the no-.omc lines name that file, and no Claude's environment", () => {
    const m = rig.machine();
    const dir = path.join(m.base, 'set');
    fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const nowhere = path.join(m.base, 'nowhere');
    fs.writeFileSync(
      path.join(dir, '.claude', 'settings.local.json'),
      JSON.stringify({ env: { OMC_STATE_DIR: nowhere } }),
    );
    // A Claude here started without OMC_STATE_DIR: the settings' env reaches its hooks all the same.
    m.register('88888888-1111-4222-8333-444444444444', dir);
    // omc-top's own OMC_STATE_DIR loses to the settings' too (no "runs without" hint about that Claude).
    const r = jsonIn(m, dir, { OMC_STATE_DIR: path.join(m.base, 'mine') });
    expect(r.status).toBe(2);
    expect(r.err).toMatch(
      /no \.omc directory found \(OMC_STATE_DIR\/set-[0-9a-f]{16} \(set in the project's \.claude\/settings\.local\.json\)\)/,
    );
    expect(r.err).toContain(`  ${nowhere}/set-`);
    expect(r.err).not.toContain('runs without OMC_STATE_DIR');
  });
});
