/** The one "read again only when its stat changed" helper: each caller's parts, and what a missing file means. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { followedStampKey, MISSING_STAMP, sameStamp, stampKey, stampOf } from '../../src/io/file-stamp.js';

const ST = { dev: 1, ino: 2, size: 3, mtimeMs: 4, ctimeMs: 5 };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-stamp-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('file stamps', () => {
  it('compares only the parts a caller kept, and a part kept as unknown not at all', () => {
    const kept = stampOf(ST, ['mtimeMs', 'size']);
    expect(kept).toEqual({ mtimeMs: 4, size: 3 });
    expect(sameStamp({ ...ST, ino: 9, ctimeMs: 9 }, kept)).toBe(true);
    expect(sameStamp({ ...ST, size: 30 }, kept)).toBe(false);
    expect(sameStamp({ ...ST, ctimeMs: 50 }, { ino: 2, size: 3, mtimeMs: 4, ctimeMs: undefined })).toBe(true);
    expect(sameStamp({ ...ST, ctimeMs: 50 }, { ino: 2, size: 3, mtimeMs: 4, ctimeMs: 5 })).toBe(false);
  });

  it('no file now and none then is the same; one of them only is not', () => {
    expect(sameStamp(null, null)).toBe(true);
    expect(sameStamp(ST, null)).toBe(false);
    expect(sameStamp(null, ST)).toBe(false);
    expect(stampKey(null, ['ino'])).toBe(MISSING_STAMP);
    expect(stampKey(ST, ['size', 'mtimeMs', 'ino'])).toBe('3:4:2');
  });

  it('follows a link to the file it names, and says a missing one', () => {
    const file = path.join(dir, 'npmrc');
    const link = path.join(dir, 'link');
    expect(followedStampKey(file)).toBe(MISSING_STAMP);
    fs.writeFileSync(file, 'prefix=/a\n');
    fs.symlinkSync(file, link);
    const before = followedStampKey(link);
    expect(before).toBe(followedStampKey(file));
    fs.appendFileSync(file, 'x=1\n');
    expect(followedStampKey(link)).not.toBe(before);
  });
});
