/**
 * The store of drafts kept at a hang-up (src/store/drafts/): one file per root, field and hang-up in omc-top's own state
 * directory, each field cut to its limit, and a file that is not one omc-top wrote named as a problem, never applied.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { KeptDrafts } from '../../src/store/drafts/kept-drafts.js';
import { serializeDraft, type KeptDraft } from '../../src/store/drafts/draft-file.js';

const serialize = (d: KeptDraft) => serializeDraft(d, '/x');

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
  it('keeps a draft in the state directory, one file per root, field and hang-up, and reads it back', ({ tempDir }) => {
    const { root, dir, drafts } = setUp(tempDir);
    const kept = drafts.keepSync(draft('first'), LIMITS);
    expect(kept.cut).toBe(false);
    const name = kept.name;
    expect(name).toMatch(/^draft-[0-9a-f]{16}-notepad-working\.1765000000000-[0-9a-f]{8}\.json$/);
    expect(fs.readdirSync(dir)).toEqual([name]);
    expect(fs.readdirSync(root)).toEqual([]); // nothing under .omc
    expect(drafts.read('notepad-working', LIMITS)).toEqual({
      kind: 'draft',
      file: path.join(dir, name),
      name,
      more: 0,
      draft: draft('first'),
    });
    // Another root's draft for the same field is another file.
    const other = new KeptDrafts(dir, path.join(tempDir('omc-top-draft-root-'), '.omc'));
    other.keepSync(draft('elsewhere'), LIMITS);
    expect(fs.readdirSync(dir)).toHaveLength(2);
    expect(drafts.discard(name)).toBe(true);
    expect(drafts.read('notepad-working', LIMITS)).toEqual({ kind: 'none' });
    expect(drafts.discard(name)).toBe(false);
    expect(() => drafts.discard(other.keptNames('notepad-working')[0]!)).toThrow(/not a kept draft of this root/);
  });

  it('two monitors of one root hung up at once keep two files; both are offered, the oldest first, and each is taken once', ({
    tempDir,
  }) => {
    const { dir, drafts } = setUp(tempDir);
    const wide = { text: 100 };
    // Two monitors keeping the same field in the same millisecond, and a third a moment later: none replaces another.
    drafts.keepSync(draft('typed in monitor A'), wide);
    new KeptDrafts(dir, drafts.root).keepSync(draft('typed in monitor B'), wide);
    drafts.keepSync(draft('typed in monitor C', 1_765_000_000_500), wide);
    expect(fs.readdirSync(dir)).toHaveLength(3);
    // Two monitors reading now see the same oldest draft; only one of them takes it.
    const seenByA = drafts.read('notepad-working', wide);
    const seenByB = new KeptDrafts(dir, drafts.root).read('notepad-working', wide);
    expect(seenByA.kind === 'draft' && seenByA.more).toBe(2);
    expect(seenByB.kind === 'draft' && seenByB.name).toBe(seenByA.kind === 'draft' && seenByA.name);
    const first = seenByA.kind === 'draft' ? seenByA.name : '';
    expect([drafts.discard(first), drafts.discard(first)]).toEqual([true, false]);
    // The others are still offered, one at a time, the latest last.
    const texts: string[] = [];
    for (let r = drafts.read('notepad-working', wide); r.kind === 'draft'; r = drafts.read('notepad-working', wide)) {
      texts.push(`${r.draft.fields.text} (${r.more} more)`);
      drafts.discard(r.name);
    }
    expect(texts).toHaveLength(2);
    expect(texts[1]).toBe('typed in monitor C (0 more)');
    expect(texts[0]).toMatch(/ \(1 more\)$/);
    const ab = [seenByA.kind === 'draft' ? seenByA.draft.fields.text : '', texts[0]!.replace(' (1 more)', '')];
    expect(ab.sort()).toEqual(['typed in monitor A', 'typed in monitor B']);
    expect(drafts.has('notepad-working')).toBe(false);
  });

  it('reads a file an older omc-top kept (no time in its name) as one more draft, the oldest', ({ tempDir }) => {
    const { dir, drafts } = setUp(tempDir);
    const { name } = drafts.keepSync(draft('new'), LIMITS);
    const legacy = name.replace(/\.[0-9]+-[0-9a-f]{8}\.json$/, '.json');
    fs.writeFileSync(path.join(dir, legacy), serialize(draft('old')));
    const r = drafts.read('notepad-working', LIMITS);
    expect(r.kind === 'draft' && [r.name, r.draft.fields.text, r.more]).toEqual([legacy, 'old', 1]);
  });

  it('cuts a field over its limit to it (never inside a surrogate pair), on writing and on reading', ({ tempDir }) => {
    const { dir, drafts } = setUp(tempDir);
    const text = (d: KeptDraft) => {
      const { name, cut } = drafts.keepSync(d, LIMITS);
      return [JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')).fields.text, cut];
    };
    expect(text(draft('0123456789abc'))).toEqual(['0123456789', true]);
    expect(text(draft('012345678😀'))).toEqual(['012345678', true]);
    for (const n of fs.readdirSync(dir)) fs.rmSync(path.join(dir, n));
    // A file written with a larger limit (or by hand) is cut when read.
    drafts.keepSync(draft('0123456789'), LIMITS);
    const r = drafts.read('notepad-working', { text: 4 });
    expect(r.kind === 'draft' && r.draft.fields.text).toBe('0123');
  });

  it('names what is wrong with a file it did not write, and applies nothing', ({ tempDir }) => {
    const { dir, drafts } = setUp(tempDir);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, drafts.fileName('notepad-working', 1_765_000_000_000));
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
    expect(() => drafts.fileName('../escape', 0)).toThrow(/not a draft target/);
    expect(() => drafts.discard('../escape.json')).toThrow(/not a kept draft of this root/);
  });
});
