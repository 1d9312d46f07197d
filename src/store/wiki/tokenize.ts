/**
 * OMC's wiki_query tokenizer (OMC 5.5.0: dist/hooks/wiki/query.js), reproduced so
 * omc-top ranks pages exactly as OMC does. On the lower-cased text, in order:
 *
 * 1. Latin/number runs: `[a-z0-9\u00C0-\u024F]+` (accented Latin included);
 * 2. CJK runs (Hiragana, Katakana, CJK Unified Ideographs, Hangul syllables):
 *    every single character, then every adjacent two-character bigram;
 * 3. the rest (Latin and CJK runs blanked out) split on whitespace, keeping
 *    only pieces that contain a Unicode letter. Punctuation stays attached
 *    ("привет," is one token), pure punctuation is dropped.
 *
 * Duplicates are kept: OMC scores each occurrence of a repeated token again.
 */

const LATIN_RUN = /[a-z0-9\u00C0-\u024F]+/g;
const CJK_RUN = /[\u3040-\u309F\u30A0-\u30FF\u4E00-\u9FFF\uAC00-\uD7AF]+/g;
const HAS_LETTER = /\p{L}/u;

export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  const tokens: string[] = [];
  for (const m of lower.match(LATIN_RUN) ?? []) tokens.push(m);
  const runs = lower.match(CJK_RUN) ?? [];
  for (const run of runs) {
    // Every character of these ranges is one UTF-16 code unit, so indexing is per character.
    for (let i = 0; i < run.length; i++) tokens.push(run.charAt(i));
    for (let i = 0; i + 1 < run.length; i++) tokens.push(run.slice(i, i + 2));
  }
  const rest = lower.replace(LATIN_RUN, ' ').replace(CJK_RUN, ' ').split(/\s+/);
  for (const piece of rest) if (piece.length > 0 && HAS_LETTER.test(piece)) tokens.push(piece);
  return tokens;
}
