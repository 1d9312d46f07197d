/**
 * J in a real tmux server: the bundled omc-top runs in one window, a stand-in
 * Claude process in another; a client is attached through a pty. J on the
 * session's row switches that client to the process's pane (from the
 * registry's tmux field, and from pid → tty → pane without it); a process on
 * another tmux server gets the reason, not a wrong pane. Private sockets,
 * killed after; CI unset for the children (Ink renders no live frames under CI).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { spawn as ptySpawn, type IPty } from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { writeRegistry } from '../helpers/claude-files.js';
import { liveRalph, makeProject, type TempProject, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { generateTeam } from '../helpers/team-gen.js';
import { BIN } from '../helpers/pty.js';

const HERE = 'aaaaaaaa-2222-4222-8333-000000000001';
const ELSEWHERE = 'bbbbbbbb-2222-4222-8333-000000000002';
const NO_TMUX_FIELD = 'cccccccc-2222-4222-8333-000000000003';

let p: TempProject | null = null;
let client: IPty | null = null;
const sockets: string[] = [];

afterEach(() => {
  client?.kill();
  client = null;
  for (const s of sockets.splice(0)) spawnSync('tmux', ['-S', s, 'kill-server']);
  p?.cleanup();
  p = null;
});

const childEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color' };
  delete env.CI;
  delete env.TMUX;
  delete env.TMUX_PANE;
  return env;
};
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const STAND_IN = `exec ${q(process.execPath)} -e 'setInterval(()=>{},1000)'`;

function server(sock: string) {
  sockets.push(sock);
  return (...args: string[]) => {
    const r = spawnSync('tmux', ['-S', sock, '-f', '/dev/null', ...args], { encoding: 'utf8', env: childEnv() });
    if (r.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
}

const ralph = (sid: string, dir: string) => liveRalph({ sessionId: sid, iteration: 2, max: 10, projectPath: dir });

describe('jump (J) in a real tmux server', () => {
  it('switches the attached client to the session pane, by registry field or by tty; another server is named', async () => {
    p = makeProject();
    const dir = p.dir;
    const cfg = path.join(dir, 'claude-config');
    const state = path.join(dir, 'state-home');
    fs.mkdirSync(state);
    for (const sid of [HERE, ELSEWHERE, NO_TMUX_FIELD])
      writeOmcJson(path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json'), ralph(sid, dir));

    const sock = path.join(dir, 'main.sock');
    const tmux = server(sock);
    const monitor = [
      `cd ${q(dir)} &&`,
      `exec env CLAUDE_CONFIG_DIR=${q(cfg)} XDG_STATE_HOME=${q(state)} XDG_CONFIG_HOME=${q(state)} NO_COLOR=1`,
      `${q(process.execPath)} ${q(BIN)}`,
    ].join(' ');
    tmux('new-session', '-d', '-s', 'main', '-x', '120', '-y', '30', monitor);
    // Two stand-in CLIs on this server (their own windows), one on another server.
    const [pane1, pid1] = tmux('new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-t', 'main', STAND_IN).split(
      ' ',
    );
    const [pane2, pid2] = tmux('new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-t', 'main', STAND_IN).split(
      ' ',
    );
    const other = server(path.join(dir, 'other.sock'));
    const [, pidOther] = other('new-session', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-s', 'x', STAND_IN).split(
      ' ',
    );
    writeRegistry(cfg, Number(pid1), HERE, { status: 'busy', cwd: dir, tmux: `main:@1.${pane1}` });
    writeRegistry(cfg, Number(pid2), NO_TMUX_FIELD, { status: 'idle', cwd: dir });
    // Same-looking pane id as on this server, but the process's terminal is the other server's.
    writeRegistry(cfg, Number(pidOther), ELSEWHERE, { status: 'busy', cwd: dir, tmux: `x:@0.${pane1}` });

    client = ptySpawn('tmux', ['-S', sock, 'attach', '-t', 'main:0'], {
      name: 'xterm-256color',
      cols: 120,
      rows: 31,
      cwd: dir,
      env: childEnv() as Record<string, string>,
    });
    const screen = () => tmux('capture-pane', '-p', '-t', 'main:0');
    const clientPane = () => tmux('list-clients', '-F', '#{pane_id}');
    await waitFor(() => /STATUS\s+SESSION/.test(screen()) && screen().includes('busy'), {
      what: 'omc-top in tmux shows the sessions',
      timeoutMs: 20_000,
    });
    const monitorPane = clientPane();

    /** Filters the list down to one session (no racing j presses against frames), presses J. */
    const jumpFrom = async (sid: string) => {
      tmux('select-window', '-t', 'main:0');
      tmux('send-keys', '-t', 'main:0', 'Escape');
      tmux('send-keys', '-t', 'main:0', '/');
      tmux('send-keys', '-t', 'main:0', '-l', sid.slice(0, 8));
      tmux('send-keys', '-t', 'main:0', 'Enter');
      await waitFor(
        () =>
          /1 of 3 match/.test(screen()) &&
          screen()
            .split('\n')
            .some((l) => l.startsWith('▸') && l.includes(sid.slice(0, 8))),
        {
          what: `row ${sid} alone and selected`,
          timeoutMs: 10_000,
        },
      );
      tmux('send-keys', '-t', 'main:0', 'J');
    };

    await jumpFrom(HERE);
    await waitFor(() => clientPane() === pane1, { what: `client on ${pane1} (registry field)`, timeoutMs: 10_000 });
    // The message is drawn after tmux switched: wait for it.
    await waitFor(() => screen().includes(`jumped to tmux pane ${pane1}`) && screen().includes('found via registry'), {
      what: 'the jump message (registry)',
      timeoutMs: 10_000,
    });

    await jumpFrom(NO_TMUX_FIELD);
    await waitFor(() => clientPane() === pane2, { what: `client on ${pane2} (pid → tty)`, timeoutMs: 10_000 });
    await waitFor(() => screen().includes(`jumped to tmux pane ${pane2}`) && screen().includes('found via tty'), {
      what: 'the jump message (tty)',
      timeoutMs: 10_000,
    });

    await jumpFrom(ELSEWHERE);
    const said = await waitFor(() => /jump: .*another server/.test(screen()) && screen(), {
      what: 'the reason for another server',
      timeoutMs: 10_000,
    });
    expect(said).toMatch(/the session runs in another server/);
    expect(clientPane()).toBe(monitorPane);
  });

  it('from the teams pane: J on a worker switches to the pane of its heartbeat pid', async () => {
    p = makeProject();
    const dir = p.dir;
    const state = path.join(dir, 'state-home');
    fs.mkdirSync(state);
    const sock = path.join(dir, 'main.sock');
    const tmux = server(sock);
    const monitor = [
      `cd ${q(dir)} &&`,
      `exec env CLAUDE_CONFIG_DIR=${q(path.join(dir, 'no-claude'))} XDG_STATE_HOME=${q(state)} XDG_CONFIG_HOME=${q(state)} NO_COLOR=1`,
      `${q(process.execPath)} ${q(BIN)}`,
    ].join(' ');
    tmux('new-session', '-d', '-s', 'main', '-x', '120', '-y', '30', monitor);
    const [pane, pid] = tmux('new-window', '-d', '-P', '-F', '#{pane_id} #{pane_pid}', '-t', 'main', STAND_IN).split(
      ' ',
    );
    const now = Date.now();
    generateTeam({ root: p.root, name: 'jumpers', workers: 1, tasks: 1, now, status: () => 'in_progress' });
    writeOmcJson(path.join(p.root, 'state', 'team', 'jumpers', 'workers', 'worker-1', 'heartbeat.json'), {
      pid: Number(pid),
      last_turn_at: new Date(now).toISOString(),
      turn_count: 1,
      alive: true,
    });
    client = ptySpawn('tmux', ['-S', sock, 'attach', '-t', 'main:0'], {
      name: 'xterm-256color',
      cols: 120,
      rows: 31,
      cwd: dir,
      env: childEnv() as Record<string, string>,
    });
    const screen = () => tmux('capture-pane', '-p', '-t', 'main:0');
    await waitFor(() => /STATUS\s+SESSION/.test(screen()), { what: 'omc-top in tmux', timeoutMs: 20_000 });
    tmux('send-keys', '-t', 'main:0', 't');
    await waitFor(() => screen().includes('jumpers'), { what: 'the team listed', timeoutMs: 10_000 });
    tmux('send-keys', '-t', 'main:0', 'Enter');
    await waitFor(() => screen().includes('worker-1'), { what: 'the team detail', timeoutMs: 10_000 });
    tmux('send-keys', '-t', 'main:0', 'J');
    await waitFor(() => tmux('list-clients', '-F', '#{pane_id}') === pane, {
      what: `client on the worker's pane ${pane}`,
      timeoutMs: 10_000,
    });
    await waitFor(() => screen().includes(`jumped to tmux pane ${pane} (worker worker-1 of jumpers`), {
      what: 'the jump message',
      timeoutMs: 10_000,
    });
  });
});
