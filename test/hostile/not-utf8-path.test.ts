/**
 * A project whose path is not valid UTF-8 (a byte 0xff in a directory name), holding the real-OMC fixture `.omc`
 * (a ralph session among others). Node hands omc-top that path as text with U+FFFD for the bad byte, and the text
 * names no file; omc-top recovers the bytes (/proc/self/cwd, /proc/self/cmdline), holds the directory open by
 * them and monitors it. Every surface shows the path with the byte as \xff (never raw, never U+FFFD, never the
 * /proc/self/fd/N it is reached by). Each way in is driven through the real bundle: the current directory,
 * --cwd, --cwd=, --root; `--json`, `status`, `status --tmux`, `watch --json`, `cancel` and the monitor in a pty.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, NO_CLAUDE_DIR, REPO, SESSION, waitFor, type TempProject } from '../helpers/fixtures.js';
import { TerminalHarness } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const BIN = path.join(REPO, 'dist', 'omc-top.mjs');
let p: TempProject | null = null;
let bad: Buffer | null = null;
let h: TerminalHarness | null = null;
/** A directory of this test's own, holding only the project (other tests and users share the temp dir). */
let parent: string | null = null;

afterEach(() => {
  h?.dispose();
  h = null;
  if (parent) fs.rmSync(parent, { recursive: true, force: true });
  parent = null;
  bad = null;
  p?.cleanup();
  p = null;
});

/** The fixture project moved to `<parent>/proj-\xff`; returns the shell's way to that name ($0 is `<parent>`). */
function badProject(): string {
  p = makeProject({ withFixture: true });
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bytes-'));
  bad = Buffer.concat([Buffer.from(`${parent}/proj-`), Buffer.from([0xff])]);
  fs.renameSync(p.dir, bad);
  return `"$(printf '%s/proj-\\377' "$0")"`;
}

/** The project's path as omc-top must show it: the byte as the four characters \xff. */
const shown = () => `${parent as string}/proj-\\xff`;
/** A path under the project's .omc, as bytes. */
const under = (rel: string) => Buffer.concat([bad as Buffer, Buffer.from(`/.omc/${rel}`)]);

const ENV = { ...process.env, BIN, CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR };

/** Runs `script` in sh with $0 = the project's parent; `node "$BIN"` is omc-top. */
function sh(script: string) {
  const r = spawnSync('sh', ['-c', script, parent ?? (p as TempProject).dir], {
    encoding: 'utf8',
    env: ENV,
    timeout: scaled(30_000),
  });
  return { code: r.status, err: r.stderr, out: r.stdout };
}

/** Nothing that stands for the path in another way: no U+FFFD, no raw byte, no /proc/self/fd/N. */
function expectNoOtherForm(text: string, what: string): void {
  expect(text, what).not.toContain('\ufffd');
  expect(text, what).not.toContain('/proc/self/fd/');
}

const RALPH_STATE = `state/sessions/${SESSION.ralph}/ralph-state.json`;

