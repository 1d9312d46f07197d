/**
 * `watch --json --rows` (the bundle, pipes): every session's row before
 * `ready`, a new row line when a session changes, `row: null` when it goes,
 * each row accepted by the receiving side's schema, `ready` carrying the version.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { ROW_SCHEMA } from '../../src/feeds/row.js';
import { REPO, SESSION, waitFor, writeOmcJson } from '../helpers/fixtures.js';

let child: ChildProcess | null = null;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
});

describe('omc-top watch --json --rows', () => {
  it('sends each session row before ready, and again when it changes or goes', async ({ project: p }) => {
    child = spawn(
      process.execPath,
      [path.join(REPO, 'dist', 'omc-top.mjs'), 'watch', '--json', '--snapshot', '--rows'],
      {
        cwd: p.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CLAUDE_CONFIG_DIR: path.join(p.dir, 'no-claude') },
      },
    );
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const lines = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, any>);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: 'ready' });
    const first = lines();
    const readyAt = first.findIndex((l) => l.type === 'ready');
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(first[readyAt]?.version).toBe(pkg.version);
    const rows = first.slice(0, readyAt).filter((l) => l.type === 'row');
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows) {
      expect(Object.keys(r).sort()).toEqual(['at', 'project', 'row', 'session', 'sessionless', 'type', 'v']);
      expect(ROW_SCHEMA.safeParse(r.row).success, JSON.stringify(r.row)).toBe(true);
      // The line and its row say the same; the session-less state (the fixture's state/ files) reads "legacy".
      expect(r.row.sessionless).toBe(r.sessionless);
      if (r.sessionless) expect(r.session).toBe('legacy');
    }
    expect(rows.filter((r) => r.sessionless === true)).toHaveLength(1);
    const ralph = rows.find((r) => r.session === SESSION.ralph);
    expect(ralph?.row.modes).toContain('ralph 3/10');

    const file = path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
    writeOmcJson(file, { ...JSON.parse(fs.readFileSync(file, 'utf8')), iteration: 5 });
    await waitFor(() => lines().some((l) => l.type === 'row' && l.row?.modes.includes('ralph 5/10')), {
      timeoutMs: 30_000,
      what: 'changed row',
    });
    fs.rmSync(path.join(p.root, 'state', 'sessions', SESSION.ralph), { recursive: true });
    await waitFor(() => lines().some((l) => l.type === 'row' && l.session === SESSION.ralph && l.row === null), {
      timeoutMs: 30_000,
      what: 'gone row',
    });
  });
});
