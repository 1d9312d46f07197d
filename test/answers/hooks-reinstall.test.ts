/**
 * `omc-top hooks install` run again: what uninstall gives back afterwards. The bytes from before the hook come
 * back only when they are known to be the original (nothing changed since the install that saw them); a user's
 * edits made in between are never rolled back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookStatus } from '../../src/store/permissions/settings-hook.js';
import { cleanupHooksProjects, hooksProject } from '../helpers/hooks-project.js';

afterEach(cleanupHooksProjects);

const ORIGINAL = '{"permissions":{"allow":["Bash(ls)"]}}\n';
const EDITED = '{"permissions":{"allow":["Bash(ls)","Bash(npm test)","Bash(git status)"]},"env":{"FOO":"bar"}}\n';

function withSettings(text: string) {
  const s = hooksProject();
  fs.mkdirSync(path.dirname(s.settings), { recursive: true });
  fs.writeFileSync(s.settings, text);
  return s;
}

const read = (file: string) => fs.readFileSync(file, 'utf8');

describe('omc-top hooks install, again', () => {
  it('after the hook was removed by hand and the file edited: uninstall gives back the edited file, not the original', () => {
    const s = withSettings(ORIGINAL);
    expect(s.run('install')).toBe(0);
    fs.writeFileSync(s.settings, EDITED); // the user deletes our entry (docs allow it) and adds permissions
    expect(s.run('install')).toBe(0);
    expect(s.run('uninstall')).toBe(0);
    expect(read(s.settings)).toBe(EDITED);
  });

  it('in a project deleted and re-created at the same path: uninstall gives back the new project’s file', () => {
    const s = withSettings(ORIGINAL);
    expect(s.run('install')).toBe(0);
    fs.rmSync(path.dirname(s.settings), { recursive: true });
    fs.mkdirSync(path.dirname(s.settings));
    fs.writeFileSync(s.settings, EDITED);
    expect(s.run('install')).toBe(0);
    expect(s.run('uninstall')).toBe(0);
    expect(read(s.settings)).toBe(EDITED);
  });

  it('with nothing changed between installs (only the wait): uninstall still gives back the original bytes', () => {
    const s = withSettings(ORIGINAL);
    expect(s.run('install')).toBe(0);
    const configDir = path.join(s.env.XDG_CONFIG_HOME as string, 'omc-top');
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ answers: { permissionWaitSeconds: 20 } }));
    expect(s.run('install')).toBe(0); // rewrites the entry: timeout 25
    expect(JSON.parse(read(s.settings)).hooks.PermissionRequest[0].hooks[0].timeout).toBe(25);
    expect(s.run('uninstall')).toBe(0);
    expect(read(s.settings)).toBe(ORIGINAL);
  });

  it('with our hook still there but the file edited since: uninstall removes only the hook, the edits stay', () => {
    const s = withSettings(ORIGINAL);
    expect(s.run('install')).toBe(0);
    const doc = JSON.parse(read(s.settings));
    doc.permissions.allow.push('Bash(npm test)');
    doc.env = { FOO: 'bar' };
    fs.writeFileSync(s.settings, JSON.stringify(doc));
    expect(s.run('install')).toBe(0);
    expect(s.run('uninstall')).toBe(0);
    expect(JSON.parse(read(s.settings))).toEqual({
      permissions: { allow: ['Bash(ls)', 'Bash(npm test)'] },
      env: { FOO: 'bar' },
    });
  });

  it('with our hook there and no record of the install (state directory wiped): uninstall removes the hook', () => {
    const s = withSettings(ORIGINAL);
    expect(s.run('install')).toBe(0);
    fs.rmSync(s.recordsDir, { recursive: true });
    expect(s.run('install')).toBe(0);
    expect(s.run('uninstall')).toBe(0);
    expect(hookStatus(s.p.dir, s.env).installed).toBe(false);
    expect(JSON.parse(read(s.settings))).toEqual(JSON.parse(ORIGINAL));
  });

  it('a record written before re-installs were told apart (no "exact" field) still gives back the original', () => {
    const s = withSettings(ORIGINAL);
    expect(s.run('install')).toBe(0);
    const [name] = fs.readdirSync(s.recordsDir).filter((n) => n.startsWith('installed-'));
    const file = path.join(s.recordsDir, name as string);
    const { exact, ...older } = JSON.parse(read(file));
    expect(exact).toBe(true);
    fs.writeFileSync(file, JSON.stringify(older));
    expect(s.run('uninstall')).toBe(0);
    expect(read(s.settings)).toBe(ORIGINAL);
  });
});
