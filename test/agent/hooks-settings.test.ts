/**
 * `omc-top hooks` against the real Claude Code CLI (2.1.332, offline): the settings file `hooks install` writes
 * is the one Claude Code started in that directory reads, and `hooks status` says hooks are off exactly when
 * Claude Code runs none. A SessionStart probe hook in the file install wrote stands in for omc-top's entry
 * (a PermissionRequest hook runs only on a prompt; the file is read the same way for both).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, CLAUDE_VERSION, skipReason, startRun, type Run } from './harness.js';
import { HookEnv } from '../../src/store/claude/hook-env.js';
import { addLocalSubmodule, git } from '../helpers/git-scratch.js';
import { scaled } from '../helpers/time-scale.js';

const reason = skipReason();
if (reason) console.warn(`[real Claude Code suite skipped] ${reason}`);

const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
const runs: Run[] = [];
afterEach(async () => {
  for (const r of runs.splice(0)) await r.close();
});

/** omc-top's own environment for a run: Claude's config dir, and its state and config under the run. */
const omcTopEnv = (run: Run) => ({
  ...process.env,
  HOME: run.home,
  CLAUDE_CONFIG_DIR: run.configDir,
  XDG_STATE_HOME: path.join(run.dir, 'state'),
  XDG_CONFIG_HOME: path.join(run.dir, 'config'),
  CI: '',
});

interface Status {
  settingsPath: string;
  hooksDisabledIn: string | null;
  settingsNotLoaded: { path: string; value: string }[];
  installed: boolean;
  problem: string | null;
}

function installAndStatus(run: Run, cwd: string): Status {
  execFileSync(process.execPath, [BUNDLE, 'hooks', 'install', '--cwd', cwd], { env: omcTopEnv(run), stdio: 'pipe' });
  let out = '';
  try {
    out = execFileSync(process.execPath, [BUNDLE, 'hooks', 'status', '--json', '--cwd', cwd], {
      env: omcTopEnv(run),
      encoding: 'utf8',
    });
  } catch (e) {
    out = String((e as { stdout?: string }).stdout ?? ''); // exit 1 when hooks are off: the JSON is still printed
  }
  return (JSON.parse(out) as { status: Status }).status;
}

/** Adds a SessionStart probe to the settings file; returns the file it appends to when it runs. */
function addProbe(run: Run, settings: string, name: string): string {
  const fired = path.join(run.dir, `${name}.fired`);
  const doc = JSON.parse(fs.readFileSync(settings, 'utf8'));
  doc.hooks.SessionStart = [{ hooks: [{ type: 'command', command: `echo fired >> ${fired}` }] }];
  fs.writeFileSync(settings, JSON.stringify(doc, null, 2));
  return fired;
}

/** `claude -p` started in `cwd`, to its end (its SessionStart hooks have run by then). */
function claudeIn(run: Run, cwd: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = run.spawnInNs('claude', ['-p', 'hi [[text:ok]]', '--permission-mode', 'acceptEdits'], { cwd });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`claude in ${cwd} did not finish\n${stderr}`));
    }, scaled(120_000));
    child.on('close', (code) => {
      clearTimeout(t);
      resolve(code);
    });
  });
}

