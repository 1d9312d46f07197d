/**
 * `omc-top watch --json` as scripts run it: the bundle, pipes, no terminal.
 * Every line must match the schema table in docs/attention.md; a change on
 * disk is one transition line; a loop at its max is news, not counted;
 * SIGTERM ends it with status 0.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, onTestFinished } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import {
  FIXTURE_TREE,
  REPO,
  SESSION,
  ralphStateFile,
  waitFor,
  writeLiveRalph,
  writeOmcJson,
} from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { installPlugin, omc55Root, pluginWorld } from '../helpers/omc-plugin.js';

/**
 * `rm -rf <root>` at a loaded machine's pace, as a script for `node -e <script> <root> <first session ids…>`: the named
 * session directories, then every other one 5 ms apart (a pause that is the removal's pace, not a wait for anything),
 * then the rest of the tree.
 */
const SLOW_RM = `
const fs = require('node:fs'), path = require('node:path');
const [root, ...first] = process.argv.slice(1);
const sessions = path.join(root, 'state', 'sessions');
const pause = new Int32Array(new SharedArrayBuffer(4));
const names = [...first, ...fs.readdirSync(sessions).filter((n) => !first.includes(n))];
for (const n of names) {
  fs.rmSync(path.join(sessions, n), { recursive: true });
  Atomics.wait(pause, 0, 0, 5);
}
fs.rmSync(root, { recursive: true });
`;

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
  // A field the table describes twice (`row`: the line's field and its value) is one key of the line.
  const fields = rows
    .filter(
      (r) =>
        r.in === 'all' || r.in.split(', ').includes(String(line.type)) || r.in.includes(`\`${String(line.kind)}\``),
    )
    .filter((r) => !(r.in.includes('kinds') && (line.type === 'ready' || line.type === 'attention')))
    .map((r) => r.field);
  return [...new Set(fields)].sort();
}

/** `watch --json --snapshot` (and `extra`) of the bundle on pipes, as scripts run it: its lines so far, and stderr. */
function watchPiped(dir: string, extra: string[] = [], env: Record<string, string> = {}) {
  const c = spawn(
    process.execPath,
    [path.join(REPO, 'dist', 'omc-top.mjs'), 'watch', '--json', '--snapshot', ...extra],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', XDG_STATE_HOME: path.join(dir, 'xdg-state'), ...env },
    },
  );
  child = c;
  const io = { out: '', err: '' };
  c.stdout?.on('data', (d: Buffer) => (io.out += d.toString('utf8')));
  c.stderr?.on('data', (d: Buffer) => (io.err += d.toString('utf8')));
  // Complete lines only: a line longer than a pipe's atomic write can arrive in pieces.
  const lines = () =>
    io.out
      .slice(0, io.out.lastIndexOf('\n') + 1)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child: c, io, lines };
}

