/**
 * What the search runs once, after the index is built and before anyone types: a few queries through
 * the same ranking and snippet code a keystroke runs. V8 compiles a function on its first call and
 * optimises it only after it has run a while, so without this the first query a user types ran its
 * one-letter, two-letter and word lookups, the ranking loop over every page and the snippets in the
 * interpreter: its first keys cost several times a later key, and they were the slowest keys of a
 * session. The queries are typed as a user types, a character at a time, from the titles of a few pages
 * of this wiki (single letters, pairs, words, several words: every lookup path runs). Their remembered
 * token answers are dropped afterwards (WikiDomain.warmSearch): a user's first key costs its own search,
 * on warm code, never an answer the warm-up left behind.
 */
import type { WikiPage } from './page.js';

/** Characters of each title typed: enough for single letters, pairs, words and a phrase of two or three. */
const TYPED = 20;
/** Pages whose titles are typed: spread over the list so different letters and scripts come up. */
const TITLES = 4;

export function warmUpQueries(pages: readonly WikiPage[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let k = 0; k < TITLES && pages.length > 0; k++) {
    const title = (pages[Math.floor((k * (pages.length - 1)) / Math.max(1, TITLES - 1))] as WikiPage).titleLower;
    for (let i = 1; i <= Math.min(TYPED, title.length); i++) {
      const q = title.slice(0, i);
      if (q.trim() !== '' && !seen.has(q)) {
        seen.add(q);
        out.push(q);
      }
    }
  }
  return out;
}
