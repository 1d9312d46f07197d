/**
 * `omc-top --all` in a real terminal (the bundle under a pty): three projects
 * found through a Claude registry in Claude Code's own format, a live change
 * reaching the screen, Enter into a project's panes, Esc back, q restores;
 * the terminal title says what needs you (the sum of the projects' monitors' counts), as the header does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { makeMachine, type Machine } from './fleet-tree.js';
import { scaled } from '../helpers/time-scale.js';
import { KEY } from '../helpers/keys.js';

let m: Machine | null = null;
afterEach(() => {
  m?.cleanup();
  m = null;
});

describe('omc-top --all in a real terminal', () => {
  it('lists every project, follows a change live, opens a project with Enter and returns with Esc', async ({ pty }) => {
    m = makeMachine();
    const a = m.project('proj-a', 1);
    m.project('proj-b', 1);
    m.project('proj-c', 1);
    const h = pty({ args: ['--all'], cols: 120, rows: 30, cwd: m.base, env: m.env });
    await h.waitForText('3 Claude sessions on this machine', 20_000);
    for (const name of ['proj-a', 'proj-b', 'proj-c']) await h.waitForText(`${name}  (2 sessions)`, 20_000);

    const file = path.join(a.root, 'state', 'sessions', a.live, 'ralph-state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    writeOmcJson(file, { ...state, iteration: 7, last_checked_at: new Date().toISOString() });
    await h.waitForText('ralph 7/10', 20_000);

    // The row of proj-a's live loop: move to it (each j waits for the cursor to move) and open it.
    const selected = () => h.screen().find((l) => l.startsWith('▸')) ?? '';
    for (let i = 0; i < 12 && !selected().includes('ralph 7/10'); i++) {
      const before = h.screen().findIndex((l) => l.startsWith('▸'));
      h.write('j');
      const deadline = Date.now() + scaled(10_000);
      while (h.screen().findIndex((l) => l.startsWith('▸')) === before && Date.now() < deadline) {
        await h.settle();
        await new Promise((r) => setTimeout(r, 15));
      }
    }
    expect(selected()).toContain('ralph 7/10');
    h.write(KEY.enter);
    await h.waitForText('Esc back to the fleet', 20_000);
    h.write(KEY.esc);
    await h.waitForText(/omc-top .*ralph|SESSION/, 20_000);
    h.write(KEY.esc);
    await h.waitForText('Claude sessions on this machine', 20_000);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
    await h.settle();
    expect(h.altScreen).toBe(false);
  });
});

/** The project's live session rewritten in Claude Code's registry as the CLI does when it starts waiting on you. */
function waitOnPermission(m: Machine, sid: string): void {
  const dir = path.join(m.config, 'sessions');
  const file = fs
    .readdirSync(dir)
    .map((f) => path.join(dir, f))
    .find((f) => fs.readFileSync(f, 'utf8').includes(sid)) as string;
  const entry = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ ...entry, status: 'waiting', waitingFor: 'permission prompt' }));
  fs.renameSync(`${file}.tmp`, file);
}

/** Every terminal title the bytes set (OSC 2), in order. */
const titles = (out: string) => [...out.matchAll(/\x1b\]2;([^\x07]*)\x07/g)].map((t) => t[1]);

describe('the fleet in the terminal title', () => {
  it("says what needs you in the header's words (the monitor's count, summed), follows the count, and gives the old title back on q", async ({
    pty,
  }) => {
    m = makeMachine();
    const a = m.project('proj-a', 0);
    const b = m.project('proj-b', 0);
    m.env.XDG_STATE_HOME = path.join(m.home, 'state');
    waitOnPermission(m, a.live);
    const h = pty({ args: ['--all'], cols: 120, rows: 30, cwd: m.base, env: m.env });
    await h.waitForText('needs you: 1', 20_000);
    expect(h.output).toContain('\x1b[22;0t');
    const last = () => titles(h.output).at(-1);
    await waitFor(() => last() === 'omc-top --all · needs you: 1', {
      timeoutMs: 20_000,
      what: 'the title at 1',
    });
    waitOnPermission(m, b.live);
    await h.waitForText('needs you: 2', 20_000);
    await waitFor(() => last() === 'omc-top --all · needs you: 2', {
      timeoutMs: 20_000,
      what: 'the title at 2',
    });
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
    await h.settle();
    // Set only when it changed, and the old title popped back after the last one set.
    expect(titles(h.output).filter((t) => t !== 'omc-top --all')).toEqual([
      'omc-top --all · needs you: 1',
      'omc-top --all · needs you: 2',
    ]);
    expect(h.output.lastIndexOf('\x1b[23;0t')).toBeGreaterThan(h.output.lastIndexOf('\x1b]2;'));
  });

  it('--no-title leaves the title alone', async ({ pty }) => {
    m = makeMachine();
    const a = m.project('proj-a', 0);
    waitOnPermission(m, a.live);
    const h = pty({ args: ['--all', '--no-title'], cols: 120, rows: 30, cwd: m.base, env: m.env });
    await h.waitForText('needs you: 1', 20_000);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
    await h.settle();
    expect(titles(h.output)).toEqual([]);
    expect(h.output).not.toContain('\x1b[22;0t');
    expect(h.output).not.toContain('\x1b[23;0t');
  });
});

