/**
 * An older omc-top (before settings-sources.ts) wrote its hook entry into the settings file of OMC's state
 * anchor: for a submodule, the superproject's. `hooks status` and `uninstall` run in the submodule find that entry
 * (recognised only as install writes it), say it, and take it out with every other byte of the file kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hooksCheck } from '../../src/commands/doctor-hooks.js';
import { stateDir } from '../../src/store/permissions/protocol.js';
import { hookCommand, hookStatus, installHook } from '../../src/store/permissions/settings-hook.js';
import { cleanupHooksProjects, HOOK, hooksIn, hooksProjectWithSubmodule } from '../helpers/hooks-project.js';

afterEach(cleanupHooksProjects);

describe('hooks status and uninstall in a submodule find what an older omc-top wrote in the superproject', () => {
  it('a file edited since: said by status and doctor, then cut out byte for byte; a look-alike of the user stays', () => {
    // A superproject with a submodule `m`; its file is where an older omc-top wrote.
    const { s, sub } = hooksProjectWithSubmodule();
    const superFile = s.settings;
    const command = hookCommand({ node: process.execPath, script: HOOK });
    // The user's own spacing and key order, a hook of theirs that merely mentions the marker, and the entry as an
    // older install wrote it (then the file was edited by hand).
    const ours = `{ "matcher": "*", "hooks": [ { "type": "command", "command": ${JSON.stringify(command)}, "timeout": 130 } ] }`;
    const mine = `{"matcher":"Bash","hooks":[{"type":"command","command":"echo --omc-top-hook"}]}`;
    const before = `{\n    "permissions": {"allow": ["Bash(ls)"]},\n  "hooks": {"PermissionRequest": [\n      ${mine},\n      ${ours}\n  ]}\n}\n`;
    fs.mkdirSync(path.dirname(superFile), { recursive: true });
    fs.writeFileSync(superFile, before);

    const st = hooksIn(s, sub, 'status');
    expect(st.said).toBe(
      `omc-top hooks: not installed in ${path.join(sub, '.claude', 'settings.local.json')}; omc-top's hook is also in ${superFile} (an older omc-top wrote it there): \`omc-top hooks uninstall\` removes it\n`,
    );
    expect(hookStatus(sub, s.env).alsoIn).toEqual([superFile]);
    expect(hooksCheck(sub, s.env)).toMatchObject({
      status: 'warn',
      details: expect.arrayContaining([expect.stringContaining(`omc-top's hook is also in ${superFile}`)]),
    });

    const un = hooksIn(s, sub, 'uninstall');
    expect(un).toEqual({
      code: 0,
      said: `omc-top hooks: removed the omc-top PermissionRequest hook an older omc-top wrote in ${superFile}\n`,
    });
    expect(fs.readFileSync(superFile, 'utf8')).toBe(
      `{\n    "permissions": {"allow": ["Bash(ls)"]},\n  "hooks": {"PermissionRequest": [\n      ${mine}\n  ]}\n}\n`,
    );
    expect(hookStatus(sub, s.env).alsoIn).toEqual([]);
    expect(hooksIn(s, sub, 'uninstall').said).toBe(
      `omc-top hooks: no omc-top hook in ${path.join(sub, '.claude', 'settings.local.json')}: nothing to remove\n`,
    );
  });

  it('a file as the older install left it: uninstall from the submodule gives back the bytes from before', () => {
    // A superproject with a submodule `m`; its file is where an older omc-top wrote.
    const { s, sub } = hooksProjectWithSubmodule();
    const superFile = s.settings;
    const original = '{\n  "permissions": { "deny": ["Read(./secrets)"] }\n}\n';
    fs.mkdirSync(path.dirname(superFile), { recursive: true });
    fs.writeFileSync(superFile, original);
    // What the older omc-top did: install into the anchor's (the superproject's) file, with its record.
    const dir = stateDir(s.env);
    expect(installHook({ projectDir: s.p.dir, script: HOOK, node: process.execPath, waitSeconds: 120 }, dir).ok).toBe(
      true,
    );
    // omc-top's own entry in the submodule's file as well, as today's install writes it.
    expect(hooksIn(s, sub, 'install').code).toBe(0);
    const un = hooksIn(s, sub, 'uninstall');
    expect(un.code).toBe(0);
    expect(un.said).toContain(
      `removed the omc-top PermissionRequest hook from ${path.join(sub, '.claude', 'settings.local.json')}`,
    );
    expect(un.said).toContain(`removed the omc-top PermissionRequest hook an older omc-top wrote in ${superFile}`);
    expect(fs.readFileSync(superFile, 'utf8')).toBe(original);
    expect(fs.existsSync(path.join(sub, '.claude'))).toBe(false);
  });
});
