import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  atomicWriteSync,
  ensureDirUnder,
  isMissingSync,
  listDirSync,
  readJsonSync,
  readTextByNameSync,
  readTextSync,
  statByNameSync,
  touchUnder,
  unlinkUnder,
} from '../../src/io/safe-fs/index.js';

let base: string;
let root: string;
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-fsx-')));
  root = path.join(base, '.omc');
  fs.mkdirSync(root);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe('safe reads under the .omc root', () => {
  it('refuses a symlink that points out of the root, with a specific reason', () => {
    fs.writeFileSync(path.join(base, 'secret.json'), '{"x":1}');
    fs.symlinkSync(path.join(base, 'secret.json'), path.join(root, 'evil.json'));
    const r = readTextSync(root, 'evil.json');
    expect(r).toMatchObject({ ok: false, code: 'outside-root' });
    expect(!r.ok && r.message).toMatch(/^symlink points outside the \.omc root \(to /);
  });

  it('names the root as the caller calls it (a project directory is no .omc root)', () => {
    fs.writeFileSync(path.join(base, 'secret.json'), '{"x":1}');
    fs.symlinkSync(path.join(base, 'secret.json'), path.join(root, 'evil.json'));
    fs.mkdirSync(path.join(base, 'elsewhere'));
    fs.symlinkSync(path.join(base, 'elsewhere'), path.join(root, 'state'));
    const opts = { rootLabel: 'the project directory' };
    const file = readTextSync(root, 'evil.json', undefined, opts);
    expect(!file.ok && file.message).toMatch(/^symlink points outside the project directory \(to /);
    const dir = readTextSync(root, 'state/x.json', undefined, opts);
    expect(!dir.ok && dir.message).toMatch(/^directory is a symlink to outside the project directory \(/);
  });

  it('refuses to read through a directory symlinked out of the root', () => {
    const outside = path.join(base, 'elsewhere');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'ralph-state.json'), '{"active":true}');
    fs.symlinkSync(outside, path.join(root, 'state'));
    const r = readTextSync(root, 'state/ralph-state.json');
    expect(r).toMatchObject({ ok: false, code: 'outside-root' });
  });

  it('follows a symlink that stays inside the root', () => {
    fs.writeFileSync(path.join(root, 'real.json'), '{"x":1}');
    fs.symlinkSync('real.json', path.join(root, 'alias.json'));
    expect(readJsonSync(root, 'alias.json')).toMatchObject({ ok: true, value: { x: 1 } });
  });

  it('rejects ../ escapes before touching the disk', () => {
    expect(readTextSync(root, '../outside.json')).toMatchObject({ ok: false, code: 'outside-root' });
  });

  it('turns huge, binary, invalid, truncated and empty files into specific messages', () => {
    fs.writeFileSync(path.join(root, 'big.json'), Buffer.alloc(2048, 0x20));
    expect(readTextSync(root, 'big.json', 1024)).toMatchObject({ ok: false, code: 'too-large' });
    fs.writeFileSync(path.join(root, 'bin.json'), Buffer.from([0x7b, 0x00, 0x7d]));
    expect(readTextSync(root, 'bin.json')).toMatchObject({ ok: false, code: 'binary' });
    fs.writeFileSync(path.join(root, 'cut.json'), '{"active": tr');
    const cut = readJsonSync(root, 'cut.json');
    expect(cut.ok).toBe(false);
    expect(!cut.ok && cut.message).toMatch(/truncated JSON/);
    fs.writeFileSync(path.join(root, 'empty.json'), '');
    expect(readJsonSync(root, 'empty.json')).toMatchObject({ ok: false, code: 'empty' });
    fs.mkdirSync(path.join(root, 'dir.json'));
    expect(readTextSync(root, 'dir.json')).toMatchObject({ ok: false, code: 'not-a-file' });
  });

  it('decodes invalid UTF-8 leniently and says so; strips a BOM', () => {
    fs.writeFileSync(
      path.join(root, 'latin1.json'),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
    );
    const r = readTextSync(root, 'latin1.json');
    expect(r).toMatchObject({ ok: true, invalidUtf8: true });
    fs.writeFileSync(path.join(root, 'bom.json'), '\ufeff{"a":1}');
    expect(readJsonSync(root, 'bom.json')).toMatchObject({ ok: true, value: { a: 1 } });
  });

  it('lists a missing directory as missing and a file-as-directory as a specific error', () => {
    expect(listDirSync(root, 'state/sessions')).toMatchObject({ ok: false, code: 'missing' });
    fs.writeFileSync(path.join(root, 'state'), 'oops');
    expect(listDirSync(root, 'state')).toMatchObject({ ok: false, code: 'not-a-file' });
  });
});

describe('a file whose name is not UTF-8, read by its bytes', () => {
  const bad = (name: string) => Buffer.concat([Buffer.from(name), Buffer.from([0xff])]);
  const under = (dir: string, name: Buffer) => Buffer.concat([Buffer.from(`${dir}/`), name]);

  it("listDirSync gives the name's bytes, which read and stat that file (its decoded name opens nothing)", () => {
    fs.mkdirSync(path.join(root, 'wiki'));
    fs.writeFileSync(under(path.join(root, 'wiki'), bad('a')), 'first');
    fs.writeFileSync(under(path.join(root, 'wiki'), bad('b')), 'second');
    const list = listDirSync(root, 'wiki');
    const entries = list.ok ? list.entries : [];
    expect(entries.map((e) => e.shownName).sort()).toEqual(['a\\xff', 'b\\xff']);
    const a = entries.find((e) => e.shownName === 'a\\xff')!;
    expect(readTextSync(root, `wiki/${a.name}`)).toMatchObject({ ok: false, code: 'missing' });
    expect(readTextByNameSync(root, 'wiki', a.nameBytes!)).toMatchObject({ ok: true, text: 'first' });
    expect(statByNameSync(root, 'wiki', a.nameBytes!)?.size).toBe(5);
  });

  it('refuses a symlink so named, a directory linked out of the root, and a name that is no single name', () => {
    fs.mkdirSync(path.join(root, 'wiki'));
    fs.writeFileSync(path.join(root, 'target.md'), 'x');
    fs.symlinkSync(path.join(root, 'target.md'), under(path.join(root, 'wiki'), bad('link')));
    expect(readTextByNameSync(root, 'wiki', bad('link'))).toMatchObject({ ok: false, code: 'not-a-file' });
    fs.mkdirSync(path.join(base, 'outside'));
    fs.writeFileSync(under(path.join(base, 'outside'), bad('x')), 'secret');
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'out'));
    expect(readTextByNameSync(root, 'out', bad('x'))).toMatchObject({ ok: false, code: 'outside-root' });
    for (const name of [Buffer.from('..'), Buffer.from('.'), bad('../'), Buffer.alloc(0)])
      expect(readTextByNameSync(root, 'wiki', name)).toMatchObject({ ok: false, code: 'outside-root' });
  });
});