const OSC = /\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g;
/** The desktop notifications (OSC 9) in the bytes, in order. */
const osc9 = (out: string) => [...out.matchAll(/\x1b\]9;([^\x07]*)\x07/g)].map((t) => t[1] as string);
const bells = (out: string) => out.replace(OSC, '').split('\x07').length - 1;

describe('the fleet rings as the monitor does', () => {
  it('a session that starts needing you rings the bell (and OSC 9 when asked), named by its project; N switches it', async ({
    pty,
  }) => {
    m = makeMachine();
    const a = m.project('proj-a', 0);
    const b = m.project('proj-b', 0);
    const c = m.project('proj-c', 0);
    m.env.XDG_STATE_HOME = path.join(m.home, 'state');
    const h = pty({
      args: ['--all', '--notify=bell,osc'],
      cols: 120,
      rows: 30,
      cwd: m.base,
      env: { ...m.env, TMUX: undefined, TMUX_PANE: undefined, VTE_VERSION: undefined },
    });
    await h.waitForText('3 Claude sessions on this machine', 20_000);
    for (const name of ['proj-a', 'proj-b', 'proj-c']) await h.waitForText(`${name}  (1 session)`, 20_000);
    // The first read done (what it finds is the baseline, as in the monitor): nothing rang for it.
    await waitFor(
      () => !(h.screen()[0] ?? '').includes('reading…') && h.screen().filter((l) => / busy /.test(l)).length === 3,
      { timeoutMs: 20_000, what: 'the first read, each Claude joined' },
    );
    expect(bells(h.output)).toBe(0);
    waitOnPermission(m, a.live);
    await h.waitForText('needs you: 1', 20_000);
    await waitFor(() => osc9(h.output).length === 1, { timeoutMs: 20_000, what: 'the notification of proj-a' });
    expect(osc9(h.output)[0]).toMatch(/^proj-a \w+.*: waiting for you: permission prompt/);
    expect(bells(h.output)).toBe(1);

    // N: off (the header says so); what starts needing you now rings nothing.
    h.write('N');
    await h.waitForText('notifications off: nothing rings from the fleet', 20_000);
    await h.waitForText('notify off', 20_000);
    waitOnPermission(m, b.live);
    await h.waitForText('needs you: 2', 20_000);
    // N again: on; the next one rings, and proj-b's (dropped while off) never does.
    h.write('N');
    await h.waitForText('notifications on', 20_000);
    waitOnPermission(m, c.live);
    await h.waitForText('needs you: 3', 20_000);
    await waitFor(() => osc9(h.output).length === 2, { timeoutMs: 20_000, what: 'the notification of proj-c' });
    expect(osc9(h.output)[1]).toMatch(/^proj-c /);
    expect(osc9(h.output).some((t) => t.startsWith('proj-b'))).toBe(false);
    expect(bells(h.output)).toBe(2);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });

  it("a project's keys say they work in a project, replacing the message left before", async ({ pty }) => {
    m = makeMachine();
    m.project('proj-a', 0);
    const h = pty({ args: ['--all'], cols: 120, rows: 30, cwd: m.base, env: m.env });
    await h.waitForText('proj-a  (1 session)', 20_000);
    h.write('c');
    await h.waitForText('Enter opens this project: cancel and pause it', 20_000);
    for (const key of ['M', '\t', 's', 'O', '$']) {
      h.write(key);
      await h.waitForText('not in the fleet: Enter opens a project', 20_000);
      expect(h.screen().join('\n')).not.toContain('Enter opens this project: cancel');
      h.write('c');
      await h.waitForText('Enter opens this project: cancel and pause it', 20_000);
    }
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
  });
});
