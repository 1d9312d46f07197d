/**
 * A monitor started in a new project before OMC made any `.omc`: it waits on the path the start's rule picks
 * ($HOME/.omc outside git, for OMC 5.5.0), but what OMC writes next depends on what happens after the start. A
 * `git init` and OMC 5.5.0's real keyword hook make `<project>/.omc`; OMC 4.4.4's real keyword hook, outside git,
 * makes `./.omc`. The running monitor goes where the rule points now and shows the loop, as a fresh start would,
 * and remembers the project for `--all` once there is a root.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TerminalHarness } from '../helpers/pty.js';
import { waitFor } from '../helpers/fixtures.js';
import { hookEnv } from '../helpers/stop-hook.js';
import { scaled } from '../helpers/time-scale.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';
import { KNOWN_PROJECTS_FILE } from '../../src/fleet/known-projects.js';

const SID = '5a5a5a5a-2222-4333-8444-555555555555';
let h: TerminalHarness | null = null;
let base: string | null = null;
afterEach(async () => {
  await h?.close();
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
