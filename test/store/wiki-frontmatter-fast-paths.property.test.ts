/**
 * parseWikiPage finds the fences with indexOf and strips an array item's quotes by hand (both were regexes, OMC's
 * own). Here the regex forms, written out as OMC has them, are the reference: on texts made mostly of fences,
 * quotes, backslashes, commas and line breaks, the parse must be the same. (test/interop/wiki-parts-vs-omc runs
 * OMC's real reader on mixed text; this one aims at the characters the fast paths decide on.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWikiPage } from '../../src/store/wiki/frontmatter.js';

const NOW = '2026-12-03T00:00:00.000Z';

/** OMC 5.5.0's frontmatter reader, as regexes (the reference). */
function referenceParse(raw: string) {
  const unescape = (s: string) =>
    s.replace(/\\(\\|"|n|r)/g, (_m, ch: string) => (ch === 'n' ? '\n' : ch === 'r' ? '\r' : ch));
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(raw.replace(/\r\n/g, '\n'));
  if (!m) return null;
  const fields = new Map<string, string>();
  for (const line of (m[1] as string).split('\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    let value = line.slice(colon + 1).trim();
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))
      value = unescape(value.slice(1, -1));
    fields.set(line.slice(0, colon).trim(), value);
  }
  const array = (value: string | undefined) => {
    if (!value) return [];
    const v = value.trim();
    if (v.startsWith('[') && v.endsWith(']'))
      return v
        .slice(1, -1)
        .split(',')
        .map((item) => unescape(item.trim().replace(/^["']|["']$/g, '')))
        .filter((item) => item !== '');
    return v ? [v] : [];
  };
  return {
    frontmatter: {
      title: fields.get('title') || '',
      tags: array(fields.get('tags')),
      created: fields.get('created') || NOW,
      updated: fields.get('updated') || NOW,
      sources: array(fields.get('sources')),
      links: array(fields.get('links')),
      category: fields.get('category') || 'reference',
      confidence: fields.get('confidence') || 'medium',
      schemaVersion: Number(fields.get('schemaVersion')) || 1,
    },
    content: m[2] as string,
  };
}

const pieces = fc.constantFrom(
  '"',
  "'",
  '\\',
  '\\n',
  '\\"',
  ',',
  ' ',
  '[',
  ']',
  '\n',
  '\r\n',
  '---',
  '\n---\n',
  ':',
  'a',
  'é',
  '語',
);
const text = (max: number) => fc.array(pieces, { maxLength: max }).map((a) => a.join(''));
const name = fc.constantFrom('title', 'tags', 'sources', 'links', 'category', 'confidence', 'schemaVersion', 'x');
// The key is compared in place unless trim() would take something off it: spaces, tabs, a no-break space or a BOM
// around it (and a near-miss letter) must read as the reference's slice-and-trim does.
const pad = fc.constantFrom('', '', '', ' ', '\t', '\u00a0', '\ufeff', 's');
const key = fc.tuple(pad, name, pad).map(([a, k, b]) => `${a}${k}${b}`);
const line = fc.oneof(
  fc.tuple(key, text(8)).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(key, fc.array(text(4), { maxLength: 4 })).map(([k, xs]) => `${k}: [${xs.join(',')}]`),
  text(10),
);
const page = fc.oneof(
  fc.tuple(fc.array(line, { maxLength: 6 }), text(12)).map(([lines, body]) => `---\n${lines.join('\n')}\n---\n${body}`),
  text(30),
  text(30).map((s) => `---\n${s}`),
);

describe('parseWikiPage fast paths', () => {
  it('parse exactly as the regex forms on fence-, quote- and backslash-heavy text (fast-check)', () => {
    fc.assert(
      fc.property(page, (raw) => {
        expect(parseWikiPage(raw, NOW)).toEqual(referenceParse(raw));
      }),
      { numRuns: 5000 },
    );
  });

  it('cases at the edges of the quote stripping and the fences', () => {
    for (const raw of [
      '---\ntags: ["], [\'], [""], [a"], ["a], [\'a"]\n---\n',
      '---\n\n---\n',
      '---\n---\n',
      '---\n---\n---\n',
      '---\r\ntitle: "a\\\\b"\r\n---\r\nbody',
      '---\ntitle: x\n---',
      '---\n title :a\n\u00a0tags\t:[b]\ntitles: c\n---\n',
      '---\n: a\n:\ntitle:\n---\n',
    ])
      expect(parseWikiPage(raw, NOW)).toEqual(referenceParse(raw));
  });
});
