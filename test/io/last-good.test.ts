/**
 * The last-good rule's edges, once for every domain: a leading-edge failure
 * waits for the trailing read, a confirmed failure keeps the last good value,
 * a suspect value never replaces a good one on the leading edge, the same
 * bytes change nothing, a missing file forgets, and the stat gate re-reads
 * exactly when something moved or a read is owed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { digestOf, LastGood, LastGoodFile, parseOmcJson, type Parsed } from '../../src/io/last-good.js';
import type { ReadOk } from '../../src/io/safe-fs/index.js';

const good = (value: string, warning?: string): Parsed<string> => ({ ok: true, value, warning });
const bad = (problem: string): Parsed<string> => ({ ok: false, problem });
const suspect = (value: string): Parsed<string> => ({ ok: true, value, suspect: true, warning: 'odd' });

describe('LastGood (the rule alone)', () => {
  it('a leading-edge failure is pending: the value stays, nothing is shown, and the trailing read decides', () => {
    const g = new LastGood<string>();
    expect(g.accept(good('v1'), 'scan')).toBe(true);
    expect(g.accept(bad('truncated JSON'), 'leading')).toBe(false);
    expect([g.value, g.failure, g.pending]).toEqual(['v1', null, 'truncated JSON']);
    // The writer finished: the trailing read is good and nothing was ever shown.
    expect(g.accept(good('v2'), 'trailing')).toBe(true);
    expect([g.value, g.failure, g.pending]).toEqual(['v2', null, null]);
  });

  it('the trailing read confirms a failure: shown, with the last good value kept', () => {
    const g = new LastGood<string>();
    g.accept(good('v1'), 'scan');
    g.accept(bad('invalid JSON'), 'leading');
    expect(g.accept(bad('invalid JSON'), 'trailing')).toBe(true);
    expect([g.value, g.failure, g.problem, g.pending]).toEqual(['v1', 'invalid JSON', 'invalid JSON', null]);
    // The same failure again is no change; a different one is.
    expect(g.accept(bad('invalid JSON'), 'scan')).toBe(false);
    expect(g.accept(bad('is a symlink'), 'scan')).toBe(true);
    // A good read clears it.
    expect(g.accept(good('v3'), 'leading')).toBe(true);
    expect([g.value, g.failure]).toEqual(['v3', null]);
  });

  it('a leading-edge failure waits even with no value yet; a scan shows it at once', () => {
    const g = new LastGood<string>();
    expect(g.accept(bad('file is empty'), 'leading')).toBe(false);
    expect([g.value, g.failure]).toEqual([undefined, null]);
    expect(g.accept(bad('file is empty'), 'scan')).toBe(true);
    expect([g.value, g.failure]).toEqual([undefined, 'file is empty']);
  });

  it('a suspect value is held back on the leading edge while a good one is shown, and replaces it once confirmed', () => {
    const g = new LastGood<string>();
    g.accept(good('page'), 'scan');
    expect(g.accept(suspect('broken page'), 'leading')).toBe(false);
    expect([g.value, g.pending]).toEqual(['page', 'odd']);
    expect(g.accept(suspect('broken page'), 'trailing')).toBe(true);
    expect([g.value, g.warning, g.failure]).toEqual(['broken page', 'odd', null]);
    // With nothing good held, a suspect value is shown at once, even on a leading edge.
    expect(g.accept(suspect('still broken'), 'leading')).toBe(true);
    expect(g.value).toBe('still broken');
  });

  it('a warning travels with its value and is shown at once', () => {
    const g = new LastGood<string>();
    expect(g.accept(good('v', 'invalid UTF-8'), 'leading')).toBe(true);
    expect([g.value, g.problem, g.failure]).toEqual(['v', 'invalid UTF-8', null]);
  });

  it('forget drops everything and says whether anything was shown', () => {
    const g = new LastGood<string>();
    expect(g.forget()).toBe(false);
    g.accept(good('v'), 'scan');
    g.accept(bad('x'), 'leading');
    expect(g.forget()).toBe(true);
    expect([g.value, g.failure, g.pending]).toEqual([undefined, null, null]);
  });
});

describe('LastGoodFile (the rule on a real file)', () => {
  let root: string;
  const rel = 'state.json';
  const write = (text: string) => fs.writeFileSync(path.join(root, rel), text);
  const file = () => new LastGoodFile<unknown>(root, rel, { parse: parseOmcJson('has a byte-order mark') });
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-last-good-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('keeps the last good parse through a half-written file and says nothing unless the trailing read confirms', () => {
    const f = file();
    write('{"iteration":1}');
    expect(f.read('scan')).toBe(true);
    write('{"iteration":2,');
    expect(f.read('leading')).toBe(false);
    expect([f.value, f.problem]).toEqual([{ iteration: 1 }, null]);
    write('{"iteration":2}');
    expect(f.read('trailing')).toBe(true);
    expect([f.value, f.problem]).toEqual([{ iteration: 2 }, null]);
    write('{"iteration":3,');
    f.read('leading');
    expect(f.read('trailing')).toBe(true);
    expect(f.value).toEqual({ iteration: 2 });
    expect(f.failure).toMatch(/^truncated JSON/);
  });

  it('the same bytes change nothing, and settle a pending read; a byte-order mark is not the same bytes', () => {
    const f = file();
    write('{"a":1}');
    f.read('scan');
    const held = f.value;
    write('{"a":1}');
    expect(f.read('leading')).toBe(false);
    expect(f.value).toBe(held);
    write('{');
    f.read('leading');
    expect(f.pending).not.toBeNull();
    write('{"a":1}');
    expect(f.read('trailing')).toBe(false);
    expect([f.pending, f.failure]).toEqual([null, null]);
    write('\ufeff{"a":1}');
    expect(f.read('scan')).toBe(true);
    expect([f.value, f.failure]).toEqual([{ a: 1 }, 'has a byte-order mark']);
  });

  it('a missing file forgets the value; a failed read (not a file) keeps it', () => {
    const f = file();
    write('{"a":1}');
    f.read('scan');
    fs.rmSync(path.join(root, rel));
    expect(f.read('trailing')).toBe(true);
    expect([f.value, f.missing]).toEqual([undefined, true]);
    write('{"a":2}');
    f.read('scan');
    fs.rmSync(path.join(root, rel));
    fs.mkdirSync(path.join(root, rel));
    expect(f.read('scan')).toBe(true);
    expect(f.value).toEqual({ a: 2 });
    expect(f.failure).not.toBeNull();
    expect(f.missing).toBe(false);
  });

  it('the value kept keeps the mtime of the bytes it came from, through a failed read and the same failure again', () => {
    const f = file();
    const at = (sec: number) => fs.utimesSync(path.join(root, rel), sec, sec);
    write('{"a":1}');
    at(1_000_000);
    f.read('scan');
    expect([f.mtimeMs, f.valueMtimeMs]).toEqual([1_000_000_000, 1_000_000_000]);
    // Binary bytes now (another read failure): the file's own mtime is not known, the value's is.
    write('\u0000\u0001garbage');
    at(2_000_000);
    f.read('scan');
    expect([f.value, f.mtimeMs, f.valueMtimeMs]).toEqual([{ a: 1 }, -1, 1_000_000_000]);
    // Bytes that parse but fail as OMC reads them (a byte-order mark), read twice: still the value's own mtime.
    write('\ufeff{"a":2}');
    at(3_000_000);
    f.read('scan');
    f.read('scan');
    expect([f.value, f.valueMtimeMs]).toEqual([{ a: 1 }, 1_000_000_000]);
    write('{"a":3}');
    at(4_000_000);
    f.read('scan');
    expect([f.value, f.valueMtimeMs]).toEqual([{ a: 3 }, 4_000_000_000]);
    fs.rmSync(path.join(root, rel));
    f.read('scan');
    expect(f.valueMtimeMs).toBe(-1);
  });

  it('the stat gate skips an unmoved file, re-reads a moved one, and always re-reads a pending or unreadable one', () => {
    let parses = 0;
    const f = new LastGoodFile<string>(root, rel, {
      parse: (r) => {
        parses += 1;
        return { ok: true, value: r.text };
      },
      remember: 'nothing',
    });
    write('one');
    f.read('scan');
    expect(f.readIfChanged()).toBe(false);
    expect(parses).toBe(1);
    write('two!');
    expect(f.readIfChanged()).toBe(true);
    expect([f.value, parses]).toEqual(['two!', 2]);
    // Even the same bytes are parsed again when the file moved and nothing is remembered.
    const t = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(root, rel), t, t);
    f.readIfChanged();
    expect(parses).toBe(3);
  });

  it('the stat gate re-reads a file whose permissions changed (a chmod moves no byte and no mtime, only who may read it)', () => {
    let parses = 0;
    const f = new LastGoodFile<string>(root, rel, {
      parse: (r) => {
        parses += 1;
        return { ok: true, value: r.text };
      },
      remember: 'nothing',
    });
    write('one');
    f.read('scan');
    expect(f.readIfChanged()).toBe(false);
    const file = path.join(root, rel);
    const { mtimeMs } = fs.statSync(file);
    fs.chmodSync(file, 0o640);
    expect(fs.statSync(file).mtimeMs).toBe(mtimeMs);
    f.readIfChanged();
    expect(parses).toBe(2);
    // And only once: the new change time is the stamp now.
    expect(f.readIfChanged()).toBe(false);
    expect(parses).toBe(2);
  });

  it('a read failure can be turned into a value (the wiki shows an unreadable page as a page)', () => {
    const f = new LastGoodFile<string>(root, rel, {
      maxBytes: 4,
      parse: (r) => ({ ok: true, value: r.text }),
      onReadFailure: (r) => ({ ok: true, value: `unreadable: ${r.code}`, suspect: true }),
    });
    write('ok');
    f.read('scan');
    write('far too long');
    expect(f.read('leading')).toBe(false);
    expect(f.value).toBe('ok');
    expect(f.read('trailing')).toBe(true);
    expect(f.value).toBe('unreadable: too-large');
  });
});

describe('digestOf', () => {
  it('is the sha1 digest it always was (a notepad revision taken before still names the same bytes)', () => {
    const read = (text: string, bom = false, invalidUtf8 = false) => ({ text, bom, invalidUtf8 }) as ReadOk;
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), (text) => {
        expect(digestOf(read(text))).toBe(createHash('sha1').update(text).digest('base64'));
      }),
    );
    expect(digestOf(read('{}', true, true))).toBe(`${createHash('sha1').update('{}').digest('base64')}bu`);
  });
});
