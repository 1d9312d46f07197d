/**
 * nothingAtSync says a path is missing only when nothing is there (ENOENT, or a file where a directory on the way
 * should be): what doctor's "does not exist" rests on. A path that is there, of any kind, is not missing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { nothingAtSync } from '../../src/io/safe-fs/index.js';

describe('nothingAtSync', () => {
  it('is true for no entry and for a path under a file; false for a directory, a file, a symlink to one', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-nothing-at-'));
    onTestFinished(() => fs.rmSync(base, { recursive: true, force: true }));
    const file = path.join(base, 'f');
    fs.writeFileSync(file, 'x');
    fs.symlinkSync(base, path.join(base, 'link'));
    expect(nothingAtSync(path.join(base, 'none'))).toBe(true);
    expect(nothingAtSync(path.join(file, 'under'))).toBe(true);
    expect(nothingAtSync(base)).toBe(false);
    expect(nothingAtSync(file)).toBe(false);
    expect(nothingAtSync(path.join(base, 'link'))).toBe(false);
  });
});
