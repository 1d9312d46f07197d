// procfs reports size 0 for files that have content; the safe read path must still read them whole.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTextSync } from '../../src/io/safe-fs/index.js';

describe.runIf(fs.existsSync('/proc/self/status'))('readTextSync on files whose stat size is 0', () => {
  it('reads a procfs file whole', () => {
    expect(fs.statSync('/proc/self/status').size).toBe(0);
    const r = readTextSync('/proc', 'self/status');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.text).toMatch(/^Name:/);
    expect(r.text).toMatch(/\nPid:\s+\d+/);
    expect(r.text.length).toBeGreaterThan(4096 / 8);
  });

  it('reads a small procfs number as the kernel prints it', () => {
    const r = readTextSync('/proc', 'sys/fs/inotify/max_user_watches', 64);
    expect(r.ok && r.text.trim()).toBe(fs.readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim());
  });

  it('still refuses a size-0 file that is longer than the cap', () => {
    const r = readTextSync('/proc', 'self/status', 100);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.code).toBe('too-large');
  });
});