describe('omc-top watch --json', () => {
  it('prints the documented lines, one transition per change, and exits 0 on SIGTERM', async ({ project: p }) => {
    const rows = schema();
    const { io, lines } = watchPiped(p.dir);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: `ready line (${io.err})` });
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
    await waitFor(() => lines().some((l) => l.news === 'max reached, OMC extends it (+10)'), {
      timeoutMs: 30_000,
      what: 'max reached',
    });
    const ready = snap.find((l) => l.type === 'ready') as Record<string, unknown>;
    const attention = snap.find((l) => l.type === 'attention') as Record<string, unknown>;
    expect(attention.needsYou).toBe(ready.needsYou);
    const exit = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));
    child?.kill('SIGTERM');
    expect(await exit).toBe(0);

    const all = lines();
    const iter = all.filter((l) => l.type === 'transition' && l.kind === 'iteration');
    expect(iter.map((l) => [l.from, l.to])).toEqual([
      ['3', '4'],
      ['4', '10'],
    ]);
    expect(all.filter((l) => l.news === 'max reached, OMC extends it (+10)' && l.type === 'transition')).toHaveLength(
      1,
    );
    // News is never counted: no attention line moved for it.
    expect(all.filter((l) => l.type === 'attention').map((l) => l.needsYou)).toEqual([ready.needsYou]);
    for (const l of all) expect(Object.keys(l).sort(), JSON.stringify(l)).toEqual(expected(rows, l));
    // No raw control byte anywhere in the stream.

    expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(io.out)).toBe(false);
  });

  it("a plugin update under the watch: one omc line in the monitor's words, then the re-judged loop", async ({
    project: p,
  }) => {
    const rows = schema();
    const config = path.join(p.dir, 'home', '.claude');
    const sid = 'aaaaaaaa-1111-4222-8333-444444444444';
    // What OMC 4.4.4's keyword hook writes for "ultrawork …": 4.4.4 enforces it, 5.5.0 retired it.
    writeOmcJson(path.join(p.root, 'state', 'sessions', sid, 'ultrawork-state.json'), {
      active: true,
      started_at: new Date(Date.now() - 60_000).toISOString(),
      original_prompt: 'ultrawork refactor the parser module',
      session_id: sid,
      reinforcement_count: 2,
      last_checked_at: new Date().toISOString(),
    });
    /** The registry as `claude plugin install` / `update` writes it, at one real OMC package. */
    const registry = (pkg: string) =>
      writeOmcJson(path.join(config, 'plugins', 'installed_plugins.json'), {
        version: 2,
        plugins: { 'oh-my-claudecode@omc': [{ scope: 'user', installPath: pkg, version: 'x' }] },
      });
    writeOmcJson(path.join(config, 'settings.json'), { enabledPlugins: { 'oh-my-claudecode@omc': true } });
    registry(OMC444);
    const env = { HOME: path.join(p.dir, 'home'), CLAUDE_CONFIG_DIR: config };
    const { io, lines } = watchPiped(p.dir, [], env);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: `ready line (${io.err})` });
    registry(OMC55); // `claude plugin update`
    const ended = (l: Record<string, unknown>) =>
      l.type === 'transition' && l.kind === 'mode' && l.key === `${sid}/ultrawork` && l.to === 'inactive';
    await waitFor(() => lines().some(ended), { timeoutMs: 30_000, what: `ultrawork re-judged (${io.out})` });
    const all = lines();
    const omc = all.filter((l) => l.type === 'omc');
    expect(omc).toHaveLength(1);
    expect(omc[0]).toMatchObject({
      message: 'OMC 5.5.0 now (was 4.4.4): verdicts re-judged',
      omc: { version: '5.5.0', assumed: false, rules: '5.5.0' },
    });
    expect(all.indexOf(omc[0] as Record<string, unknown>)).toBeLessThan(all.findIndex(ended));
    for (const l of all) expect(Object.keys(l).sort(), JSON.stringify(l)).toEqual(expected(rows, l));
  });

  it('a plugin update that moves the state (OMC_STATE_DIR: 4.4.4 ignores it, 5.5.0 keeps state there) is followed', async ({
    project: p,
    tempDir,
  }) => {
    const rows = schema();
    const w = pluginWorld(tempDir('omc-top-watch-moved-'));
    installPlugin(w.config, OMC444);
    const env = { ...w.env, OMC_STATE_DIR: path.join(w.home, 'central') };
    // Where OMC 5.5.0's own code keeps this project's state, with a ralph loop its hooks left there.
    const central = omc55Root(p.dir, env);
    const sid = 'bbbbbbbb-1111-4222-8333-444444444444';
    writeLiveRalph({ root: central }, { sessionId: sid, iteration: 3, max: 10, prompt: 'ralph in the central state' });
    const { io, lines } = watchPiped(p.dir, ['--rows'], env);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: `ready line (${io.err})` });
    expect(lines().some((l) => l.session === sid)).toBe(false);

    installPlugin(w.config, OMC55); // `claude plugin update`
    const movedLine = (l: Record<string, unknown>) => l.type === 'root' && l.was !== null;
    await waitFor(() => lines().some(movedLine), { timeoutMs: 30_000, what: `the root line (${io.out})` });
    // The move is told in many lines, each its own write (the root line, the old rows gone, the new rows, the new
    // root's facts, attention and state-dir): a reader can be handed the stream between any two of them. The
    // state-dir line ends them (docs/scripting.md): wait for it, then everything asserted below has arrived.
    const moveTold = () => {
      const all = lines();
      const at = all.findIndex(movedLine);
      return at >= 0 && all.slice(at).some((l) => l.type === 'state-dir');
    };
    await waitFor(moveTold, { timeoutMs: 15_000, what: `the new root's snapshot (${io.out})` });
    const all = lines();
    const at = all.findIndex(movedLine);
    expect(all[at]).toMatchObject({
      was: p.root,
      root: { path: central, present: true, problem: null },
      message: `state read from ${central} now (was ${p.root})`,
    });
    // Said once, after the omc line; the old root's rows said gone, the new root's facts and rows after it.
    expect(all.filter(movedLine)).toHaveLength(1);
    expect(all.findIndex((l) => l.type === 'omc')).toBeLessThan(at);
    const after = all.slice(at);
    expect(after.some((l) => l.type === 'row' && l.session === SESSION.ralph && l.row === null)).toBe(true);
    expect(after.some((l) => l.type === 'row' && l.session === sid && l.row !== null)).toBe(true);
    expect(after.some((l) => l.type === 'snapshot' && l.kind === 'mode' && l.key === `${sid}/ralph`)).toBe(true);
    expect(after.filter((l) => l.type === 'ready')).toHaveLength(0);

    // What changes there now is reported: the watch reads the new root.
    writeLiveRalph({ root: central }, { sessionId: sid, iteration: 4, max: 10, prompt: 'ralph in the central state' });
    const step = (l: Record<string, unknown>) =>
      l.type === 'transition' && l.kind === 'iteration' && l.session === sid && l.to === '4';
    await waitFor(() => lines().some(step), { timeoutMs: 15_000, what: `the iteration there (${io.out})` });
    for (const l of lines()) expect(Object.keys(l).sort(), JSON.stringify(l)).toEqual(expected(rows, l));
  });

  it("OMC_STATE_DIR written into the project's .claude/settings.json is followed there, and back when taken out", async ({
    project: p,
    tempDir,
  }) => {
    const rows = schema();
    const w = pluginWorld(tempDir('omc-top-watch-setting-'));
    installPlugin(w.config, OMC55);
    const base = path.join(w.home, 'central');
    // Where OMC 5.5.0's own code keeps this project's state once its hooks get OMC_STATE_DIR, with a loop there.
    const central = omc55Root(p.dir, { ...w.env, OMC_STATE_DIR: base });
    const sid = 'bbbbbbbb-1111-4222-8333-444444444444';
    writeLiveRalph({ root: central }, { sessionId: sid, iteration: 3, max: 10, prompt: 'ralph in the central state' });
    const { io, lines } = watchPiped(p.dir, ['--rows'], w.env);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: `ready line (${io.err})` });
    expect(lines().some((l) => l.session === sid)).toBe(false);

    // Claude Code gives its running hooks the new value at once: OMC writes under OMC_STATE_DIR from now on.
    const settings = path.join(p.dir, '.claude', 'settings.json');
    writeOmcJson(settings, { env: { OMC_STATE_DIR: base } });
    const movedTo = (to: string) => (l: Record<string, unknown>) =>
      l.type === 'root' && l.was !== null && (l.root as { path?: string }).path === to;
    // The move's lines end with the new root's state-dir line (docs/scripting.md).
    const told = (to: string) => () => {
      const all = lines();
      const at = all.findIndex(movedTo(to));
      return at >= 0 && all.slice(at).some((l) => l.type === 'state-dir');
    };
    await waitFor(told(central), { timeoutMs: 30_000, what: `the move to OMC_STATE_DIR (${io.out})` });
    let all = lines();
    expect(all.filter(movedTo(central))).toEqual([
      expect.objectContaining({
        was: p.root,
        message: `OMC_STATE_DIR set in the project's .claude/settings.json: state read from ${central} now (was ${p.root})`,
      }),
    ]);
    // The same OMC judges: no omc line.
    expect(all.filter((l) => l.type === 'omc')).toHaveLength(0);
    const after = all.slice(all.findIndex(movedTo(central)));
    expect(after.some((l) => l.type === 'row' && l.session === SESSION.ralph && l.row === null)).toBe(true);
    expect(after.some((l) => l.type === 'row' && l.session === sid && l.row !== null)).toBe(true);

    writeOmcJson(settings, {});
    await waitFor(told(p.root), { timeoutMs: 30_000, what: `the move back (${io.out})` });
    all = lines();
    expect(all.filter(movedTo(p.root))).toEqual([
      expect.objectContaining({
        was: central,
        message:
          `OMC_STATE_DIR no longer set in Claude's settings: state read from ${p.root} now (was ${central}); ` +
          `a Claude started before the change keeps writing under ${central} until it restarts`,
      }),
    ]);
    for (const l of lines()) expect(Object.keys(l).sort(), JSON.stringify(l)).toEqual(expected(rows, l));
  });

  it('.omc moved away, replaced by a file, removed: keeps running, says so in one root line each way, no loop "stopped"', async ({
    project: p,
  }) => {
    const rows = schema();
    // Into a file, as `omc-top watch --json > w.jsonl` runs: a pipe to a reader would keep the process alive
    // by itself, a file does not, so only the watch's own waiting for the root can.
    const outFile = path.join(p.dir, 'w.jsonl');
    const errFile = path.join(p.dir, 'w.err');
    const fds = [fs.openSync(outFile, 'w'), fs.openSync(errFile, 'w')];
    onTestFinished(() => fds.forEach((fd) => fs.closeSync(fd)));
    child = spawn(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), 'watch', '--json', '--snapshot'], {
      cwd: p.dir,
      stdio: ['ignore', fds[0], fds[1]],
      env: { ...process.env, NO_COLOR: '1', XDG_STATE_HOME: path.join(p.dir, 'xdg-state') },
    });
    const err = () => fs.readFileSync(errFile, 'utf8');
    /** Whole lines only (the file may end in one being written). */
    const lines = () => {
      const text = fs.readFileSync(outFile, 'utf8');
      return text
        .slice(0, text.lastIndexOf('\n') + 1)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    const root = (l: Record<string, unknown>) =>
      l.root as { path: string; present: boolean; problem: { code: string; message: string } | null };
    const alive = () => `exit ${child?.exitCode} ${child?.signalCode}; stderr: ${err()}`;
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: `ready line (${err()})` });
    // Into a file no alive line is written, and its ready line says so.
    expect(lines().find((l) => l.type === 'ready')).toMatchObject({ aliveMs: null });
    // An active ralph loop: the one whose "loop stopped" the root's absence must not be.
    expect(lines().find((l) => l.kind === 'mode' && l.session === SESSION.ralph)).toMatchObject({ value: 'active' });
    const file = path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    const away = path.join(p.dir, 'omc-away');
    /** Lines from `from` on until a root line matching `want`, waited for (a watch that has exited never writes it). */
    const untilRoot = (from: number, want: (r: ReturnType<typeof root>) => boolean, what: string) =>
      waitFor(
        () =>
          lines()
            .slice(from)
            .find((l) => l.type === 'root' && want(root(l))),
        {
          timeoutMs: 20_000,
          what: `${what} (${alive()})`,
        },
      );
    /** A change made now is reported: the watch follows the tree again (and every line before it is in). */
    const liveAgain = async (iteration: number) => {
      writeOmcJson(file, { ...v, iteration });
      await waitFor(() => lines().some((l) => l.kind === 'iteration' && l.to === String(iteration)), {
        timeoutMs: 20_000,
        what: `iteration ${iteration} after the root came back (${alive()})`,
      });
    };
    const between = (from: number) => {
      const all = lines().slice(from);
      const to = all.findIndex((l) => l.kind === 'iteration');
      return all.slice(0, to);
    };

    // Moved away, then back as it was: nothing happened to any loop, only to the root.
    let from = lines().length;
    const needsBefore = lines()
      .filter((l) => l.type === 'attention')
      .at(-1)?.needsYou;
    expect(needsBefore).toBeGreaterThan(0);
    fs.renameSync(p.root, away);
    const gone = await untilRoot(from, (r) => !r.present, 'root line: moved away');
    expect(root(gone)).toEqual({
      path: p.root,
      present: false,
      problem: { code: 'missing', message: `${p.root} is gone (moved away or removed); waiting for it to come back` },
    });
    // Still running a while later: its status file (what `status --tmux` answers from while its monitor runs) gets
    // the heartbeat it gets every 5 s, long after a watch with nothing left to hold it would have ended.
    const goneSeen = Date.now();
    const stateDir = path.join(p.dir, 'xdg-state', 'omc-top');
    const statusFile = () => fs.readdirSync(stateDir).find((n) => /^status-[0-9a-f]+\.json$/.test(n));
    await waitFor(
      () => {
        const name = statusFile();
        return name !== undefined && fs.statSync(path.join(stateDir, name)).mtimeMs >= goneSeen + 5_000;
      },
      { timeoutMs: 20_000, what: `a heartbeat 5 s after .omc went (${alive()})` },
    );
    expect(child.exitCode).toBeNull();
    fs.renameSync(away, p.root);
    await untilRoot(from, (r) => r.present, 'root line: back');
    await liveAgain(4);
    // Two root lines and nothing else: no transition, no "loop stopped" news. What needed the user under the root
    // is not counted while it is away (OMC's hooks find no state there either), and counts again once it is back.
    expect(between(from).map((l) => [l.type, l.type === 'attention' ? l.needsYou : root(l)?.present])).toEqual([
      ['root', false],
      ['attention', 0],
      ['root', true],
      ['attention', needsBefore],
    ]);

    // A file put where it was: the root is said to be a file, not a state directory or six files with it.
    from = lines().length;
    fs.renameSync(p.root, away);
    fs.writeFileSync(p.root, 'not a directory');
    const isFile = await untilRoot(from, (r) => r.problem?.code === 'not-a-directory', 'root line: a file');
    expect(root(isFile).problem?.message).toBe(
      `${p.root} is a file now, not a directory; waiting for it to be one again`,
    );
    fs.rmSync(p.root);
    fs.renameSync(away, p.root);
    await untilRoot(from, (r) => r.present, 'root line: back from a file');
    await liveAgain(5);
    expect(between(from).every((l) => l.type === 'root' || l.type === 'attention')).toBe(true);

    // Removed and made again: the watch waits for it and follows the new tree.
    from = lines().length;
    fs.rmSync(p.root, { recursive: true });
    await untilRoot(from, (r) => r.problem?.code === 'missing', 'root line: removed');
    fs.cpSync(FIXTURE_TREE, p.root, { recursive: true });
    await untilRoot(from, (r) => r.present, 'root line: made again');
    await liveAgain(6);

    const exit = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    for (const l of lines()) expect(Object.keys(l).sort(), JSON.stringify(l)).toEqual(expected(rows, l));
  });

  /**
   * Three live loops among finished sessions, `.omc` removed by `remove` (an `rm -rf`, which takes a while over them,
   * removing each loop's file while .omc is still there: its directories go last): one root line, no loop stopped,
   * each row kept as unreadable; back as it was; then one loop file removed alone is that loop stopped.
   */
  async function rmWithThreeLoops(p: { dir: string; root: string }, remove: (loops: string[]) => void) {
    const loops = [1, 2, 3].map((i) => `10000000-0000-4000-8000-00000000000${i}`);
    for (const [i, sid] of loops.entries())
      writeLiveRalph(p, { sessionId: sid, iteration: i + 1, max: 10, projectPath: p.dir });
    for (let i = 0; i < 300; i++) {
      const sid = `20000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      writeOmcJson(ralphStateFile(p.root, sid), { active: false, iteration: 10, max_iterations: 10, session_id: sid });
    }
    const { io, lines } = watchPiped(p.dir, ['--rows']);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: `ready line (${io.err})` });
    for (const sid of loops)
      expect(lines().find((l) => l.kind === 'mode' && l.session === sid)).toMatchObject({ value: 'active' });
    const row = (sid: string) =>
      lines()
        .filter((l) => l.type === 'row' && l.session === sid)
        .at(-1)?.row as { status: string; modes: string } | null | undefined;
    const copy = path.join(p.dir, 'omc-copy');
    fs.cpSync(p.root, copy, { recursive: true, preserveTimestamps: true });

    const from = lines().length;
    remove(loops);
    await waitFor(() => lines().some((l) => l.type === 'root' && (l.root as { present: boolean }).present === false), {
      timeoutMs: 20_000,
      what: `root line: removed (${io.err})`,
    });
    // The rows stay, said to be out of sight: the session the inbox names is one the fleet still draws.
    await waitFor(() => loops.every((sid) => row(sid)?.status === 'unreadable'), {
      timeoutMs: 20_000,
      what: `each loop's row kept, unreadable (${JSON.stringify(loops.map(row))})`,
    });
    // Its last progress, as last seen, unknown now (as the monitor's row says it).
    expect(row(loops[0]!)?.modes).toBe('ralph 1/10 (unreadable)');
    // Back as it was, then a change: every line about the removal is in before that change's line.
    fs.renameSync(copy, p.root);
    const file = ralphStateFile(p.root, loops[0]!);
    writeLiveRalph(p, { sessionId: loops[0]!, iteration: 4, max: 10, projectPath: p.dir });
    await waitFor(() => lines().some((l) => l.kind === 'iteration' && l.key === `${loops[0]}/ralph` && l.to === '4'), {
      timeoutMs: 20_000,
      what: `iteration 4 once .omc is back (${io.err})`,
    });
    const after = lines().slice(from);
    expect(after.filter((l) => l.news !== null && l.news !== undefined)).toEqual([]);
    expect(after.filter((l) => l.type === 'row' && l.row === null)).toEqual([]);
    expect(after.filter((l) => l.type === 'root').map((l) => (l.root as { present: boolean }).present)).toEqual([
      false,
      true,
    ]);
    await waitFor(() => row(loops[0]!)?.status === 'enforced', { what: 'the row current again' });

    // One loop's file removed while .omc stays (OMC's cancel does that): the loop stopped, said as before.
    fs.rmSync(file);
    const stopped = await waitFor(() => lines().find((l) => l.news === 'loop stopped'), {
      timeoutMs: 20_000,
      what: `loop stopped (${io.err})`,
    });
    expect(stopped).toMatchObject({ kind: 'mode', key: `${loops[0]}/ralph`, from: 'active', to: null });
    expect(lines().filter((l) => l.news === 'loop stopped')).toHaveLength(1);
  }

  it('rm -rf .omc with three active loops: one root line, no "loop stopped", each row kept as unreadable; one loop file removed is still "stopped"', async ({
    emptyProject: p,
  }) => {
    await rmWithThreeLoops(p, () => expect(spawnSync('rm', ['-rf', p.root]).status).toBe(0));
  });

  it('an rm -rf .omc that takes seconds (a busy machine): still one root line, no "loop stopped", no row dropped', async ({
    emptyProject: p,
  }) => {
    // The removal as `rm` makes it, at the pace of a loaded machine: the loops' session directories first, then the
    // others one by one a few milliseconds apart (well past the removal hold's 1 s cap), then what is left.
    await rmWithThreeLoops(p, (loops) => {
      const r = spawnSync(process.execPath, ['-e', SLOW_RM, p.root, ...loops], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    });
  });

  it('--poll: a loop file a poll no longer finds is said stopped only when the next poll still finds it gone (a tick inside an `rm -rf` says nothing)', async ({
    emptyProject: p,
  }) => {
    const loops = [1, 2, 3].map((i) => `30000000-0000-4000-8000-00000000000${i}`);
    const still = '30000000-0000-4000-8000-000000000009';
    for (const sid of [...loops, still])
      writeLiveRalph(p, { sessionId: sid, iteration: 2, max: 10, projectPath: p.dir });
    const { io, lines } = watchPiped(p.dir, ['--poll']);
    await waitFor(() => lines().some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: `ready line (${io.err})` });
    // A change that shows when a poll has looked, then what the first half of an `rm -rf .omc` does to the loops
    // (their files go first): the poll that sees the removals saw the change too, or came after it.
    writeLiveRalph(p, { sessionId: still, iteration: 3, max: 10, projectPath: p.dir });
    for (const sid of loops) fs.rmSync(ralphStateFile(p.root, sid));
    const seen = await waitFor(
      () => lines().find((l) => l.type === 'transition' && l.kind === 'iteration' && l.key === `${still}/ralph`),
      {
        timeoutMs: 20_000,
        what: `iteration 3 of the loop that stays (${io.err})`,
      },
    );
    // The root stayed (OMC's own removal, a cancel): the next poll says each loop stopped, never the poll that
    // first missed the files (a tick inside an `rm -rf` would have said it of loops whose root was going).
    const stopped = await waitFor(
      () => {
        const s = lines().filter((l) => l.news === 'loop stopped');
        return s.length === 3 ? s : null;
      },
      { timeoutMs: 20_000, what: `three loops stopped (${io.err})` },
    );
    expect(stopped.map((l) => l.key).sort()).toEqual(loops.map((sid) => `${sid}/ralph`).sort());
    for (const l of stopped)
      expect(Date.parse(l.at as string) - Date.parse(seen.at as string), JSON.stringify(l)).toBeGreaterThanOrEqual(500);
  });

  it('--poll: .omc changed while it was away is reported once it is back, after the line that says it is back', async ({
    project: p,
  }) => {
    child = spawn(
      process.execPath,
      [path.join(REPO, 'dist', 'omc-top.mjs'), 'watch', '--json', '--snapshot', '--poll'],
      {
        cwd: p.dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', XDG_STATE_HOME: path.join(p.dir, 'xdg-state') },
      },
    );
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
    const from = lines().length;
    const away = path.join(p.dir, 'omc-away');
    fs.renameSync(p.root, away);
    await waitFor(() => lines().some((l) => l.type === 'root' && (l.root as { present: boolean }).present === false), {
      timeoutMs: 20_000,
      what: `root line: moved away (${err})`,
    });
    // Written while it was away (in its new place): seen when it is back, as a change from what was there before.
    const file = path.join(away, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
    writeOmcJson(file, { ...JSON.parse(fs.readFileSync(file, 'utf8')), iteration: 7 });
    fs.renameSync(away, p.root);
    await waitFor(() => lines().some((l) => l.kind === 'iteration' && l.to === '7'), {
      timeoutMs: 20_000,
      what: `iteration 7 once it is back (${err})`,
    });
    // The root's lines, the change, and no news (a mode-status line may follow the file's new time).
    expect(
      lines()
        .slice(from)
        .filter((l) => l.type === 'root' || l.kind === 'iteration' || (l.type !== 'attention' && l.news !== null))
        .map((l) =>
          l.type === 'root' ? `root ${(l.root as { present: boolean }).present}` : `${l.kind} ${l.from}>${l.to}`,
        ),
    ).toEqual(['root false', 'root true', 'iteration 3>7']);
  });

  it('on a quiet project, says it is alive every 5 s and ends soon after its reader goes (| head -1)', async ({
    project: p,
  }) => {
    const rows = schema();
    const { child: c, lines } = watchPiped(p.dir);
    const exit = new Promise<number | null>((r) => c.once('exit', (code) => r(code)));
    const ready = await waitFor(() => lines().find((l) => l.type === 'ready'), {
      timeoutMs: 30_000,
      what: 'ready line',
    });
    // It says how often: a reader (the fleet over ssh) may take a longer silence for a stream that stalled.
    expect(ready.aliveMs).toBe(5_000);
    // Nothing changes on disk from here: the only line that can come is the one that tests the pipe.
    const alive = await waitFor(() => lines().find((l) => l.type === 'alive'), {
      timeoutMs: 20_000,
      what: 'an alive line',
    });
    expect(Object.keys(alive).sort()).toEqual(expected(rows, alive));
    // The reader goes (as `head -1` does after its line): the next alive line meets a closed pipe and the watch ends.
    c.stdout?.destroy();
    expect(await exit).toBe(0);
  });

  it('exits 2 without --json, and 2 when the --root given is not there', async () => {
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
