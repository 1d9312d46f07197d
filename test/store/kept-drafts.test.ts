/**
 * The store of drafts kept at a hang-up (src/store/drafts/): one file per root and field in omc-top's own state
 * directory, each field cut to its limit, and a file that is not one omc-top wrote named as a problem, never applied.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { KeptDrafts } from '../../src/store/drafts/kept-drafts.js';
import type { KeptDraft } from '../../src/store/drafts/draft-file.js';

const LIMITS = { text: 10 };
const draft = (text: string, keptAt = 1_765_000_000_000): KeptDraft => ({
  target: 'notepad-working',
  keptAt,
  why: 'hangup',
  item: { kind: 'add', section: 'working' },
  fields: { text },
});

function setUp(tempDir: (p?: string) => string) {
  const root = path.join(tempDir('omc-top-draft-root-'), '.omc');
  fs.mkdirSync(root);
  const dir = path.join(tempDir('omc-top-draft-state-'), 'omc-top');
  return { root, dir, drafts: new KeptDrafts(dir, root) };
}

describe('kept drafts', () => {
  it('keeps a draft in the state directory, one file per root and field, and reads it back', ({ tempDir }) => {
    const { root, dir, drafts } = setUp(tempDir);
    expect(drafts.keepSync(draft('first'), LIMITS)).toEqual({ cut: false });
    expect(drafts.keepSync(draft('second', 1_765_000_060_000), LIMITS)).toEqual({ cut: false });
    expect(fs.readdirSync(dir)).toEqual([drafts.fileName('notepad-working')]);
    expect(drafts.fileName('notepad-working')).toMatch(/^draft-[0-9a-f]{16}-notepad-working\.json$/);
    expect(fs.readdirSync(root)).toEqual([]); // nothing under .omc
    const r = drafts.read('notepad-working', LIMITS);
    expect(r).toEqual({
      kind: 'draft',
      file: path.join(dir, drafts.fileName('notepad-working')),
      draft: { ...draft('second', 1_765_000_060_000) },
    });
    // Another root's draft for the same field is another file.
    const other = new KeptDrafts(dir, path.join(tempDir('omc-top-draft-root-'), '.omc'));
    other.keepSync(draft('elsewhere'), LIMITS);
    expect(fs.readdirSync(dir)).toHaveLength(2);
    expect(drafts.discard('notepad-working')).toBe(true);
    expect(drafts.read('notepad-working', LIMITS)).toEqual({ kind: 'none' });
    expect(drafts.discard('notepad-working')).toBe(false);
  });

  it('cuts a field over its limit to it (never inside a surrogate pair), on writing and on reading', ({ tempDir }) => {
    const { dir, drafts } = setUp(tempDir);
    expect(drafts.keepSync(draft('0123456789abc'), LIMITS)).toEqual({ cut: true });
    const file = path.join(dir, drafts.fileName('notepad-working'));
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).fields.text).toBe('0123456789');
    drafts.keepSync(draft('012345678😀'), LIMITS);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).fields.text).toBe('012345678');
    // A file written with a larger limit (or by hand) is cut when read.
    drafts.keepSync(draft('0123456789'), LIMITS);
    const r = drafts.read('notepad-working', { text: 4 });
    expect(r.kind === 'draft' && r.draft.fields.text).toBe('0123');
  });

  it('names what is wrong with a file it did not write, and applies nothing', ({ tempDir }) => {
    const { dir, drafts } = setUp(tempDir);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, drafts.fileName('notepad-working'));
    const good = JSON.parse(JSON.stringify({ version: 1, root: '/x', ...draft('text') }));
    const cases: Array<[string | Buffer, RegExp]> = [
      ['{"version": 1, "targ', /^is not JSON \(/],
      ['[]', /^is not a JSON object$/],
      [JSON.stringify({ ...good, version: 2 }), /^has version 2, not 1$/],
      [JSON.stringify({ ...good, target: 'memory-directive' }), /^is for "memory-directive", not notepad-working$/],
      [JSON.stringify({ ...good, keptAt: 'yesterday' }), /^"keptAt" is not a time$/],
      [JSON.stringify({ ...good, why: 'boredom' }), /^"why" is "boredom", not one omc-top writes$/],
      [JSON.stringify({ ...good, item: [] }), /^"item" is not an object$/],
      [JSON.stringify({ ...good, fields: { text: 42 } }), /^field "text" is not text$/],
      [Buffer.from([0x7b, 0x00, 0x7d]), /NUL bytes/],
      ['x'.repeat(300 * 1024), /over the 256 KB limit/],
    ];
    for (const [bytes, problem] of cases) {
      fs.writeFileSync(file, bytes);
      const r = drafts.read('notepad-working', LIMITS);
      expect(r.kind, String(problem)).toBe('bad');
      if (r.kind === 'bad') {
        expect(r.problem).toMatch(problem);
        expect(r.file).toBe(file);
      }
    }
    fs.rmSync(file);
    fs.mkdirSync(file);
    const r = drafts.read('notepad-working', LIMITS);
    expect(r.kind === 'bad' && r.problem).toMatch(/directory/);
  });

  it('says why a draft cannot be kept (the state directory is a file)', ({ tempDir }) => {
    const { dir, drafts } = setUp(tempDir);
    fs.writeFileSync(dir, 'not a directory');
    expect(() => drafts.keepSync(draft('text'), LIMITS)).toThrow(/^not kept: .*omc-top is a file where a directory/);
  });

  it('refuses a target that is not a plain name', ({ tempDir }) => {
    const { drafts } = setUp(tempDir);
    expect(() => drafts.fileName('../escape')).toThrow(/not a draft target/);
  });
});
