/**
 * A monitor started in a new project before OMC made any `.omc`: it waits on the path the start's rule picks
 * ($HOME/.omc outside git, for OMC 5.5.0), but what OMC writes next depends on what happens after the start. A
 * `git init` and OMC 5.5.0's real keyword hook make `<project>/.omc`; OMC 4.4.4's real keyword hook, outside git,
 * makes `./.omc`. The running monitor goes where the rule points now and shows the loop, as a fresh start would,
 * and remembers the project for `--all` once there is a root. `watch --json` started there follows the same rule: a
 * `root` line says it waits, another (with `was`) each move, then OMC's writes there are reported.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, TerminalHarness } from '../helpers/pty.js';
import { waitFor } from '../helpers/fixtures.js';
import { hookEnv } from '../helpers/stop-hook.js';
import { scaled } from '../helpers/time-scale.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { KNOWN_PROJECTS_FILE } from '../../src/fleet/known-projects.js';

const SID = '5a5a5a5a-2222-4333-8444-555555555555';
let h: TerminalHarness | null = null;
let base: string | null = null;
let watch: { child: ChildProcess; exited: Promise<unknown> } | null = null;
afterEach(async () => {
  await h?.close();
  // Ended and gone before the directories it writes in (its status cache) are removed.
  if (watch && watch.child.exitCode === null && watch.child.signalCode === null) watch.child.kill('SIGTERM');
  await watch?.exited;
  watch = null;
  if (base) fs.rmSync(base, { recursive: true, force: true });
  h = base = null;
});

/** A new project directory (no git, no .omc), an empty home, omc-top's own state directory. */
function scene(): { proj: string; home: string; xdg: string } {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-root-later-'));
  const proj = path.join(base, 'proj');
  const home = path.join(base, 'home');
  const xdg = path.join(base, 'xdg');
  fs.mkdirSync(proj);
  fs.mkdirSync(home);
  return { proj, home, xdg };
}

/** What Claude Code started in `cwd` does on `prompt`: the release's real UserPromptSubmit hook. */
function keywordHook(version: '5.5.0' | '4.4.4', cwd: string, home: string, prompt: string): void {
  const pkg = version === '5.5.0' ? OMC55 : OMC444;
  const res = spawnSync(process.execPath, [path.join(pkg, 'scripts', 'keyword-detector.mjs')], {
    cwd,
    env: hookEnv(version, home),
    input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: SID, cwd, prompt }),
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  if (res.error || res.status !== 0) throw new Error(`the keyword hook failed: ${String(res.error ?? res.stderr)}`);
}

function monitor(proj: string, home: string, xdg: string): TerminalHarness {
  return new TerminalHarness({
    cwd: proj,
    cols: 160,
    rows: 24,
    env: { HOME: home, XDG_STATE_HOME: xdg, OMC_STATE_DIR: undefined, CLAUDE_CONFIG_DIR: undefined },
  });
}

const knownText = (xdg: string): string => {
  try {
    return fs.readFileSync(path.join(xdg, 'omc-top', KNOWN_PROJECTS_FILE), 'utf8');
  } catch {
    return '';
  }
};

/** A test starts a monitor and waits twice for 30 s (scaled) at most: its own limit is above both, scaled alike. */
const TEST_MS = scaled(90_000);

describe('a monitor started before OMC made a .omc', () => {
  it(
    'git init, then OMC 5.5.0 writes <project>/.omc: the running monitor goes there and shows the ralph',
    async () => {
      const { proj, home, xdg } = scene();
      const t = (h = monitor(proj, home, xdg));
      await t.waitForText(`waiting for ${path.join(home, '.omc')}`, 30_000);
      // No root yet: the project is not remembered for --all.
      expect(knownText(xdg)).not.toContain(proj);
      execFileSync('git', ['init', '-q', proj]);
      keywordHook('5.5.0', proj, home, 'ralph fix the failing tests');
      expect(fs.existsSync(path.join(proj, '.omc', 'state', 'sessions', SID, 'ralph-state.json'))).toBe(true);
      await t.waitForText(new RegExp(`${SID.slice(0, 8)}\\S*\\s+ralph`), 30_000);
      await t.waitForText(`${path.join(proj, '.omc')}`, 30_000);
      // Remembered once its root is there: a fleet started later finds it.
      await waitFor(() => knownText(xdg).includes(JSON.stringify(proj)), {
        timeoutMs: scaled(30_000),
        what: `${proj} in ${KNOWN_PROJECTS_FILE} (${knownText(xdg)})`,
      });
    },
    TEST_MS,
  );

  it(
    'git init alone moves the wait to <project>/.omc, said once',
    async () => {
      const { proj, home, xdg } = scene();
      const t = (h = monitor(proj, home, xdg));
      await t.waitForText(`waiting for ${path.join(home, '.omc')}`, 30_000);
      execFileSync('git', ['init', '-q', proj]);
      await t.waitForText(`state read from ${path.join(proj, '.omc')} now`, 30_000);
      expect(knownText(xdg)).not.toContain(proj);
    },
    TEST_MS,
  );

  it(
    'outside git, OMC 4.4.4 writes ./.omc: the running monitor goes there and shows the ultrawork',
    async () => {
      const { proj, home, xdg } = scene();
      const t = (h = monitor(proj, home, xdg));
      await t.waitForText(`waiting for ${path.join(home, '.omc')}`, 30_000);
      keywordHook('4.4.4', proj, home, 'ulw fix the failing tests');
      expect(fs.existsSync(path.join(proj, '.omc', 'state', 'sessions', SID, 'ultrawork-state.json'))).toBe(true);
      await t.waitForText(new RegExp(`${SID.slice(0, 8)}\\S*\\s+ultrawork`), 30_000);
    },
    TEST_MS,
  );
});