describe('atomic writes never leave the root', () => {
  it('writes pretty bytes with OMC temp naming and mode 0600, leaving no temp behind', () => {
    atomicWriteSync(root, 'state/x.json', '{\n  "a": 1\n}', { mkdir: 'shared' });
    expect(fs.readFileSync(path.join(root, 'state', 'x.json'), 'utf8')).toBe('{\n  "a": 1\n}');
    expect(fs.statSync(path.join(root, 'state', 'x.json')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.join(root, 'state'))).toEqual(['x.json']);
  });

  it("makes a missing level 0700 when it is omc-top's own, and 0777 less the umask when it is OMC's", () => {
    const before = process.umask(0o002); // a umask that keeps group write: the two modes differ in every bit group
    try {
      ensureDirUnder(root, 'own/requests', 'private');
      atomicWriteSync(root, 'state/sessions/s1/x.json', '{}', { mkdir: 'shared' });
    } finally {
      process.umask(before);
    }
    const mode = (rel: string) => fs.statSync(path.join(root, rel)).mode & 0o777;
    expect([mode('own'), mode('own/requests')]).toEqual([0o700, 0o700]);
    expect([mode('state'), mode('state/sessions'), mode('state/sessions/s1')]).toEqual([0o775, 0o775, 0o775]);
    expect(mode('state/sessions/s1/x.json')).toBe(0o600);
  });

  it('gives the file the permission bits it is asked for (a file it rewrites but does not own), never setuid', () => {
    atomicWriteSync(root, 'settings.json', '{}', { mode: 0o4644 });
    expect(fs.statSync(path.join(root, 'settings.json')).mode & 0o7777).toBe(0o644);
    atomicWriteSync(root, 'settings.json', '{"a":1}', { mode: 0o640 });
    expect(fs.statSync(path.join(root, 'settings.json')).mode & 0o7777).toBe(0o640);
    expect(fs.readFileSync(path.join(root, 'settings.json'), 'utf8')).toBe('{"a":1}');
  });

  it('refuses to write through a symlinked directory that leads out of the root', () => {
    const outside = path.join(base, 'outside');
    fs.mkdirSync(outside);
    fs.mkdirSync(path.join(root, 'state'));
    fs.symlinkSync(outside, path.join(root, 'state', 'sessions'));
    expect(() => atomicWriteSync(root, 'state/sessions/x.json', '{}')).toThrow(/outside the \.omc root/);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(() => unlinkUnder(root, 'state/sessions/x.json')).toThrow(/outside the \.omc root/);
  });

  it('refuses to write through a symlinked file and to escape with ../', () => {
    fs.writeFileSync(path.join(base, 'target.json'), 'keep');
    fs.symlinkSync(path.join(base, 'target.json'), path.join(root, 'link.json'));
    expect(() => atomicWriteSync(root, 'link.json', 'overwrite')).toThrow(/symlink/);
    expect(fs.readFileSync(path.join(base, 'target.json'), 'utf8')).toBe('keep');
    expect(() => atomicWriteSync(root, '../escape.json', 'x')).toThrow(/outside the \.omc root/);
    expect(fs.existsSync(path.join(base, 'escape.json'))).toBe(false);
  });

  it('touchUnder sets a file time, its content untouched; never a symlink target, a directory, or outside', () => {
    const at = Date.parse('2026-01-02T03:04:05.678Z');
    atomicWriteSync(root, 'cache.json', '{"a":1}');
    expect(touchUnder(root, 'cache.json', at)).toBe(true);
    expect(fs.statSync(path.join(root, 'cache.json')).mtimeMs).toBeCloseTo(at, 0);
    expect(fs.readFileSync(path.join(root, 'cache.json'), 'utf8')).toBe('{"a":1}');
    fs.writeFileSync(path.join(base, 'target.json'), 'keep');
    const before = fs.statSync(path.join(base, 'target.json')).mtimeMs;
    fs.symlinkSync(path.join(base, 'target.json'), path.join(root, 'link.json'));
    fs.mkdirSync(path.join(root, 'dir'));
    expect([touchUnder(root, 'link.json', at), touchUnder(root, 'dir', at), touchUnder(root, 'none', at)]).toEqual([
      false,
      false,
      false,
    ]);
    expect(fs.statSync(path.join(base, 'target.json')).mtimeMs).toBe(before);
    expect(() => touchUnder(root, '../target.json', at)).toThrow(/outside the \.omc root/);
    expect(fs.statSync(path.join(base, 'target.json')).mtimeMs).toBe(before);
  });
});

describe('isMissingSync: only a path that is not there counts as missing', () => {
  it('is true for a missing path and false for anything present, linked or unreachable', () => {
    fs.mkdirSync(path.join(root, 'dir'));
    fs.writeFileSync(path.join(root, 'file'), 'x');
    fs.symlinkSync('nowhere', path.join(root, 'dangling'));
    expect(isMissingSync(root, 'absent')).toBe(true);
    expect(isMissingSync(root, 'absent/deeper')).toBe(true);
    expect(isMissingSync(root, 'dir')).toBe(false);
    expect(isMissingSync(root, 'file')).toBe(false);
    // A dangling link is there (the work it would skip must still say what the link is).
    expect(isMissingSync(root, 'dangling')).toBe(false);
    // A file where a directory is expected is not "missing": ENOTDIR, not ENOENT.
    expect(isMissingSync(root, 'file/child')).toBe(false);
    expect(isMissingSync(root, '../escape')).toBe(false);
  });
});
