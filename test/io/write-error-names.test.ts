/**
 * A failed contained write names the path it was writing, never the walk's internal /proc/self/fd/<N> handle
 * (the message reaches the user: "could not write .claude/settings.local.json: …").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { atomicWriteSync } from '../../src/io/safe-fs/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('a contained write that fails while making its directories', () => {
  it('says the real path in its message and its path field', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-write-names-'));
    dirs.push(root);
    const level = 'a'.repeat(300); // too long a name for any filesystem: the walk's open or mkdir fails on it
    let err: NodeJS.ErrnoException | null = null;
    try {
      atomicWriteSync(root, `${level}/f.json`, 'x', { mkdir: 'shared' });
    } catch (e) {
      err = e as NodeJS.ErrnoException;
    }
    expect(err?.code).toBe('ENAMETOOLONG');
    expect(err?.message).not.toContain('/proc/self/fd');
    expect(err?.message).toContain(path.join(fs.realpathSync(root), level));
    expect(err?.path).toBe(path.join(fs.realpathSync(root), level));
  });
});
