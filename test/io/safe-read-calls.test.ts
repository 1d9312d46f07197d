import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readTextSync } from '../../src/io/safe-fs/index.js';
import fc from 'fast-check';
import { OutsideRootError, containedPath, isInside, resolveUnder } from '../../src/io/safe-fs/paths.js';

let base: string;
let root: string;
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-read-calls-')));
  root = path.join(base, '.omc');
  fs.mkdirSync(root);
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(base, { recursive: true, force: true });
});

/** fstat answers `delta` bytes fewer than the file holds: the file grew between fstat and read. */
function statSmallerBy(delta: number): void {
  const real = fs.fstatSync.bind(fs);
  vi.spyOn(fs, 'fstatSync').mockImplementation(((fd: number) => {
    const st = real(fd);
    return Object.assign(Object.create(Object.getPrototypeOf(st) as object) as fs.Stats, st, {
      size: st.size - delta,
    });
  }) as typeof fs.fstatSync);
}

describe('a safe read asks the kernel only for what the file holds', () => {
  it('reads a file that holds what fstat said with one read() call, all of it', () => {
    const text = '{"active":true,"iteration":3}'.padEnd(900, ' ');
    fs.writeFileSync(path.join(root, 'ralph-state.json'), text);
    const reads = vi.spyOn(fs, 'readSync');
    const r = readTextSync(root, 'ralph-state.json');
    expect(r).toMatchObject({ ok: true, text, bytes: 900 });
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('still looks past the cap: a file that grew past it while read is too large', () => {
    fs.writeFileSync(path.join(root, 'big.json'), Buffer.alloc(1030, 0x20));
    statSmallerBy(6); // fstat says 1,024 bytes: exactly the cap
    expect(readTextSync(root, 'big.json', 1024)).toMatchObject({ ok: false, code: 'too-large' });
  });

  it('a file exactly at the cap that did not grow is read whole', () => {
    fs.writeFileSync(path.join(root, 'cap.json'), Buffer.alloc(1024, 0x20));
    expect(readTextSync(root, 'cap.json', 1024)).toMatchObject({ ok: true, bytes: 1024 });
  });

  it('reads files fstat sized at 0 (procfs) to their end, still capped', () => {
    fs.writeFileSync(path.join(root, 'stat'), 'cpu  1 2 3\n');
    statSmallerBy(11); // fstat says 0 bytes
    expect(readTextSync(root, 'stat')).toMatchObject({ ok: true, text: 'cpu  1 2 3\n' });
  });
});

describe('containedPath joins the resolved directory and the name as path.join would', () => {
  it('under plain directories and under a directory symlinked inside the root', () => {
    fs.mkdirSync(path.join(root, 'state', 'sessions', 'a'), { recursive: true });
    fs.symlinkSync(path.join(root, 'state', 'sessions', 'a'), path.join(root, 'state', 'linked'));
    expect(containedPath(root, 'state/sessions/a/ralph-state.json', 'the root')).toEqual({
      ok: true,
      path: path.join(root, 'state', 'sessions', 'a', 'ralph-state.json'),
    });
    expect(containedPath(root, 'state/linked/ralph-state.json', 'the root')).toEqual({
      ok: true,
      path: path.join(root, 'state', 'sessions', 'a', 'ralph-state.json'),
    });
    expect(containedPath(root, 'top.json', 'the root')).toEqual({ ok: true, path: path.join(root, 'top.json') });
  });

  it('a root at / joins without a doubled slash', () => {
    expect(containedPath('/', 'tmp', 'the root')).toEqual({ ok: true, path: path.join(fs.realpathSync('/'), 'tmp') });
  });
});

describe('isInside compares whole path segments', () => {
  it('a path below the parent, or the parent itself, is inside; a sibling sharing its prefix is not', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b/c')).toBe(true);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a/bc/d')).toBe(false);
    expect(isInside('/a/b', '/a')).toBe(false);
    expect(isInside('/a/b/', '/a/b/c')).toBe(true);
    expect(isInside('/', '/anything')).toBe(true);
    // Not yet normal: resolved first, as before.
    expect(isInside('/a/b/../b', '/a/b/c')).toBe(true);
    expect(isInside('/a/b', '/a/b/../bc')).toBe(false);
  });
});

describe('resolveUnder lands where path.resolve does', () => {
  // Its shortcut for a plain relative path skips path.resolve: any `.`, `..` or empty segment, or a trailing
  // slash, must take the long way (and an escape be refused), whatever the root.
  const segment = fc.constantFrom('a', 'b.json', '.', '..', '', '.a', '..a', 'a.', 'a..', '...');
  const rel = fc.array(segment, { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));
  it('for every mix of plain, dot and empty segments, under two roots in turn', () => {
    fc.assert(
      fc.property(fc.constantFrom('/r/.omc', '/r/x/../.omc', '/'), rel, (r, p) => {
        const want = path.resolve(r, p);
        const inside = isInside(path.resolve(r), want);
        let got: string | null;
        try {
          got = resolveUnder(r, p);
        } catch (e) {
          expect(e).toBeInstanceOf(OutsideRootError);
          got = null;
        }
        expect(got).toBe(inside ? want : null);
      }),
      { numRuns: 2000 },
    );
  });
});
