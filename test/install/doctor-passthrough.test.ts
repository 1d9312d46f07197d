// `omc-top doctor` inside a real tmux server: tmux 3.3+ drops the OSC 9/777 a program wraps for the outer
// terminal unless allow-passthrough is on (default off), so desktop notifications never arrive. Doctor
// must find the setting off, say how to turn it on, and see it on once it is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';

const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
const hasTmux = spawnSync('sh', ['-c', 'command -v tmux']).status === 0;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe.skipIf(!hasTmux)('doctor: tmux allow-passthrough', () => {
  it('off in the tmux server omc-top runs in: with the osc channel on, a warning with the line that turns it on (without it, said only); on: said so', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-doctor-tmux-'));
    const sock = path.join(dir, 'tmux.sock');
    const tmux = (...args: string[]) => spawnSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
    cleanups.push(() => {
      tmux('kill-server');
      fs.rmSync(dir, { recursive: true, force: true });
    });
    // -f /dev/null: tmux's own defaults, as a user without a ~/.tmux.conf line has them.
    expect(tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'main', 'sleep 600').status).toBe(0);
    const serverPid = tmux('display-message', '-p', '#{pid}').stdout.trim();
    const pane = tmux('display-message', '-p', '-t', 'main', '#{pane_id}').stdout.trim();
    const xdg = path.join(dir, 'config');
    const doctor = () => {
      const r = spawnSync(process.execPath, [BUNDLE, 'doctor', '--json', '--cwd', dir], {
        env: {
          ...process.env,
          TMUX: `${sock},${serverPid},0`,
          TMUX_PANE: pane,
          HOME: dir,
          XDG_CONFIG_HOME: xdg,
          CI: '',
        },
        encoding: 'utf8',
      });
      const check = (JSON.parse(r.stdout) as { checks: Record<string, any>[] }).checks.find((c) => c.id === 'tmux');
      if (!check) throw new Error(`no tmux check:\n${r.stdout}\n${r.stderr}`);
      return check;
    };
    // The default channels (bell, tmux) send nothing tmux would drop: said, not warned about.
    const quiet = doctor();
    expect(quiet).toMatchObject({ status: 'info', data: { inside: true, allowPassthrough: 'off' } });
    expect(quiet.summary).toContain('allow-passthrough is off, and desktop notifications (the osc channel) are not on');
    expect(quiet.details.join('\n')).toContain('set -g allow-passthrough on');

    // The osc channel on (for one reason is enough): now they are dropped.
    fs.mkdirSync(path.join(xdg, 'omc-top'), { recursive: true });
    fs.writeFileSync(
      path.join(xdg, 'omc-top', 'config.json'),
      JSON.stringify({ notify: { reasons: { 'waiting for you': ['osc'] } } }),
    );
    const off = doctor();
    expect(off).toMatchObject({ status: 'warn', data: { inside: true, allowPassthrough: 'off' } });
    expect(off.summary).toContain('allow-passthrough is off');
    expect(off.details.join('\n')).toContain('set -g allow-passthrough on');

    expect(tmux('set', '-g', 'allow-passthrough', 'on').status).toBe(0);
    const on = doctor();
    expect(on).toMatchObject({ status: 'info', data: { allowPassthrough: 'on' } });
    expect(on.summary).toContain('allow-passthrough is on');
  });
});
