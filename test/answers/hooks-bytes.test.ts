/**
 * `omc-top hooks` and the bytes of Claude Code's settings file: what it cannot read it refuses, leaving the file
 * alone (a Latin-1 byte would come back as U+FFFD, naming another path); a byte-order mark (Claude Code 2.1.332
 * reads a file that has one) is kept through install and uninstall, and uninstall gives back the very bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookStatus } from '../../src/store/permissions/settings-hook.js';
import { cleanupHooksProjects, hooksProject } from '../helpers/hooks-project.js';

afterEach(cleanupHooksProjects);

const LATIN1 = Buffer.concat([
  Buffer.from('{"permissions":{"allow":["Read(/data/caf'),
  Buffer.from([0xe9]),
  Buffer.from('/**)"]}}\n'),
]);
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const WITH_BOM = Buffer.concat([BOM, Buffer.from('{"permissions":{"allow":["Bash(ls:*)"]}}\n')]);

describe('omc-top hooks and the settings file’s bytes', () => {
  it('a file that is not UTF-8: install and uninstall refuse (exit 2, the byte and where), the bytes stay', () => {
    const s = hooksProject();
    fs.mkdirSync(path.dirname(s.settings));
    fs.writeFileSync(s.settings, LATIN1);
    const mtime = fs.statSync(s.settings).mtimeMs;
    expect(s.run('install')).toBe(2);
    expect(s.out.join('')).toContain(
      '.claude/settings.local.json is not valid UTF-8 (byte 0xe9 at offset 40, line 1): writing the hook would change bytes omc-top cannot read; save it as UTF-8 first (nothing was changed)',
    );
    expect(fs.readFileSync(s.settings).equals(LATIN1)).toBe(true);
    expect(fs.statSync(s.settings).mtimeMs).toBe(mtime);
    s.out.length = 0;
    expect(s.run('uninstall')).toBe(2);
    expect(s.out.join('')).toContain('is not valid UTF-8 (byte 0xe9 at offset 40, line 1)');
    expect(fs.readFileSync(s.settings).equals(LATIN1)).toBe(true);
    expect(hookStatus(s.p.dir, s.env).problem).toMatch(/is not valid UTF-8/);
  });

  it('a file edited to hold a byte that is not UTF-8 after install: uninstall refuses too, the hook stays', () => {
    const s = hooksProject();
    expect(s.run('install')).toBe(0);
    const doc = JSON.parse(fs.readFileSync(s.settings, 'utf8'));
    doc.permissions = { allow: ['Read(/data/cafX/**)'] };
    const edited = Buffer.from(JSON.stringify(doc, null, 2));
    edited[edited.indexOf('cafX') + 3] = 0xe9;
    fs.writeFileSync(s.settings, edited);
    expect(s.run('uninstall')).toBe(2);
    expect(fs.readFileSync(s.settings).equals(edited)).toBe(true);
  });

  it('a byte-order mark: kept on install, and uninstall gives back the very bytes', () => {
    const s = hooksProject();
    fs.mkdirSync(path.dirname(s.settings));
    fs.writeFileSync(s.settings, WITH_BOM);
    expect(s.run('install')).toBe(0);
    const installed = fs.readFileSync(s.settings);
    expect(installed.subarray(0, 3).equals(BOM)).toBe(true);
    expect(JSON.parse(installed.subarray(3).toString('utf8')).permissions).toEqual({ allow: ['Bash(ls:*)'] });
    expect(hookStatus(s.p.dir, s.env)).toMatchObject({ installed: true, problem: null });
    // A second install finds the file as it would write it: nothing changes.
    s.out.length = 0;
    expect(s.run('install')).toBe(0);
    expect(s.out.join('')).toContain('nothing changed');
    expect(s.run('uninstall')).toBe(0);
    expect(fs.readFileSync(s.settings).equals(WITH_BOM)).toBe(true);
  });

  it('a byte-order mark in a file changed since install: uninstall takes the entry out and keeps the mark', () => {
    const s = hooksProject();
    fs.mkdirSync(path.dirname(s.settings));
    fs.writeFileSync(s.settings, WITH_BOM);
    expect(s.run('install')).toBe(0);
    fs.appendFileSync(s.settings, ' ');
    expect(s.run('uninstall')).toBe(0);
    const after = fs.readFileSync(s.settings);
    expect(after.subarray(0, 3).equals(BOM)).toBe(true);
    expect(JSON.parse(after.subarray(3).toString('utf8'))).toEqual({ permissions: { allow: ['Bash(ls:*)'] } });
  });
});