describe.skipIf(reason !== null)('omc-top hooks and the settings Claude Code really reads', () => {
  it('a submodule, a worktree’s subdirectory, disableAllHooks: the hook file runs exactly when omc-top says', async () => {
    const run = await startRun('hooks-settings');
    runs.push(run);
    const cases: { name: string; cwd: string; settings: string; off: string | null; before?: () => void }[] = [];
    // A submodule, run in a directory of it: its own top's file, not the superproject's.
    const sub = addLocalSubmodule(run.project, path.join(run.dir, 'lib'), path.join('deep', 'f'));
    cases.push({
      name: 'submodule',
      cwd: path.join(sub, 'deep'),
      settings: path.join(sub, '.claude', 'settings.local.json'),
      off: null,
    });
    // A linked worktree's subdirectory: the main worktree's file.
    const wt = path.join(run.dir, 'wt');
    git(run.project, 'worktree', 'add', '-q', wt);
    fs.mkdirSync(path.join(wt, 'sub'));
    const top = path.join(run.project, '.claude', 'settings.local.json');
    cases.push({ name: 'worktree', cwd: path.join(wt, 'sub'), settings: top, off: null });
    // Hooks off in the user settings: none runs, and omc-top says which file.
    const user = path.join(run.configDir, 'settings.json');
    cases.push({
      name: 'user-off',
      cwd: run.project,
      settings: top,
      off: user,
      before: () => fs.writeFileSync(user, '{"disableAllHooks": true}'),
    });
    // The repository top's settings.json is not read from a subdirectory: its true turns nothing off there.
    const shared = path.join(run.project, '.claude', 'settings.json');
    fs.mkdirSync(path.join(run.project, 'pkg'));
    cases.push({
      name: 'top-shared-from-subdir',
      cwd: path.join(run.project, 'pkg'),
      settings: top,
      off: null,
      before: () => {
        fs.rmSync(user);
        fs.writeFileSync(shared, '{"disableAllHooks": true}');
      },
    });
    for (const c of cases) {
      c.before?.();
      const st = installAndStatus(run, c.cwd);
      expect({ name: c.name, ...st }).toMatchObject({
        name: c.name,
        installed: true,
        settingsPath: c.settings,
        hooksDisabledIn: c.off,
      });
      const fired = addProbe(run, st.settingsPath, c.name);
      expect(await claudeIn(run, c.cwd)).toBe(0);
      expect({ name: c.name, fired: fs.existsSync(fired) }).toEqual({ name: c.name, fired: c.off === null });
    }
  });

  it(`a disableAllHooks that is not a boolean: Claude Code ${CLAUDE_VERSION} drops that file whole, as omc-top says`, async () => {
    const run = await startRun('hooks-not-boolean');
    runs.push(run);
    const user = path.join(run.configDir, 'settings.json');
    const seenEnv = path.join(run.dir, 'env.txt');
    for (const [i, value] of (['true', 1, 'yes', null] as unknown[]).entries()) {
      // The user settings: the odd value, a probe hook and a variable; omc-top's file: its entry and a probe.
      const userFired = path.join(run.dir, `user-${i}.fired`);
      fs.writeFileSync(
        user,
        JSON.stringify({
          disableAllHooks: value,
          env: { OMC_STALE_RUN_HOURS: '8' },
          hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `echo fired >> ${userFired}` }] }] },
        }),
      );
      const st = installAndStatus(run, run.project);
      expect({ value, ...st }).toMatchObject({
        value,
        installed: true,
        hooksDisabledIn: null,
        settingsNotLoaded: [{ path: user, value: JSON.stringify(value) }],
      });
      const fired = addProbe(run, st.settingsPath, `local-${i}`);
      const doc = JSON.parse(fs.readFileSync(st.settingsPath, 'utf8'));
      doc.hooks.SessionStart[0].hooks.push({ type: 'command', command: `env > ${seenEnv}` });
      fs.writeFileSync(st.settingsPath, JSON.stringify(doc));
      expect(await claudeIn(run, run.project)).toBe(0);
      // Hooks are not off: the other file's run; the odd file's hook and env do not.
      expect({ value, local: fs.existsSync(fired), user: fs.existsSync(userFired) }).toEqual({
        value,
        local: true,
        user: false,
      });
      expect(fs.readFileSync(seenEnv, 'utf8')).not.toMatch(/^OMC_STALE_RUN_HOURS=/m);
      const ours = new HookEnv({
        env: run.env,
        projectDir: run.project,
        managedDir: path.join(run.dir, 'no-managed-settings'),
        processes: false,
      });
      expect(ours.get('OMC_STALE_RUN_HOURS').value).toBeNull();
    }
    // The odd value in omc-top's own file: its entry (and every hook there) does not run, and status says so.
    fs.rmSync(user);
    const file = path.join(run.project, '.claude', 'settings.local.json');
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), disableAllHooks: 'false' }));
    const st = installAndStatus(run, run.project);
    expect(st).toMatchObject({ installed: true, hooksDisabledIn: null, settingsNotLoaded: [{ path: file }] });
    expect(st.problem).toContain("omc-top's hook included");
    const fired = addProbe(run, file, 'own-file');
    expect(await claudeIn(run, run.project)).toBe(0);
    expect(fs.existsSync(fired)).toBe(false);
  });
});
