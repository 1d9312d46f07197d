/**
 * Which settings file `omc-top hooks` writes and reads: the one Claude Code reads where it runs (verified with the
 * real CLI 2.1.332: store/claude/settings-sources.ts), not OMC's state anchor. And whether Claude Code runs hooks
 * there at all: `"disableAllHooks": true` in any settings file it reads turns omc-top's off too, which `hooks
 * status`, `doctor` and install say, naming the file and the key.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hooksCheck } from '../../src/commands/doctor-hooks.js';
import { hookStatus } from '../../src/store/permissions/settings-hook.js';
import { resolveOmcRoot } from '../../src/store/root.js';
import { git } from '../helpers/git-scratch.js';
import {
  cleanupHooksProjects,
  hooksIn,
  hooksProject,
  hooksProjectWithSubmodule,
  scratchDir,
  userSettingsFile,
} from '../helpers/hooks-project.js';

afterEach(cleanupHooksProjects);

const escapeRe = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const local = (dir: string) => path.join(dir, '.claude', 'settings.local.json');

describe('omc-top hooks writes the settings file Claude Code reads where it runs', () => {
  it('in a submodule: the submodule’s own file, not the superproject’s; status and doctor name the same', () => {
    const { s, sub } = hooksProjectWithSubmodule();
    fs.mkdirSync(path.join(sub, 'deep'));
    const r = hooksIn(s, path.join(sub, 'deep'), 'install');
    expect(r.code).toBe(0);
    expect(r.said).toContain(`added the PermissionRequest hook in ${local(sub)}`);
    expect(fs.existsSync(local(s.p.dir))).toBe(false);
    expect(JSON.stringify(JSON.parse(fs.readFileSync(local(sub), 'utf8')))).toContain('--omc-top-hook');
    // Installed: where, then what Claude Code runs for it (as doctor says it).
    expect(hooksIn(s, sub, 'status').said).toMatch(
      new RegExp(
        `^omc-top hooks: installed in ${escapeRe(local(sub))}\\n  runs: \\S+ \\S+omc-top-hook\\.mjs permission --omc-top-hook \\(waits 60 s for omc-top, Claude's timeout 65 s\\)\\n$`,
      ),
    );
    expect(hooksCheck(sub, s.env)).toMatchObject({
      status: 'ok',
      summary: expect.stringContaining(`in ${local(sub)}:`),
    });
    // From the superproject, it is the superproject's file (not installed there).
    expect(hooksIn(s, s.p.dir, 'status').said).toContain(`not installed in ${local(s.p.dir)}`);
    expect(hooksIn(s, sub, 'uninstall').code).toBe(0);
    expect(fs.existsSync(path.join(sub, '.claude'))).toBe(false);
  });

  it('in a linked worktree’s subdirectory: the main worktree’s file (Claude reads it there, not the worktree top’s); outside git: the directory it runs in', () => {
    const s = hooksProject();
    git(s.p.dir, 'commit', '-q', '--allow-empty', '-m', 'init');
    const wt = path.join(scratchDir('omc-top-wt-'), 'wt');
    git(s.p.dir, 'worktree', 'add', '-q', wt);
    fs.mkdirSync(path.join(wt, 'sub'));
    const r = hooksIn(s, path.join(wt, 'sub'), 'install');
    expect(r.code).toBe(0);
    expect(r.said).toContain(`hook in ${s.settings}`);
    expect(fs.existsSync(path.join(wt, '.claude'))).toBe(false);
    // Outside git: the directory it runs in.
    const plain = path.join(scratchDir('omc-top-nogit-'), 'a', 'b');
    fs.mkdirSync(plain, { recursive: true });
    expect(hooksIn(s, plain, 'install').code).toBe(0);
    expect(fs.existsSync(local(plain))).toBe(true);
  });
});

describe('"disableAllHooks": true in a settings file Claude Code reads', () => {
  const off = (file: string) => `Claude Code runs no hook here: "disableAllHooks": true in ${file}`;

  it('in the user settings: status fails and doctor warns, naming the file and the key; install says it too', () => {
    const s = hooksProject();
    const user = userSettingsFile(s, '{"disableAllHooks": true}\n');
    const r = hooksIn(s, s.p.dir, 'install');
    expect(r.code).toBe(0);
    expect(r.said).toContain(`; but ${off(user)}`);
    const st = hooksIn(s, s.p.dir, 'status');
    expect(st.code).toBe(1);
    expect(st.said).toContain(`installed in ${s.settings}, but ${off(user)}`);
    const doc = hooksCheck(s.p.dir, s.env);
    expect(doc.status).toBe('warn');
    expect(doc.summary).toBe(
      `installed in ${s.settings}, but ${off(user)} (remove it, or set it to false in a settings file read after it)`,
    );
    // false in the project's local file, read after the user's: hooks run again.
    const cur = JSON.parse(fs.readFileSync(s.settings, 'utf8'));
    fs.writeFileSync(s.settings, JSON.stringify({ ...cur, disableAllHooks: false }));
    expect(hooksIn(s, s.p.dir, 'status').code).toBe(0);
    expect(hooksCheck(s.p.dir, s.env).status).toBe('ok');
  });

  it('in the project’s settings.json, in the local file at the git root (from a subdirectory), in managed settings', () => {
    const s = hooksProject();
    expect(hooksIn(s, s.p.dir, 'install').code).toBe(0);
    const shared = path.join(s.p.dir, '.claude', 'settings.json');
    fs.writeFileSync(shared, '{"disableAllHooks": true}');
    expect(hookStatus(s.p.dir, s.env)).toMatchObject({ installed: true, hooksDisabledIn: shared });
    // The git root's settings.json is not read from a subdirectory (the real CLI runs the hook there).
    const sub = path.join(s.p.dir, 'sub');
    fs.mkdirSync(sub);
    expect(hookStatus(sub, s.env)).toMatchObject({ installed: true, hooksDisabledIn: null, problem: null });
    fs.rmSync(shared);
    const cur = JSON.parse(fs.readFileSync(s.settings, 'utf8'));
    fs.writeFileSync(s.settings, JSON.stringify({ ...cur, disableAllHooks: true }));
    expect(hookStatus(sub, s.env).hooksDisabledIn).toBe(s.settings);
    fs.writeFileSync(s.settings, JSON.stringify(cur));
    const managed = scratchDir('omc-top-managed-');
    fs.mkdirSync(path.join(managed, 'managed-settings.d'));
    fs.writeFileSync(path.join(managed, 'managed-settings.d', '10-policy.json'), '{"disableAllHooks": true}');
    // A managed true wins over a local false.
    fs.writeFileSync(s.settings, JSON.stringify({ ...cur, disableAllHooks: false }));
    expect(hookStatus({ cwd: sub, managedDir: managed }, s.env)).toMatchObject({
      hooksDisabledIn: path.join(managed, 'managed-settings.d', '10-policy.json'),
      problem: expect.stringContaining('"disableAllHooks": true in'),
    });
  });

  it('the repository top’s local file wins over the local file of the subdirectory Claude runs in', () => {
    const s = hooksProject();
    expect(hooksIn(s, s.p.dir, 'install').code).toBe(0);
    const sub = path.join(s.p.dir, 'sub');
    fs.mkdirSync(path.join(sub, '.claude'), { recursive: true });
    const cur = JSON.parse(fs.readFileSync(s.settings, 'utf8'));
    fs.writeFileSync(local(sub), '{"disableAllHooks": false}');
    fs.writeFileSync(s.settings, JSON.stringify({ ...cur, disableAllHooks: true }));
    expect(hookStatus(sub, s.env).hooksDisabledIn).toBe(s.settings);
    fs.writeFileSync(local(sub), '{"disableAllHooks": true}');
    fs.writeFileSync(s.settings, JSON.stringify({ ...cur, disableAllHooks: false }));
    expect(hookStatus(sub, s.env)).toMatchObject({ hooksDisabledIn: null, problem: null });
  });
});

describe('"disableAllHooks" that is not a boolean: Claude Code does not load that file at all', () => {
  // Measured with the real CLI 2.1.332 (test/agent/hooks-settings.test.ts): "true", 1, "yes", null… turn nothing
  // off; the file is dropped whole ("These settings did not load"), its hooks and env with it.
  it('in the user settings: hooks are not off, and status, doctor and install name the file and the value', () => {
    const s = hooksProject();
    const user = userSettingsFile(s, '{"disableAllHooks": "true", "env": {"OMC_STATE_DIR": "/nowhere"}}\n');
    const r = hooksIn(s, s.p.dir, 'install');
    expect(r.code).toBe(0);
    expect(r.said).not.toContain('; but');
    const words = `"disableAllHooks": "true" in ${user} is not true or false: Claude Code does not load that file at all (nothing in it applies; hooks in the other files still run); write true or false`;
    expect(hookStatus(s.p.dir, s.env)).toMatchObject({
      installed: true,
      hooksDisabledIn: null,
      settingsNotLoaded: [{ path: user, value: '"true"' }],
      problem: words,
    });
    const st = hooksIn(s, s.p.dir, 'status');
    expect(st.code).toBe(1);
    expect(st.said.split('\n')[0]).toBe(`omc-top hooks: installed in ${s.settings}, but ${words}`);
    expect(st.said.split('\n')[1]).toMatch(/^ {2}runs: .*--omc-top-hook \(waits \d+ s for omc-top/);
    expect(hooksCheck(s.p.dir, s.env)).toMatchObject({ status: 'warn', details: expect.arrayContaining([words]) });
    // Its env is not given to the hooks either: the root is not under its OMC_STATE_DIR.
    expect(resolveOmcRoot({ cwd: s.p.dir, env: s.env }).root).toBe(path.join(s.p.dir, '.omc'));
  });

  it('in the file omc-top’s hook is in: install and status say that hook does not run; a false there turns nothing back on', () => {
    const s = hooksProject();
    const user = userSettingsFile(s);
    fs.mkdirSync(path.dirname(s.settings), { recursive: true });
    fs.writeFileSync(s.settings, '{"disableAllHooks": 1}\n');
    const r = hooksIn(s, s.p.dir, 'install');
    expect(r.code).toBe(0);
    const words = `"disableAllHooks": 1 in ${s.settings} is not true or false: Claude Code does not load that file at all (nothing in it applies, omc-top's hook included); write true or false`;
    expect(r.said).toContain(`; but ${words}`);
    expect(hookStatus(s.p.dir, s.env)).toMatchObject({ installed: true, problem: words });
    // A true in the user settings is not undone by this file's value: hooks are off.
    fs.writeFileSync(user, '{"disableAllHooks": true}');
    expect(hookStatus(s.p.dir, s.env).hooksDisabledIn).toBe(user);
  });
});
