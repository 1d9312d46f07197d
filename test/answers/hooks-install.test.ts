/**
 * `omc-top hooks install / uninstall / status`: the one change omc-top makes to Claude Code's settings, only
 * when asked, merged with what is there, and removed exactly. And the other side: with the hook not installed,
 * running omc-top (the monitor, --json, doctor, status) touches nothing of Claude Code's settings.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookStatus, shellWords, HOOK_MARKER } from '../../src/store/permissions/settings-hook.js';
import { runHooksCommand } from '../../src/commands/hooks.js';
import { collectDoctorReport } from '../../src/commands/doctor-checks.js';
import { REPO, waitFor } from '../helpers/fixtures.js';
import { HOOK, cleanupHooksProjects, hooksProject, scratchDir } from '../helpers/hooks-project.js';
import { TerminalHarness } from '../helpers/pty.js';

afterEach(cleanupHooksProjects);
const setup = hooksProject;

const USER_SETTINGS = `{
    "permissions": { "allow": ["Bash(npm test:*)"], "deny": [] },
    "hooks": {
        "PermissionRequest": [{ "matcher": "Write", "hooks": [{ "type": "command", "command": "/usr/local/bin/my-guard" }] }],
        "PreToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "echo pre" }] }]
    },
    "enabledPlugins": { "oh-my-claudecode@omc": true }
}
`;

describe('omc-top hooks', () => {
  it('install merges one PermissionRequest entry; uninstall gives back the very bytes that were there', () => {
    const s = setup();
    fs.mkdirSync(path.dirname(s.settings));
    fs.writeFileSync(s.settings, USER_SETTINGS);
    expect(s.run('install')).toBe(0);
    const doc = JSON.parse(fs.readFileSync(s.settings, 'utf8'));
    // Everything of the user's is kept.
    expect(doc.permissions).toEqual({ allow: ['Bash(npm test:*)'], deny: [] });
    expect(doc.enabledPlugins).toEqual({ 'oh-my-claudecode@omc': true });
    expect(doc.hooks.PreToolUse).toEqual([{ matcher: '*', hooks: [{ type: 'command', command: 'echo pre' }] }]);
    expect(doc.hooks.PermissionRequest).toHaveLength(2);
    expect(doc.hooks.PermissionRequest[0]).toEqual({
      matcher: 'Write',
      hooks: [{ type: 'command', command: '/usr/local/bin/my-guard' }],
    });
    // Ours: node, the hook bundle, the marker; Claude's timeout above the 60 s default wait.
    const ours = doc.hooks.PermissionRequest[1];
    expect(ours.matcher).toBe('*');
    expect(ours.hooks).toHaveLength(1);
    expect(shellWords(ours.hooks[0].command)).toEqual([process.execPath, HOOK, 'permission', HOOK_MARKER]);
    expect(ours.hooks[0].timeout).toBe(65);
    expect(hookStatus(s.p.dir, s.env)).toMatchObject({ installed: true, scriptFound: true, problem: null });
    // Installing again updates the entry; it never adds a second one.
    expect(s.run('install')).toBe(0);
    expect(JSON.parse(fs.readFileSync(s.settings, 'utf8')).hooks.PermissionRequest).toHaveLength(2);
    expect(s.run('uninstall')).toBe(0);
    expect(fs.readFileSync(s.settings, 'utf8')).toBe(USER_SETTINGS);
    expect(hookStatus(s.p.dir, s.env).installed).toBe(false);
  });

  it("other events' hooks and no PermissionRequest yet (or an empty hooks object): its own list is made; uninstall gives back the bytes", () => {
    for (const before of [
      '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo hi"}]}]}}\n',
      '{"hooks":{}}\n',
    ]) {
      const s = setup();
      fs.mkdirSync(path.dirname(s.settings));
      fs.writeFileSync(s.settings, before);
      expect(s.run('install'), before).toBe(0);
      const doc = JSON.parse(fs.readFileSync(s.settings, 'utf8'));
      expect(doc.hooks.PermissionRequest).toHaveLength(1);
      expect(doc.hooks.PreToolUse).toEqual(JSON.parse(before).hooks.PreToolUse);
      expect(hookStatus(s.p.dir, s.env)).toMatchObject({ installed: true, problem: null });
      expect(s.run('uninstall')).toBe(0);
      expect(fs.readFileSync(s.settings, 'utf8')).toBe(before);
    }
  });

  it("status says so when the node the entry pins is gone (a version manager removed it): Claude's shell cannot run it", () => {
    const s = setup();
    expect(s.run('install')).toBe(0);
    const node = path.join(scratchDir('omc-top-node-'), 'node-22.1.0', 'bin', 'node');
    fs.mkdirSync(path.dirname(node), { recursive: true });
    fs.copyFileSync(process.execPath, node);
    const doc = JSON.parse(fs.readFileSync(s.settings, 'utf8'));
    const ours = doc.hooks.PermissionRequest[0].hooks[0];
    ours.command = ours.command.replace(process.execPath, node);
    fs.writeFileSync(s.settings, JSON.stringify(doc, null, 2));
    expect(hookStatus(s.p.dir, s.env)).toMatchObject({ installed: true, problem: null });
    fs.rmSync(path.dirname(path.dirname(node)), { recursive: true });
    expect(hookStatus(s.p.dir, s.env).problem).toBe(
      `the node it runs is missing (${node}): run \`omc-top hooks install\` again with the node you use now`,
    );
  });

  it('with no settings file: install creates it, uninstall removes it and the .claude directory it made', () => {
    const s = setup();
    expect(fs.existsSync(path.join(s.p.dir, '.claude'))).toBe(false);
    expect(s.run('install')).toBe(0);
    expect(Object.keys(JSON.parse(fs.readFileSync(s.settings, 'utf8')))).toEqual(['hooks']);
    expect(s.run('uninstall')).toBe(0);
    expect(fs.existsSync(path.join(s.p.dir, '.claude'))).toBe(false);
  });

  it('a second install writes nothing and says nothing changed; uninstall then still gives back the first bytes', () => {
    const s = setup();
    fs.mkdirSync(path.dirname(s.settings));
    fs.writeFileSync(s.settings, USER_SETTINGS);
    expect(s.run('install')).toBe(0);
    const after = fs.readFileSync(s.settings, 'utf8');
    const mtime = fs.statSync(s.settings).mtimeMs;
    s.out.length = 0;
    expect(s.run('install')).toBe(0);
    expect(s.out.join('')).toContain('already, as it would be written: nothing changed');
    expect(s.out.join('')).not.toContain('updated');
    expect(fs.readFileSync(s.settings, 'utf8')).toBe(after);
    expect(fs.statSync(s.settings).mtimeMs).toBe(mtime);
    expect(s.run('uninstall')).toBe(0);
    expect(fs.readFileSync(s.settings, 'utf8')).toBe(USER_SETTINGS);
  });

  it('--cwd naming no directory is a usage slip (exit 2, said so), and nothing is written', () => {
    const s = setup();
    const gone = path.join(s.base, 'no-such-project');
    const out: string[] = [];
    const code = runHooksCommand(['install', '--cwd', gone], {
      out: (t) => out.push(t),
      err: (t) => out.push(t),
      cwd: s.p.dir,
      env: s.env,
      script: HOOK,
    });
    expect(code).toBe(2);
    expect(out.join('')).toMatch(
      /^omc-top hooks: .*no-such-project.* no directory to look for \.omc from; nothing was changed\n$/,
    );
    expect(fs.existsSync(gone)).toBe(false);
  });

  it('changed since install (Claude added an "always" rule): only the hook entry and the keys install made go', () => {
    const s = setup();
    expect(s.run('install')).toBe(0);
    const doc = JSON.parse(fs.readFileSync(s.settings, 'utf8'));
    doc.permissions = { allow: ['Bash(mkdir:*)'] };
    fs.writeFileSync(s.settings, JSON.stringify(doc, null, 2));
    expect(s.run('uninstall')).toBe(0);
    expect(JSON.parse(fs.readFileSync(s.settings, 'utf8'))).toEqual({ permissions: { allow: ['Bash(mkdir:*)'] } });
  });

  it('install and uninstall keep the settings file’s permission bits', () => {
    const s = setup();
    const mode = () => fs.statSync(s.settings).mode & 0o777;
    fs.mkdirSync(path.dirname(s.settings));
    fs.writeFileSync(s.settings, USER_SETTINGS);
    fs.chmodSync(s.settings, 0o644);
    expect(s.run('install')).toBe(0);
    expect(mode()).toBe(0o644);
    fs.chmodSync(s.settings, 0o640); // changed since install: the bits it has now are the ones to keep
    expect(s.run('uninstall')).toBe(0); // the original bytes given back
    expect(fs.readFileSync(s.settings, 'utf8')).toBe(USER_SETTINGS);
    expect(mode()).toBe(0o640);
    expect(s.run('install')).toBe(0);
    fs.appendFileSync(s.settings, ' ');
    expect(s.run('uninstall')).toBe(0); // the entry taken out of a file edited since
    expect(hookStatus(s.p.dir, s.env).installed).toBe(false);
    expect(mode()).toBe(0o640);
  });

  it('the wait comes from the config file, and Claude’s timeout stays above it', () => {
    const s = setup();
    fs.mkdirSync(path.join(s.env.XDG_CONFIG_HOME as string, 'omc-top'), { recursive: true });
    fs.writeFileSync(
      path.join(s.env.XDG_CONFIG_HOME as string, 'omc-top', 'config.json'),
      JSON.stringify({ answers: { permissionWaitSeconds: 20 } }),
    );
    expect(s.run('install')).toBe(0);
    expect(JSON.parse(fs.readFileSync(s.settings, 'utf8')).hooks.PermissionRequest[0].hooks[0].timeout).toBe(25);
    // The wait raised later without a re-install: status says the timeout is no longer above it.
    fs.writeFileSync(
      path.join(s.env.XDG_CONFIG_HOME as string, 'omc-top', 'config.json'),
      JSON.stringify({ answers: { permissionWaitSeconds: 120 } }),
    );
    expect(hookStatus(s.p.dir, s.env).problem).toMatch(/timeout \(25 s\) is not above the wait \(120 s\)/);
    expect(s.run('status')).toBe(1);
  });

  it('refuses, changing nothing, a settings file that is not JSON or not the shape Claude Code reads', () => {
    const s = setup();
    fs.mkdirSync(path.dirname(s.settings));
    for (const bad of ['{ "hooks": ', '[]', '{"hooks": []}', '{"hooks": {"PermissionRequest": {}}}']) {
      fs.writeFileSync(s.settings, bad);
      expect(s.run('install')).toBe(1);
      expect(fs.readFileSync(s.settings, 'utf8')).toBe(bad);
    }
    expect(s.out.join('')).toMatch(/nothing was changed/);
  });

  it('an empty settings file (or one of white space) is said so, in the words doctor has for it, not "not valid JSON"', () => {
    const s = setup();
    fs.mkdirSync(path.dirname(s.settings));
    for (const [text, words] of [
      ['', 'is empty (0 bytes)'],
      [' ', 'holds only whitespace (1 byte)'],
      ['\n\n', 'holds only whitespace (2 bytes)'],
    ] as const) {
      fs.writeFileSync(s.settings, text);
      s.out.length = 0;
      expect(s.run('install')).toBe(1);
      expect(s.out.join('')).toContain(`.claude/settings.local.json ${words}: fix it first (nothing was changed)`);
      expect(s.out.join('')).not.toContain('not valid JSON');
      expect(hookStatus(s.p.dir, s.env).problem).toContain(`.claude/settings.local.json ${words}`);
      expect(fs.readFileSync(s.settings, 'utf8')).toBe(text);
    }
  });

  it('refuses to write through a .claude that is a symlink out of the project', () => {
    const s = setup();
    const outside = scratchDir('omc-top-outside-');
    fs.symlinkSync(outside, path.join(s.p.dir, '.claude'));
    expect(s.run('install')).toBe(1);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(s.out.join('')).toMatch(/directory is a symlink to outside the project directory/);
  });

  it('refuses a settings file that is a symlink out of the project, naming the project directory', () => {
    const s = setup();
    const outside = path.join(scratchDir('omc-top-outside-'), 'settings.json');
    fs.writeFileSync(outside, '{}');
    fs.mkdirSync(path.dirname(s.settings));
    fs.symlinkSync(outside, s.settings);
    expect(s.run('install')).toBe(1);
    expect(fs.readFileSync(outside, 'utf8')).toBe('{}');
    expect(s.out.join('')).toMatch(/symlink points outside the project directory \(to /);
    expect(s.out.join('')).not.toMatch(/\.omc root/);
  });
});

/** Every file under a directory with its bytes and mtime. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const abs = path.join(e.parentPath, e.name);
    const st = fs.lstatSync(abs);
    out[path.relative(dir, abs)] = st.isFile() ? `${st.mtimeMs}:${fs.readFileSync(abs, 'base64')}` : `${st.mode}`;
  }
  return out;
}

describe('doctor --root', () => {
  it("reports the hook of the --root project, not of the directory doctor runs in (as the monitor's p does)", async () => {
    const s = setup();
    expect(s.run('install')).toBe(0);
    const elsewhere = scratchDir('omc-top-hooks-elsewhere-');
    const report = await collectDoctorReport({
      cwd: elsewhere,
      rootOverride: s.p.root,
      env: s.env,
      poll: true,
      version: 'test',
      nodeVersion: process.versions.node,
      terminal: { isTTY: false, columns: null, rows: null, colorDepth: null },
      watchTimeoutMs: 1,
    });
    const hooks = report.checks.find((c) => c.id === 'hooks')!;
    expect(hooks.summary.startsWith(`installed in ${s.settings}:`), hooks.summary).toBe(true);
    expect(hooks.summary).not.toContain(elsewhere);
  });
});

describe('with the hook not installed', () => {
  it('the monitor, --json, doctor and status touch nothing of Claude Code’s settings', async () => {
    const s = setup();
    const claudeDir = path.join(s.p.dir, '.claude');
    fs.mkdirSync(claudeDir);
    fs.writeFileSync(path.join(claudeDir, 'settings.json'), '{"permissions":{"allow":[]}}\n');
    const before = { project: snapshot(claudeDir), config: snapshot(s.env.CLAUDE_CONFIG_DIR as string) };
    const env = { ...s.env } as Record<string, string>;
    const bin = path.join(REPO, 'dist', 'omc-top.mjs');
    for (const args of [['--json'], ['doctor'], ['status'], ['hooks', 'status']])
      try {
        execFileSync(process.execPath, [bin, ...args, '--cwd', s.p.dir], { env, stdio: 'pipe' });
      } catch {
        /* doctor may exit 1 on this scratch set-up: only what it wrote matters */
      }
    // The monitor, which registers in its own state directory as the one the hook would ask.
    const t = new TerminalHarness({ args: ['--cwd', s.p.dir], env, cwd: s.p.dir, cols: 100, rows: 30 });
    try {
      const listeners = path.join(s.env.XDG_STATE_HOME as string, 'omc-top', 'permissions', 'listeners');
      await waitFor(() => fs.existsSync(listeners) && fs.readdirSync(listeners).length === 1, { timeoutMs: 20_000 });
      t.write('q');
      await t.waitForExit(20_000);
    } finally {
      t.kill();
    }
    expect(snapshot(claudeDir)).toEqual(before.project);
    expect(snapshot(s.env.CLAUDE_CONFIG_DIR as string)).toEqual(before.config);
    expect(fs.existsSync(path.join(claudeDir, 'settings.local.json'))).toBe(false);
  }, 60_000);
});
