/**
 * `omc-top hooks install` where `.claude` is a file: the refusal says so in words (as a directory named
 * settings.local.json is said), not as a bare errno, and nothing is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupHooksProjects, hooksProject } from '../helpers/hooks-project.js';

afterEach(cleanupHooksProjects);

describe('hooks install with .claude a file', () => {
  it('says a part of the path is a file, changing nothing', () => {
    const s = hooksProject();
    const claude = path.join(s.p.dir, '.claude');
    fs.writeFileSync(claude, 'not a directory\n');
    expect(s.run('install')).toBe(1);
    const said = s.out.join('');
    expect(said).toContain('.claude/settings.local.json: a part of its path is a file, not a directory (ENOTDIR)');
    expect(said).not.toMatch(/read failed/);
    expect(fs.readFileSync(claude, 'utf8')).toBe('not a directory\n');
  });
});