describe('a project path that is not UTF-8 is monitored', () => {
  it(
    'the current directory, --cwd, --cwd= and --root: --json is valid JSON naming the root with \\xff; status and status --tmux answer',
    { timeout: scaled(90_000) },
    () => {
      const dir = badProject();
      for (const run of [
        `cd ${dir} && exec node "$BIN" --json`,
        `exec node "$BIN" --json --cwd ${dir}`,
        `exec node "$BIN" --json --cwd=${dir}`,
        `exec node "$BIN" --json --root ${dir}/.omc`,
        `cd ${dir}/.omc/state && exec node "$BIN" --json`,
      ]) {
        const r = sh(run);
        expect(r.err, run).toBe('');
        expect(r.code, run).toBe(0);
        expectNoOtherForm(r.out, run);
        const doc = JSON.parse(r.out) as { root: string; sessions: Array<{ id: string }> };
        expect(doc.root, run).toBe(`${shown()}/.omc`);
        expect(
          doc.sessions.map((s) => s.id),
          run,
        ).toContain(SESSION.ralph);
      }
      for (const run of [
        `cd ${dir} && exec node "$BIN" status`,
        `exec node "$BIN" status --cwd ${dir}`,
        `cd ${dir} && exec node "$BIN" status --tmux`,
      ]) {
        const r = sh(run);
        expect(r.err, run).toBe('');
        expect(r.code, run).toBe(0);
        expect(r.out, run).toMatch(/needs you: 1/);
      }
    },
  );

  it(
    'watch --json --snapshot: valid JSON lines whose project is the name with \\xff, and a change on disk arrives',
    { timeout: scaled(60_000) },
    async () => {
      const dir = badProject();
      const child = spawn('sh', ['-c', `exec node "$BIN" watch --json --snapshot --cwd ${dir}`, parent as string], {
        env: ENV,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
      let exited: number | null = null;
      child.on('exit', (code) => (exited = code ?? -1));
      try {
        // An exit (the old refusal) ends the wait at once.
        await waitFor(() => out.includes(`"session":"${SESSION.ralph}"`) || exited !== null, {
          timeoutMs: 20_000,
          what: 'snapshot',
        });
        expect(exited, err).toBeNull();
        // A change made by its bytes is seen through the held directory's watches.
        fs.rmSync(under(RALPH_STATE));
        await waitFor(() => /"type":"transition"[^\n]*"session":"88727f43/.test(out), {
          timeoutMs: 20_000,
          what: 'the removal as a transition',
        });
      } finally {
        child.kill('SIGTERM');
      }
      expect(err).toBe('');
      const lines = out.trim().split('\n');
      for (const line of lines) {
        expectNoOtherForm(line, line);
        expect((JSON.parse(line) as { project: string }).project).toBe(`${path.basename(shown())}`);
      }
    },
  );

  it('cancel lands inside that directory and nowhere else', { timeout: scaled(60_000) }, () => {
    const dir = badProject();
    const siblings = () => fs.readdirSync(parent as string, { encoding: 'buffer' }).map((b) => b.toString('latin1'));
    const before = siblings();
    const r = sh(`exec node "$BIN" cancel ${SESSION.ralph} --cwd ${dir}`);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expectNoOtherForm(r.out, 'cancel');
    expect(r.out).toContain(`removed  ${RALPH_STATE}`);
    expect(fs.existsSync(under(RALPH_STATE))).toBe(false);
    const signal = JSON.parse(
      fs.readFileSync(under(`state/sessions/${SESSION.ralph}/cancel-signal-state.json`), 'utf8'),
    ) as { source?: string };
    expect(signal.source).toBe('omc-top');
    // No U+FFFD-named twin of the project (what a write by the lossy text would have made), nothing else new.
    expect(siblings()).toEqual(before);
  });

  it(
    'the monitor, started in that directory and with --cwd: the ralph row and the path with \\xff',
    { timeout: scaled(90_000) },
    async () => {
      // The sh of the harness's wrap has node as its $0: the parent comes in $P0.
      const dir = badProject().replace('"$0"', '"$P0"');
      const stateHome = path.join(parent as string, 'state');
      // omc-top's status cache for this root (what `status --tmux` reads in another process): named by the bytes.
      const digest = createHash('sha256')
        .update(Buffer.concat([bad as Buffer, Buffer.from('/.omc')]))
        .digest('hex')
        .slice(0, 16);
      const cache = path.join(stateHome, 'omc-top', `status-${digest}.json`);
      for (const [tail, iteration] of [
        ['', 8],
        [` --cwd ${dir}`, 9],
      ] as const) {
        const into = tail === '' ? `cd ${dir} && ` : '';
        // node-pty takes text arguments only: sh makes the bytes.
        h = new TerminalHarness({
          cols: 120,
          rows: 30,
          env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR, P0: parent as string, XDG_STATE_HOME: stateHome },
          wrap: ['sh', '-c', `${into}exec "$0" "$@"${tail}`],
        });
        const screen = await h.waitForText(SESSION.ralph.slice(0, 8), 30_000);
        expectNoOtherForm(screen, `monitor${tail}`);
        await h.waitForText(path.basename(shown()), 10_000);
        // A change by the bytes reaches the screen: the watches hold through /proc/self/fd.
        const state = JSON.parse(fs.readFileSync(under(RALPH_STATE), 'utf8')) as Record<string, unknown>;
        fs.writeFileSync(under(RALPH_STATE), JSON.stringify({ ...state, iteration }, null, 2));
        await h.waitForText(new RegExp(`88727f43-cac5-4a ralph ${iteration}/10`), 20_000);
        const cached = await waitFor(
          () => fs.existsSync(cache) && (JSON.parse(fs.readFileSync(cache, 'utf8')) as { root: string }),
          {
            timeoutMs: 20_000,
            what: 'the status cache',
          },
        );
        expect(cached.root).toBe(`${shown()}/.omc`);
        h.write('q');
        await h.waitForExit(20_000);
        h.dispose();
        h = null;
      }
    },
  );

  it('a path whose bytes name nothing is refused in true words, with \\xff', () => {
    badProject();
    const r = sh(`exec node "$BIN" status --cwd "$(printf '%s/gone-\\377' "$0")"`);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`the directory ${parent as string}/gone-\\xff is not valid UTF-8`);
    expect(r.err).not.toMatch(/git (is not installed|failed)|no \.omc directory found/);
  });

  it(
    'a name holding U+FFFD itself (valid UTF-8) is monitored as before',
    () => {
      p = makeProject({ withFixture: true, prefix: 'omc-top-\ufffd-' });
      const r = sh(`exec node "$BIN" --json --cwd "$0"`);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toContain('\ufffd');
    },
    scaled(30_000),
  );
});
