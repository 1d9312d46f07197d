/**
 * omc-top run as another user than the one whose OMC wrote the tree (OMC writes its files mode 0600): a loop file
 * it may not read, and a session directory it may not list, are unknown on every surface of the bundle (`status`,
 * `status --tmux`, `--json`, `watch --json`, the monitor's row and header), never absent; once the owner makes them
 * readable, the running monitor and the stream show the loops again without a restart. As root (CI) the bundle
 * runs as nobody (setpriv), since root reads through any permission bits; otherwise the files are chmod 000.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from '../helpers/it.js';
import { liveRalph, ralphStateFile, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const AS_NOBODY = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];

const S = 'a1b2c3d4-0000-4000-8000-0000000000a1'; // its ralph file may not be read
const D = 'a1b2c3d4-0000-4000-8000-0000000000d2'; // its directory may not be listed
const R = 'a1b2c3d4-0000-4000-8000-0000000000f3'; // readable: a live loop seen as it is

interface Scene {
  dir: string;
  root: string;
  file: string;
  sessionDir: string;
  env: Record<string, string>;
  /** What the owner does to give the reader its files back. */
  giveBack(): void;
}

/** A project whose .omc the reader may read, except S's ralph file and D's directory (the owner's, 0600 / 0700). */
function scene(tempDir: (prefix?: string) => string): Scene {
  const dir = tempDir('omc-top-perm-');
  fs.chmodSync(dir, 0o755);
  const root = path.join(dir, '.omc');
  const file = writeLiveRalph({ root }, { sessionId: S, iteration: 3, max: 10, projectPath: dir });
  writeLiveRalph({ root }, { sessionId: D, iteration: 1, max: 10, projectPath: dir });
  writeLiveRalph({ root }, { sessionId: R, iteration: 2, max: 5, projectPath: dir });
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  const sessionDir = path.join(root, 'state', 'sessions', D);
  if (asRoot) {
    // The reader (nobody) owns the tree and its own home; the owner (root here) keeps these two for itself.
    spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir]);
    fs.chownSync(file, 0, 0);
    fs.chmodSync(file, 0o600);
    fs.chownSync(sessionDir, 0, 0);
    fs.chmodSync(sessionDir, 0o700);
  } else {
    fs.chmodSync(file, 0o000);
    fs.chmodSync(sessionDir, 0o000);
  }
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_STATE_HOME: path.join(home, 'state'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    CLAUDE_CONFIG_DIR: path.join(home, 'no-claude'),
    CLAUDE_PLUGIN_ROOT: '',
    OMC_TOP_CODE_CACHE: '0',
  };
  return {
    dir,
    root,
    file,
    sessionDir,
    env,
    giveBack() {
      fs.chmodSync(file, 0o644);
      fs.chmodSync(sessionDir, 0o755);
    },
  };
}

/**
 * The bundle where the reader may read it: a clean clone made under `mktemp -d` (0700, as CI does) is closed to
 * nobody, so under root the bundle runs from a world-readable copy.
 */
const READER_BIN = ((): string => {
  if (!asRoot) return BIN;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bin-'));
  fs.chmodSync(dir, 0o755);
  for (const f of fs.readdirSync(path.dirname(BIN)).filter((n) => n.endsWith('.mjs'))) {
    fs.copyFileSync(path.join(path.dirname(BIN), f), path.join(dir, f));
    fs.chmodSync(path.join(dir, f), 0o755);
  }
  return path.join(dir, path.basename(BIN));
})();
afterAll(() => {
  if (READER_BIN !== BIN) fs.rmSync(path.dirname(READER_BIN), { recursive: true, force: true });
});

/** The bundle as the reader: nobody under root, this user otherwise. */
const command = (args: string[]): [string, string[]] =>
  asRoot
    ? [AS_NOBODY[0]!, [...AS_NOBODY.slice(1), process.execPath, READER_BIN, ...args]]
    : [process.execPath, [READER_BIN, ...args]];

function run(sc: Scene, args: string[]) {
  const [file, argv] = command(args);
  return spawnSync(file, argv, { cwd: sc.dir, env: sc.env, encoding: 'utf8', timeout: scaled(60_000) });
}

interface JsonDoc {
  sessions: {
    id: string;
    status: string;
    unreadable: string[];
    verdict: { decision: string; rule: string; detail: string } | null;
    modes: { mode: string; status: string }[];
  }[];
  problems: { path: string; message: string }[];
  attention: { needs_you: number; items: { kind: string; session: string; path: string }[] };
}

