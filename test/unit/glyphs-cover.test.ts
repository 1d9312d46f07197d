/**
 * Every glyph beyond ASCII that omc-top draws has its ASCII stand-in (src/io/glyphs.ts), so a terminal whose locale
 * is not UTF-8 gets the promised ASCII, never a `?` for a border, a bar or a mark of our own. The glyphs are found
 * where they are written, not listed by hand: every string, template and JSX text in src/ (a regular expression
 * matches text, it draws nothing), and the corners and sides of every Ink border style src/ uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import boxes from 'cli-boxes';
import ts from 'typescript';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { asciiText } from '../../src/io/glyphs.js';

const SRC = path.join(import.meta.dirname, '..', '..', 'src');
/**
 * Characters left out: a byte-order mark is kept on or stripped from a file's text, never drawn; the replacement
 * character (bytes that are not UTF-8) is rightly a `?`.
 */
const NOT_DRAWN = new Set(['\ufeff', '\ufffd']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Each character beyond ASCII in src/'s drawn text, with the first file that has it. */
function drawnGlyphs(): Map<string, string> {
  const found = new Map<string, string>();
  const note = (text: string, file: string) => {
    for (const ch of text) if (ch.codePointAt(0)! > 0x7f && !found.has(ch)) found.set(ch, path.relative(SRC, file));
  };
  for (const file of sourceFiles(SRC)) {
    const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, kind);
    const visit = (n: ts.Node): void => {
      if (ts.isStringLiteralLike(n) || ts.isTemplateLiteralToken(n) || ts.isJsxText(n)) note(n.text, file);
      if (
        ts.isJsxAttribute(n) &&
        n.name.getText() === 'borderStyle' &&
        n.initializer &&
        ts.isStringLiteral(n.initializer)
      )
        note(Object.values(boxes[n.initializer.text as keyof typeof boxes]).join(''), file);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

describe('the ASCII table covers every glyph the UI draws', () => {
  it('each character beyond ASCII in src/ text has a one-cell ASCII stand-in, not ?', () => {
    const glyphs = drawnGlyphs();
    expect(glyphs.size).toBeGreaterThan(20); // the scan sees the source
    const missing = [...glyphs].filter(([ch]) => !NOT_DRAWN.has(ch) && asciiText(ch).includes('?'));
    expect(missing.map(([ch, file]) => `${ch} (U+${ch.codePointAt(0)!.toString(16)}) in ${file}`)).toEqual([]);
    for (const [ch] of glyphs)
      if (!NOT_DRAWN.has(ch)) expect(stringWidth(asciiText(ch)), ch).toBe(Math.max(1, stringWidth(ch)));
  });
});
