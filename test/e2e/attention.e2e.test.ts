/**
 * The full-screen app in a real pty: no notification for the state already
 * there at start; a loop reaching its max is news, which notifies exactly once
 * (one bell and one OSC 9) when the config asks for it and never counts; the
 * title says how many things need you and the old title is restored on q.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { SESSION, waitFor, writeOmcJson } from '../helpers/fixtures.js';

let cfg: string | null = null;
afterEach(() => {
  if (cfg) fs.rmSync(cfg, { recursive: true, force: true });
  cfg = null;
});

const OSC = /\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g;
const count = (s: string, needle: string) => s.split(needle).length - 1;

describe('notifications in the full-screen app', () => {
  it('news asked for: one bell and one OSC 9, none at start, the count unmoved; title set and restored', async ({
    project: p,
    pty,
  }) => {
    cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-xdg-'));
    fs.mkdirSync(path.join(cfg, 'omc-top'));
    fs.writeFileSync(
      path.join(cfg, 'omc-top', 'config.json'),
      JSON.stringify({ notify: { reasons: { 'max reached, OMC extends it (+10)': true } } }),
    );
    const h = pty({
      cwd: p.dir,
      cols: 100,
      rows: 24,
      args: ['--notify=bell,osc'],
      env: { XDG_CONFIG_HOME: cfg, TMUX: undefined, TMUX_PANE: undefined, VTE_VERSION: undefined },
    });
    await h.waitForText('ralph 3/10');
    await h.waitForText(/ live\s*$/m, 30_000);
    expect(h.output).toContain('\x1b[22;0t');
    // The title says the count once the first picture is complete: the fixture's stalled team (a process that
    // holds its workers' pid here started long after their last heartbeat: it is not one of them).
    const lastTitle = (o: string) => [...o.matchAll(/\x1b\]2;([^\x07]*)\x07/g)].map((m) => m[1]).at(-1);
    const before = `omc-top ${path.basename(p.dir)} · needs you: 1`;
    await waitFor(() => lastTitle(h?.output ?? '') === before, { timeoutMs: 20_000, what: `the title ${before}` });
    expect(h.output).not.toContain('\x1b]9;');
    expect(count(h.output.replace(OSC, ''), '\x07')).toBe(0);

    const file = path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    writeOmcJson(file, { ...state, iteration: 10, last_checked_at: new Date().toISOString() });
    await h.waitForText('ralph 10/10');
    await waitFor(() => h?.output.includes('\x1b]9;'), { timeoutMs: 20_000, what: 'OSC 9' });
    // Another write of the same state: no second notification.
    writeOmcJson(file, { ...state, iteration: 10, last_checked_at: new Date(Date.now() + 1000).toISOString() });
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
    await h.settle();
    const out = h.output;
    expect(count(out, '\x1b]9;')).toBe(1);
    expect(out).toMatch(/\x1b\]9;omc-top-test-\S+ 88727f43 ralph: max reached, OMC extends it \(\+10\)\x07/);
    expect(count(out.replace(OSC, ''), '\x07')).toBe(1);
    // News never counts: the title says what it said before.
    expect(lastTitle(out)).toBe(before);
    expect(out.lastIndexOf('\x1b[23;0t')).toBeGreaterThan(out.lastIndexOf('\x1b]2;'));
  });
});

describe('a loop that finishes at its max, on the message line', () => {
  it('one write from 2/3 active to 3/3 complete says "ralph: loop finished", never "OMC extends it"', async ({
    emptyProject: p,
    pty,
  }) => {
    const S = 'a6666666-1111-4222-8333-444444444444';
    const file = path.join(p.root, 'state', 'sessions', S, 'ralph-state.json');
    const t0 = new Date().toISOString();
    const live = { active: true, iteration: 2, max_iterations: 3, started_at: t0, last_checked_at: t0, session_id: S };
    writeOmcJson(file, live);
    const h = pty({ cwd: p.dir, cols: 100, rows: 24, env: { TMUX: undefined, TMUX_PANE: undefined } });
    await h.waitForText('ralph 2/3');
    await h.waitForText(/ live\s*$/m, 30_000);
    // The attention layer's first picture is taken once the title is set (it says the count from then on).
    const titles = () => [...(h?.output ?? '').matchAll(/\x1b\]2;([^\x07]*)\x07/g)].map((m) => m[1]);
    await waitFor(() => titles().includes(`omc-top ${path.basename(p.dir)}`), {
      timeoutMs: 20_000,
      what: `the title (${JSON.stringify(titles())})`,
    });
    const now = new Date().toISOString();
    writeOmcJson(file, {
      ...live,
      iteration: 3,
      active: false,
      current_phase: 'complete',
      completed_at: now,
      last_checked_at: now,
    });
    await h.waitForText('ralph: loop finished', 20_000);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);
    expect(h.output).not.toContain('max reached');
    expect(h.output).not.toContain('extends it');
  });
});