describe('a tree omc-top may not fully read (OMC writes 0600; omc-top runs as another user)', () => {
  it('status, status --tmux and --json say unknown, never "no loops" or "not enforced"; all is back once readable', ({
    tempDir,
  }) => {
    const sc = scene(tempDir);
    const line = run(sc, ['status']);
    expect(line.stderr).toBe('');
    expect(line.stdout).toBe('ralph 2/5 ? 2 unreadable · needs you: 2\n');
    expect(run(sc, ['status', '--tmux']).stdout).toBe('ralph 2/5 ? 2 unreadable · needs you: 2\n');
    expect(run(sc, ['status', '--format', '{active}']).stdout).toBe('1\n');

    const r = run(sc, ['--json']);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout) as JsonDoc;
    // Every session is there, the one whose directory could not be listed included.
    expect(doc.sessions.map((s) => s.id).sort()).toEqual([S, D, R].sort());
    const s = doc.sessions.find((x) => x.id === S)!;
    expect(s).toMatchObject({
      status: 'unreadable',
      unreadable: [`state/sessions/${S}/ralph-state.json`],
      verdict: { decision: 'unknown', rule: 'omc-top-cannot-read' },
      modes: [{ mode: 'ralph', status: 'unreadable' }],
    });
    expect(doc.sessions.find((x) => x.id === D)).toMatchObject({
      status: 'unreadable',
      unreadable: [`state/sessions/${D}`],
      verdict: { decision: 'unknown' },
      modes: [],
    });
    expect(doc.sessions.find((x) => x.id === R)).toMatchObject({
      status: 'enforced',
      unreadable: [],
      verdict: { decision: 'block' },
    });
    // The problem lines that say why stay, and the attention items point at what to fix.
    for (const p of [`state/sessions/${S}/ralph-state.json`, `state/sessions/${D}`])
      expect(doc.problems.find((x) => x.path === p)?.message).toMatch(
        /permission denied .*run omc-top as the same user/,
      );
    expect(doc.attention.needs_you).toBe(2);
    expect(doc.attention.items.map((i) => [i.kind, i.session, i.path]).sort()).toEqual(
      [
        ['unreadable', S, `state/sessions/${S}/ralph-state.json`],
        ['unreadable', D, `state/sessions/${D}`],
      ].sort(),
    );

    sc.giveBack();
    // Three loops seen (the first in the sessions' order, and a count of the others), nothing unknown left.
    expect(run(sc, ['status', '--format', '{active} {loops} · {needs}']).stdout).toMatch(
      /^3 ralph \d+\/\d+ \+2 · 0\n$/,
    );
    const after = JSON.parse(run(sc, ['--json']).stdout) as JsonDoc;
    expect(after.sessions.map((x) => [x.id, x.status, x.unreadable]).sort()).toEqual(
      [
        [S, 'enforced', []],
        [D, 'enforced', []],
        [R, 'enforced', []],
      ].sort(),
    );
  });

  it('a running watch --json says unreadable, then present again once the owner gives the files back', async ({
    tempDir,
  }) => {
    const sc = scene(tempDir);
    const [file, argv] = command(['watch', '--json', '--snapshot', '--rows']);
    const child = spawn(file, argv, { cwd: sc.dir, env: sc.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    try {
      const lines = () =>
        out
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      await waitFor(() => lines().some((l) => l.type === 'ready'), { what: 'ready', timeoutMs: 30_000 });
      const snap = (kind: string, key: string) =>
        lines().find((l) => l.type === 'snapshot' && l.kind === kind && l.key === key)?.value;
      expect(snap('session', S)).toBe('unreadable');
      expect(snap('session', D)).toBe('unreadable');
      expect(snap('mode-status', `${S}/ralph`)).toBe('unreadable');
      const row = (id: string) =>
        lines()
          .filter((l) => l.type === 'row' && l.session === id)
          .at(-1)?.row as { status: string; modes: string } | undefined;
      expect(row(S)).toMatchObject({ status: 'unreadable', modes: 'ralph ? (unreadable)' });
      expect(row(D)).toMatchObject({ status: 'unreadable', modes: '? (unreadable)' });
      sc.giveBack();
      const moved = (key: string, to: string) =>
        lines().some((l) => l.type === 'transition' && l.kind === 'session' && l.key === key && l.to === to);
      await waitFor(() => moved(S, 'present') && moved(D, 'present'), {
        what: 'both present again',
        timeoutMs: 15_000,
      });
      await waitFor(() => row(S)?.status === 'enforced' && row(D)?.status === 'enforced', { what: 'rows enforced' });
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('the monitor: the row keeps the mode it could not read, the header counts every session, and it recovers live', async ({
    tempDir,
    pty,
  }) => {
    const sc = scene(tempDir);
    const t = pty({
      cwd: sc.dir,
      cols: 100,
      rows: 24,
      env: { ...sc.env, XDG_STATE_HOME: sc.env.XDG_STATE_HOME, XDG_CACHE_HOME: sc.env.XDG_CACHE_HOME },
      bin: READER_BIN,
      ...(asRoot ? { wrap: AS_NOBODY } : {}),
    });
    await t.waitForText(/unreadable\s+a1b2c3d4\s+ralph \? \(unreadable\)/, 30_000);
    const screen = t.text();
    expect(screen).toMatch(/unreadable\s+a1b2c3d4\s+\? \(unreadable\)/);
    expect(screen).toMatch(/3 sess · 1 running · 2 unreadable/);
    expect(screen).not.toMatch(/not enforced/);
    // One directory it may not watch is no reason to poll the whole tree.
    expect(screen).not.toMatch(/POLLING|file watching failed/);
    sc.giveBack();
    await t.waitForNoText(/unreadable/, 15_000);
    expect(t.text()).toMatch(/3 sess · 3 running/);
    t.write('q');
    expect(await t.waitForExit()).toBe(0);
  });

  it('the monitor: a notepad.md it may not read has counts of "?", says its entries are not known, offers no a', async ({
    tempDir,
    pty,
  }) => {
    const sc = scene(tempDir);
    const notepad = path.join(sc.root, 'notepad.md');
    fs.writeFileSync(notepad, '# Notepad\n\n## Working Memory\n### 2026-12-01 10:00\nan entry\n');
    if (asRoot) {
      fs.chownSync(notepad, 0, 0);
      fs.chmodSync(notepad, 0o600);
    } else fs.chmodSync(notepad, 0o000);
    const t = pty({
      cwd: sc.dir,
      cols: 100,
      rows: 24,
      env: sc.env,
      bin: READER_BIN,
      ...(asRoot ? { wrap: AS_NOBODY } : {}),
    });
    await t.waitForText('ralph', 30_000);
    t.write('n');
    await t.waitForText('notepad.md cannot be read right now', 15_000);
    t.write('2');
    const screen = await t.waitForText('Entries not known: notepad.md cannot be read');
    expect(screen).toMatch(/1 Priority \?\/500/);
    expect(screen).toMatch(/2 Working \?/);
    expect(screen).toMatch(/3 MANUAL \?/);
    expect(screen).not.toMatch(/No entries|a adds one|Working 0|MANUAL 0/);
    const footer =
      t
        .screen()
        .filter((l) => l.trim())
        .at(-1) ?? '';
    expect(footer).not.toMatch(/\ba add\b/);
    // Pressed anyway, a still says why nothing will be written.
    t.write('a');
    await t.waitForText('nothing will be written');
    t.write('q');
    expect(await t.waitForExit()).toBe(0);
  });

  it('the monitor: a root made unreadable while watched keeps its loop, unknown, and says so once; no "loop stopped"', async ({
    tempDir,
    pty,
  }) => {
    const sc = scene(tempDir);
    sc.giveBack(); // every file readable: the monitor sees the three loops as they are
    const t = pty({
      cwd: sc.dir,
      cols: 110,
      rows: 24,
      env: sc.env,
      bin: READER_BIN,
      ...(asRoot ? { wrap: AS_NOBODY } : {}),
    });
    await t.waitForText(/3 sess · 3 running/, 30_000);
    await t.waitForText(/ live\s*$/m, 30_000); // everything read once and watched
    // The owner closes the root (a chmod: the reader may no longer search it).
    fs.chmodSync(sc.root, 0o000);
    try {
      await t.waitForText(/3 sess · 0 running · 3 unreadable/, 15_000);
      // One item: the root's (not one per session).
      await t.waitForText(/needs you: 1 /, 15_000);
      const screen = t.text();
      expect(screen).toMatch(/unreadable\s+a1b2c3d4\s+ralph 3\/10 \(unreadable\)/);
      expect(screen).not.toMatch(/loop stopped|No sessions yet/);
    } finally {
      fs.chmodSync(sc.root, 0o755);
    }
    await t.waitForText(/3 sess · 3 running/, 15_000);
    expect(t.text()).not.toMatch(/loop stopped/);
    // Back on events as before the chmod (the watches it refused are had again), not polling from now on.
    await t.waitForText(/ live\s*$/m, 15_000);
    expect(t.text()).not.toMatch(/POLLING/);
    // Written in place, as the reader's own file stays the reader's (a new file from here would be root's 0600).
    fs.writeFileSync(
      ralphStateFile(sc.root, R),
      JSON.stringify(liveRalph({ sessionId: R, iteration: 4, max: 5, projectPath: sc.dir })),
    );
    await t.waitForText(/a1b2c3d4\s+ralph 4\/5/, 15_000);
    expect(t.text()).toMatch(/ live\s*$/m);
    t.write('q');
    expect(await t.waitForExit()).toBe(0);
  });
  it('the monitor: a watched session directory closed (chmod 000) is unreadable on screen and in status --tmux', async ({
    tempDir,
    pty,
  }) => {
    const sc = scene(tempDir);
    sc.giveBack();
    const t = pty({
      cwd: sc.dir,
      cols: 110,
      rows: 24,
      env: sc.env,
      bin: READER_BIN,
      ...(asRoot ? { wrap: AS_NOBODY } : {}),
    });
    await t.waitForText(/3 sess · 3 running/, 30_000);
    await t.waitForText(/ live\s*$/m, 30_000);
    // The owner closes one session directory (its watch stays on it; only its mode changes).
    fs.chmodSync(sc.sessionDir, 0o000);
    try {
      await t.waitForText(/3 sess · .*1 unreadable/, 15_000);
      await t.waitForText(/needs you: 1 /, 15_000);
      // Its row keeps the loop last read, marked unreadable (the last-good rule), not the verdict it had.
      expect(t.text()).toMatch(/unreadable\s+a1b2c3d4\s+ralph 1\/10/);
      expect(t.text()).toMatch(/state\/sessions\/a1b2c3d4-0000-4000-8000-0000000000d2: permission denied/);
      // status --tmux reads what the monitor published: the same count, not the verdict from before the chmod.
      await waitFor(() => /needs you: 1/.test(run(sc, ['status', '--tmux']).stdout), {
        what: 'status --tmux: needs you: 1',
        timeoutMs: 15_000,
      });
    } finally {
      fs.chmodSync(sc.sessionDir, 0o755);
    }
    await t.waitForText(/3 sess · 3 running/, 15_000);
    t.write('q');
    expect(await t.waitForExit()).toBe(0);
  });

  it('the monitor: a root it may not read offers no write key in any pane; pressed, one says why; offered once readable', async ({
    tempDir,
    pty,
  }) => {
    const sc = scene(tempDir);
    sc.giveBack();
    // The owner closes `.omc` itself before the monitor starts: nothing under it can be read, nor written.
    if (asRoot) {
      fs.chownSync(sc.root, 0, 0);
      fs.chmodSync(sc.root, 0o700);
    } else fs.chmodSync(sc.root, 0o000);
    const t = pty({
      cwd: sc.dir,
      cols: 100,
      rows: 24,
      env: sc.env,
      bin: READER_BIN,
      ...(asRoot ? { wrap: AS_NOBODY } : {}),
    });
    const footer = () =>
      t
        .screen()
        .filter((l) => l.trim())
        .at(-1) ?? '';
    try {
      await t.waitForText(/\.omc: permission denied/, 30_000);
      t.write('m');
      await t.waitForText(/m:Memory/);
      expect(footer()).toMatch(/preview/);
      expect(footer()).not.toMatch(/\ba add\b|\be edit\b|\bd remove\b/);
      t.write('a');
      await t.waitForText(/\.omc cannot be read \(permission denied.*\s*.*nothing will be written/);
      expect(t.text()).not.toMatch(/New directive|Add a directive/i);
      t.write('n');
      await t.waitForText(/n:Notepad/);
      expect(footer()).not.toMatch(/\bedit\b|\bclear\b/);
      t.write('2');
      await t.waitForText(/2 Working \?/);
      expect(footer()).not.toMatch(/\ba add\b|\bdel\b|\bprune\b/);
      // The wiki under it is not known, never "no wiki yet".
      t.write('w');
      await t.waitForText(/Pages not known: \.omc cannot be read/);
      t.write('m');
      await t.waitForText(/m:Memory/);
    } finally {
      fs.chmodSync(sc.root, 0o755);
    }
    // Readable again (the watcher follows the root): the keys are offered without a restart.
    await t.waitForText(/m:Memory.*\ba add\b/, 15_000);
    t.write('q');
    expect(await t.waitForExit()).toBe(0);
  });
});