/** `omc-top watch --json --rows` of the bundle started in `proj`: its lines parsed as they come. */
function watchJson(
  proj: string,
  home: string,
  xdg: string,
): { lines: () => Record<string, unknown>[]; said: () => string } {
  const child = spawn(process.execPath, [BIN, 'watch', '--json', '--rows'], {
    cwd: proj,
    env: {
      ...process.env,
      HOME: home,
      XDG_STATE_HOME: xdg,
      OMC_STATE_DIR: '',
      CLAUDE_CONFIG_DIR: '',
      OMC_TOP_CODE_CACHE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  watch = { child, exited: new Promise((resolve) => child.once('exit', resolve)) };
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, said: () => `${out.slice(-3000)}${err}` };
}

/** A `root` line: where the watch reads, whether it is there, and the move that led there. */
interface RootLine {
  type: 'root';
  root: { path: string; present: boolean; problem: { code: string; message: string } | null };
  was: string | null;
  message: string | null;
}
const rootLines = (lines: Record<string, unknown>[]): RootLine[] =>
  lines.filter((l): l is Record<string, unknown> & RootLine => l.type === 'root');

describe('watch --json started before OMC made a .omc', () => {
  it(
    'says it waits, then git init and OMC 5.5.0 writing <project>/.omc: a root line says the move, and the ralph is reported',
    async () => {
      const { proj, home, xdg } = scene();
      const w = watchJson(proj, home, xdg);
      const homeRoot = path.join(home, '.omc');
      const projRoot = path.join(proj, '.omc');
      // Not an exit: the wait, said first.
      const waiting = await waitFor(() => rootLines(w.lines())[0], {
        timeoutMs: 30_000,
        what: `the waiting root line (${w.said()})`,
      });
      expect(waiting.root).toMatchObject({ path: homeRoot, present: false, problem: { code: 'missing' } });
      expect(waiting.root.problem?.message).toContain(`${homeRoot} does not exist; waiting for it`);
      expect(waiting.was).toBeNull();
      execFileSync('git', ['init', '-q', proj]);
      // The move, said once in the monitor's words; the new root is not there yet.
      const moved = await waitFor(() => rootLines(w.lines()).find((l) => l.was !== null), {
        timeoutMs: 30_000,
        what: `the move's root line (${w.said()})`,
      });
      expect(moved.was).toBe(homeRoot);
      expect(moved.root).toMatchObject({ path: projRoot, present: false });
      expect(moved.message).toBe(`state read from ${projRoot} now (was ${homeRoot}): not there yet, waiting for it`);
      keywordHook('5.5.0', proj, home, 'ralph fix the failing tests');
      expect(fs.existsSync(path.join(projRoot, 'state', 'sessions', SID, 'ralph-state.json'))).toBe(true);
      // The root there now, then the loop OMC's hook started, as the fleet's row shows it.
      await waitFor(() => rootLines(w.lines()).some((l) => l.root.path === projRoot && l.root.present), {
        timeoutMs: 30_000,
        what: `the root line saying ${projRoot} is there (${w.said()})`,
      });
      await waitFor(
        () => w.lines().some((l) => l.type === 'row' && l.session === SID && JSON.stringify(l.row).includes('ralph')),
        { timeoutMs: 30_000, what: `the ralph's row (${w.said()})` },
      );
      expect(rootLines(w.lines()).filter((l) => l.was !== null)).toHaveLength(1);
    },
    TEST_MS,
  );

  it(
    'outside git, OMC 4.4.4 writes ./.omc: the watch moves there and reports the ultrawork',
    async () => {
      const { proj, home, xdg } = scene();
      const w = watchJson(proj, home, xdg);
      await waitFor(() => rootLines(w.lines())[0], { timeoutMs: 30_000, what: `the waiting root line (${w.said()})` });
      keywordHook('4.4.4', proj, home, 'ulw fix the failing tests');
      expect(fs.existsSync(path.join(proj, '.omc', 'state', 'sessions', SID, 'ultrawork-state.json'))).toBe(true);
      const moved = await waitFor(() => rootLines(w.lines()).find((l) => l.was !== null), {
        timeoutMs: 30_000,
        what: `the move's root line (${w.said()})`,
      });
      expect(moved).toMatchObject({
        was: path.join(home, '.omc'),
        root: { path: path.join(proj, '.omc'), present: true },
      });
      await waitFor(
        () =>
          w.lines().some((l) => l.type === 'row' && l.session === SID && JSON.stringify(l.row).includes('ultrawork')),
        { timeoutMs: 30_000, what: `the ultrawork's row (${w.said()})` },
      );
    },
    TEST_MS,
  );
});
