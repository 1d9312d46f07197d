/**
 * `omc-top hooks install` / `uninstall` while Claude Code rewrites the same settings file (an "always allow" rule):
 * a second process (test/helpers/settings-writer.mjs) writes at the two moments that matter, between omc-top's
 * read and its rename, and with its read before the rename and its own rename after. No rule of the writer's is
 * lost, omc-top's change holds, and a writer that never stops makes omc-top give up after a bounded number of tries.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { installHook, uninstallHook, type HookPlan } from '../../src/store/permissions/settings-hook.js';
import { SETTINGS_ATTEMPTS } from '../../src/store/permissions/settings-file.js';
import { stateDir } from '../../src/store/permissions/protocol.js';
import { REPO } from '../helpers/fixtures.js';
import { HOOK, cleanupHooksProjects, hooksProject, scratchDir } from '../helpers/hooks-project.js';

afterEach(cleanupHooksProjects);

const WRITER = path.join(REPO, 'test', 'helpers', 'settings-writer.mjs');
const writer = (...args: string[]) => execFileSync(process.execPath, [WRITER, ...args]);

function setup() {
  const s = hooksProject();
  fs.mkdirSync(path.dirname(s.settings));
  fs.writeFileSync(s.settings, '{"permissions":{"allow":["Bash(ls:*)"]}}\n');
  const plan: HookPlan = { projectDir: s.p.dir, script: HOOK, node: process.execPath, waitSeconds: 60 };
  const doc = () => JSON.parse(fs.readFileSync(s.settings, 'utf8'));
  const rules = () => (doc().permissions?.allow ?? []) as string[];
  const ours = () => JSON.stringify(doc().hooks?.PermissionRequest ?? []).includes('--omc-top-hook');
  return { ...s, plan, state: stateDir(s.env), rules, ours };
}

describe('omc-top hooks with another writer on the settings file', () => {
  it('install: a rule added between its read and its rename is kept, and the hook is in', () => {
    const s = setup();
    let n = 0;
    const r = installHook(s.plan, s.state, {
      beforeReplace: () => n++ === 0 && writer('add', s.settings, 'Bash(rule-1)'),
    });
    expect(r).toMatchObject({ ok: true });
    expect(s.rules()).toEqual(['Bash(ls:*)', 'Bash(rule-1)']);
    expect(s.ours()).toBe(true);
    expect(n).toBe(2); // the first try was dropped, the second made
    // The bytes before install are the file with the writer's rule: uninstall gives that back.
    expect(uninstallHook(s.p.dir, s.state)).toMatchObject({ ok: true });
    expect(s.rules()).toEqual(['Bash(ls:*)', 'Bash(rule-1)']);
    expect(s.ours()).toBe(false);
  });

  it('install: a writer that read before its rename and wrote after drops the hook: install adds it again', () => {
    const s = setup();
    const stash = path.join(scratchDir('omc-top-writer-'), 'view.json');
    let n = 0;
    const r = installHook(s.plan, s.state, {
      beforeReplace: () => n === 0 && writer('read', s.settings, stash),
      afterReplace: () => n++ === 0 && writer('write', s.settings, stash, 'Bash(rule-1)'),
    });
    expect(r).toMatchObject({ ok: true });
    expect(s.rules()).toEqual(['Bash(ls:*)', 'Bash(rule-1)']);
    expect(s.ours()).toBe(true);
    expect(n).toBe(2);
  });

  it('uninstall: a rule added between its read and its rename is kept, and the hook is out', () => {
    const s = setup();
    expect(installHook(s.plan, s.state)).toMatchObject({ ok: true });
    let n = 0;
    const r = uninstallHook(s.p.dir, s.state, {
      beforeReplace: () => n++ === 0 && writer('add', s.settings, 'Bash(rule-1)'),
    });
    expect(r).toMatchObject({ ok: true });
    expect(s.rules()).toEqual(['Bash(ls:*)', 'Bash(rule-1)']);
    expect(s.ours()).toBe(false);
    expect(n).toBe(2);
  });

  it('uninstall: a writer that read before its rename and wrote after brings the hook back: uninstall takes it out again', () => {
    const s = setup();
    expect(installHook(s.plan, s.state)).toMatchObject({ ok: true });
    const stash = path.join(scratchDir('omc-top-writer-'), 'view.json');
    let n = 0;
    const r = uninstallHook(s.p.dir, s.state, {
      beforeReplace: () => n === 0 && writer('read', s.settings, stash),
      afterReplace: () => n++ === 0 && writer('write', s.settings, stash, 'Bash(rule-1)'),
    });
    expect(r).toMatchObject({ ok: true });
    expect(s.rules()).toEqual(['Bash(ls:*)', 'Bash(rule-1)']);
    expect(s.ours()).toBe(false);
    expect(n).toBe(2);
  });

  it('a writer that never stops: install gives up after a bounded number of tries, every rule of the writer kept', () => {
    const s = setup();
    let n = 0;
    const r = installHook(s.plan, s.state, { beforeReplace: () => writer('add', s.settings, `Bash(rule-${++n})`) });
    expect(r.ok).toBe(false);
    expect(r.message).toBe(
      `.claude/settings.local.json kept being rewritten by another program (Claude Code?) while omc-top changed it (${SETTINGS_ATTEMPTS} tries): it is as that program last wrote it; run the command again`,
    );
    expect(n).toBe(SETTINGS_ATTEMPTS);
    expect(s.rules()).toEqual(['Bash(ls:*)', ...Array.from({ length: n }, (_, i) => `Bash(rule-${i + 1})`)]);
    expect(s.ours()).toBe(false);
  });
});
