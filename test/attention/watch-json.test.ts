/**
 * `omc-top watch --json` as scripts run it: the bundle, pipes, no terminal.
 * Every line must match the schema table in docs/attention.md; a change on
 * disk is one transition line; a loop at its max is news, not counted;
 * SIGTERM ends it with status 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { REPO, SESSION, waitFor, writeOmcJson } from '../helpers/fixtures.js';

let child: ChildProcess | null = null;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
});

interface Row {
  field: string;
  in: string;
}
function schema(): Row[] {
  const readme = fs.readFileSync(path.join(REPO, 'docs', 'attention.md'), 'utf8');
  const at = readme.indexOf('<!-- watch-json-schema');
  expect(at).toBeGreaterThan(0);
  const rows: Row[] = [];
  for (const line of readme.slice(at).split('\n').slice(1)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((c) => c.trim());
    const field = /^`([a-zA-Z]+)`$/.exec(cells[1] ?? '')?.[1];
    if (field) rows.push({ field, in: cells[2] ?? '' });
  }
  return rows;
}

function expected(rows: Row[], line: Record<string, unknown>): string[] {
  return rows
    .filter(
      (r) =>
        r.in === 'all' || r.in.split(', ').includes(String(line.type)) || r.in.includes(`\`${String(line.kind)}\``),
    )
    .filter((r) => !(r.in.includes('kinds') && (line.type === 'ready' || line.type === 'attention')))
    .map((r) => r.field)
    .sort();
}

describe('omc-top watch --json', () => {
  it('prints the documented lines, one transition per change, and exits 0 on SIGTERM', async ({ project: p }) => {
    const rows = schema();
    child = spawn(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), 'watch', '--json', '--snapshot'], {
      cwd: p.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', XDG_STATE_HOME: path.join(p.dir, 'xdg-state') },
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const lines = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: `ready line (${err})` });
    const snap = lines();
    expect(snap.filter((l) => l.type === 'snapshot').length).toBeGreaterThan(5);
    expect(snap.find((l) => l.kind === 'iteration' && l.session === SESSION.ralph)).toMatchObject({
      value: '3',
      iteration: 3,
      max: 10,
    });
    // The watcher may still be settling; a change made now must show up exactly once.
    const file = path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    writeOmcJson(file, { ...v, iteration: 4 });
    await waitFor(() => lines().some((l) => l.type === 'transition' && l.kind === 'iteration'), {
      timeoutMs: 30_000,
      what: 'iteration transition',
    });
    writeOmcJson(file, { ...v, iteration: 4, prompt: 'same loop, other text' });
    writeOmcJson(file, { ...v, iteration: 10 });
    await waitFor(() => lines().some((l) => l.news === 'max iterations reached'), {
      timeoutMs: 30_000,
      what: 'max reached',
    });
    const ready = snap.find((l) => l.type === 'ready') as Record<string, unknown>;
    const attention = snap.find((l) => l.type === 'attention') as Record<string, unknown>;
    expect(attention.needsYou).toBe(ready.needsYou);
    const exit = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);

    const all = lines();
    const iter = all.filter((l) => l.type === 'transition' && l.kind === 'iteration');
    expect(iter.map((l) => [l.from, l.to])).toEqual([
      ['3', '4'],
      ['4', '10'],
    ]);
    expect(all.filter((l) => l.news === 'max iterations reached' && l.type === 'transition')).toHaveLength(1);
    // News is never counted: no attention line moved for it.
    expect(all.filter((l) => l.type === 'attention').map((l) => l.needsYou)).toEqual([ready.needsYou]);
    for (const l of all) expect(Object.keys(l).sort(), JSON.stringify(l)).toEqual(expected(rows, l));
    // No raw control byte anywhere in the stream.

    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(out)).toBe(false);
  });

  it('on a quiet project, says it is alive every 5 s and ends soon after its reader goes (| head -1)', async ({
    project: p,
  }) => {
    const rows = schema();
    child = spawn(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), 'watch', '--json', '--snapshot'], {
      cwd: p.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', XDG_STATE_HOME: path.join(p.dir, 'xdg-state') },
    });
    const exit = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const lines = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: 'ready line' });
    // Nothing changes on disk from here: the only line that can come is the one that tests the pipe.
    const alive = await waitFor(() => lines().find((l) => l.type === 'alive'), {
      timeoutMs: 20_000,
      what: 'an alive line',
    });
    expect(Object.keys(alive).sort()).toEqual(expected(rows, alive));
    // The reader goes (as `head -1` does after its line): the next alive line meets a closed pipe and the watch ends.
    child.stdout?.destroy();
    expect(await exit).toBe(0);
  });

  it('exits 2 without --json, and 2 when there is no .omc', async () => {
    const { runWatchCommand } = await import('../../src/commands/watch.js');
    await expect(runWatchCommand([])).rejects.toThrow(/--json/);
    const dir = fs.mkdtempSync(path.join(REPO, '..', 'omc-top-nowatch-'));
    try {
      let err = '';
      const code = await runWatchCommand(['--json', '--root', path.join(dir, '.omc')], {
        out: () => {},
        err: (s) => void (err += s),
        cwd: dir,
        now: Date.now,
        stopped: Promise.resolve(),
      });
      expect(code).toBe(2);
      expect(err).toMatch(/no \.omc/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
