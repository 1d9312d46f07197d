/**
 * safe-fs's raw byte read (io/safe-fs/bytes.ts), as the code cache uses it: a 2 MB file under a 64 MB cap. The
 * bytes are the file's, a file over the cap is refused, a procfs file (size 0) is read to its end, and the
 * buffer handed back is about the file's size, never the cap's (64 MB buffers cost ~10 ms and full
 * collections at every start).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { readBytesSync } from '../../src/io/safe-fs/bytes.js';

const CAP = 64 << 20;

describe('readBytesSync', () => {
  it("gives a file's exact bytes, reading into room for its size, never the cap's", ({ tempDir }) => {
    const dir = tempDir('bytes-');
    const data = randomBytes(300_000);
    fs.writeFileSync(path.join(dir, 'f.bin'), data);
    const alloc = vi.spyOn(Buffer, 'allocUnsafe');
    try {
      const r = readBytesSync(dir, 'f.bin', CAP);
      expect(r.ok && r.bytes.equals(data)).toBe(true);
      expect(r.ok && r.bytes.buffer.byteLength).toBeLessThanOrEqual(data.length + 1);
      expect(Math.max(...alloc.mock.calls.map(([n]) => n))).toBeLessThanOrEqual(data.length + 1);
    } finally {
      alloc.mockRestore();
    }
  });

  it('refuses a file over the cap and reads one exactly at it; an empty file is empty', ({ tempDir }) => {
    const dir = tempDir('bytes-');
    fs.writeFileSync(path.join(dir, 'f.bin'), Buffer.alloc(1000, 7));
    fs.writeFileSync(path.join(dir, 'empty'), '');
    expect(readBytesSync(dir, 'f.bin', 999)).toMatchObject({ ok: false, code: 'too-large' });
    const at = readBytesSync(dir, 'f.bin', 1000);
    expect(at.ok && at.bytes.equals(Buffer.alloc(1000, 7))).toBe(true);
    const empty = readBytesSync(dir, 'empty', CAP);
    expect(empty.ok && empty.bytes.length).toBe(0);
  });

  it('reads a file that reports no size (procfs) to its end, past the room it starts with', () => {
    // This process's memory map: procfs says 0 bytes; a Node process's map is far longer than 4 KB.
    const r = readBytesSync('/proc', 'self/maps', CAP);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const text = r.bytes.toString('latin1');
    expect(r.bytes.length).toBeGreaterThan(4096);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n')[0]).toBe(fs.readFileSync('/proc/self/maps', 'latin1').split('\n')[0]);
    expect(readBytesSync('/proc', 'self/maps', 4096)).toMatchObject({ ok: false, code: 'too-large' });
  });
});
