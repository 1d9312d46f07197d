/**
 * Which pages' text (one field: the lower-cased body, title or joined tags)
 * contains a search token, answered from an inverted index instead of by
 * searching every page's text. Exact, not a filter:
 *
 * - A token of one or two code units is in a text exactly when it is one of the
 *   text's characters or adjacent pairs: each character and pair maps to the
 *   pages that have it.
 * - A longer token is made of characters of one class only (tokenize.ts: Latin
 *   letters and digits; CJK; or neither of those nor white space), so where it
 *   occurs in a text it lies inside one maximal run of that class: a "word" of
 *   the text. It is in a text exactly when it is inside one of the text's
 *   words. Each word maps to its pages; the words are found by their first
 *   three code units, then `includes`.
 *
 * Pages are numbered by slots (reused when a page goes), so one page changing
 * costs that page's text, not the wiki's.
 */
import { SlotSet } from './slot-set.js';

/** The run class of a code unit: 0 white space, 1 Latin letter or digit, 2 CJK, 3 anything else. */
function classOf(c: number): number {
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0xc0 && c <= 0x24f)) return 1;
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) ? 0 : 3;
  if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af)) return 2;
  // JavaScript's \s beyond ASCII (String.prototype.split(/\s+/) in OMC's tokenizer).
  if (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
    return 0;
  return 3;
}

/** classOf for each ASCII code unit. */
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) => classOf(c));

/** Characters and pairs of ASCII characters: a table, not a map (they are most of any text). */
const ASCII_GRAMS = 128 + 128 * 128;

export interface Compaction {
  after: number;
  share: number;
}

interface Word {
  text: string;
  hash: number;
  pages: SlotSet;
}

/** FNV-1a over text[from, to): the word table's hash, computed without slicing the text. */
function hashOf(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function sameText(w: string, text: string, from: number, to: number): boolean {
  if (w.length !== to - from) return false;
  for (let i = from; i < to; i++) if (w.charCodeAt(i - from) !== text.charCodeAt(i)) return false;
  return true;
}

export class FieldIndex {
  private readonly asciiGrams: Array<SlotSet | undefined> = new Array<SlotSet | undefined>(ASCII_GRAMS);
  /** The epoch each ASCII gram was last touched in (see visit). */
  private readonly asciiStamps = new Int32Array(ASCII_GRAMS);
  private readonly otherGrams = new Map<number, SlotSet>();
  /**
   * Word ids + 1 by hash (open addressing; 0 = empty): a word occurrence is looked up in place, without
   * slicing a string per occurrence (most of the index's build time while it was a Map of slices).
   */
  private table = new Int32Array(1024);
  private wordList: Word[] = [];
  /** Words of three or more code units by their first three (and every later three), as indices into wordList. */
  private byTrigram = new Map<number, number[]>();
  /** Words left on no page since the last compaction (an upper bound: a word may come back). */
  private emptied = 0;
  /** Counts pages added and removed: a gram or word already touched for this page has this epoch. */
  private epoch = 0;

  /** `words`: the width of a full bit set of slots, in 32-bit words. */
  /**
   * `width`: the width of a full bit set of slots, in 32-bit words. Words left on no page (a page rewritten
   * with new timestamps and hashes leaves its old ones) are dropped once there are `compaction.after` of them
   * and they are at least `compaction.share` of the words.
   */
  constructor(
    private readonly width: () => number,
    private readonly compaction: Compaction = { after: 4096, share: 0.5 },
  ) {}

  private gram(key: number): SlotSet | undefined {
    return key < ASCII_GRAMS ? this.asciiGrams[key] : this.otherGrams.get(key);
  }

  private static gramKey(a: number, b: number): number {
    if (b < 0) return a < 128 ? a : 65536 + a;
    return a < 128 && b < 128 ? 128 + a * 128 + b : 65536 * 2 + a * 65536 + b;
  }

  private static trigramKey(s: string, at: number): number {
    return s.charCodeAt(at) * 4294967296 + s.charCodeAt(at + 1) * 65536 + s.charCodeAt(at + 2);
  }

  /** The word text[from, to), if known; created when `create`. */
  private word(text: string, from: number, to: number, create: boolean): Word | undefined {
    const hash = hashOf(text, from, to);
    const mask = this.table.length - 1;
    let at = hash & mask;
    for (let id = this.table[at] as number; id !== 0; id = this.table[at] as number) {
      const w = this.wordList[id - 1] as Word;
      if (w.hash === hash && sameText(w.text, text, from, to)) return w;
      at = (at + 1) & mask;
    }
    if (!create) return undefined;
    const w: Word = { text: text.slice(from, to), hash, pages: new SlotSet() };
    this.wordList.push(w);
    this.table[at] = this.wordList.length;
    if (this.wordList.length * 2 > this.table.length) this.rehash(this.table.length * 2);
    this.trigrams(this.wordList.length - 1);
    return w;
  }

  private trigrams(id: number): void {
    const text = (this.wordList[id] as Word).text;
    for (let i = 0; i + 3 <= text.length; i++) {
      const key = FieldIndex.trigramKey(text, i);
      let ids = this.byTrigram.get(key);
      if (!ids) this.byTrigram.set(key, (ids = []));
      if (ids[ids.length - 1] !== id) ids.push(id);
    }
  }

  /** Drops the words on no page once there are many (see the constructor): the vocabulary is the pages' of now. */
  private compact(): void {
    const live = this.wordList.filter((w) => w.pages.size > 0);
    // Counted again only after as many more words left their last page: a pass over the words stays rare.
    this.emptied = 0;
    if (this.wordList.length - live.length < this.wordList.length * this.compaction.share) return;
    this.wordList = live;
    this.byTrigram = new Map();
    let size = 1024;
    while (size < live.length * 2) size *= 2;
    this.rehash(size);
    for (let id = 0; id < live.length; id++) this.trigrams(id);
  }

  private rehash(size: number): void {
    const table = new Int32Array(size);
    const mask = table.length - 1;
    for (let id = 0; id < this.wordList.length; id++) {
      let at = (this.wordList[id] as Word).hash & mask;
      while (table[at] !== 0) at = (at + 1) & mask;
      table[at] = id + 1;
    }
    this.table = table;
  }

  /**
   * Adds `slot` to (or takes it out of) the set of every distinct character, pair and word of `text`. Only
   * inside runs: a token never holds white space nor two classes, so a pair across a run's edge is never
   * looked up. A word seen before in this text is skipped whole (its characters and pairs are in already).
   */
  private visit(text: string, slot: number, adding: boolean): void {
    const epoch = ++this.epoch;
    const width = this.width();
    let runStart = 0;
    let runClass = 0;
    for (let i = 0, n = text.length; i <= n; i++) {
      const c = i < n ? text.charCodeAt(i) : -1;
      const cls = c < 0 ? -1 : c < 128 ? (ASCII_CLASS[c] as number) : classOf(c);
      if (cls === runClass) continue;
      if (runClass > 0) {
        if (i - runStart >= 3) {
          const set = this.word(text, runStart, i, adding)?.pages;
          if (set && set.epoch !== epoch) {
            set.epoch = epoch;
            if (adding) set.add(slot, width);
            else {
              set.remove(slot);
              if (set.size === 0) this.emptied += 1;
            }
            this.grams(text, runStart, i, slot, adding, width, epoch);
          }
        } else this.grams(text, runStart, i, slot, adding, width, epoch);
      }
      runStart = i;
      runClass = cls;
    }
  }

  /** The characters and pairs of text[from, to). */
  private grams(text: string, from: number, to: number, slot: number, adding: boolean, width: number, epoch: number) {
    let prev = -1;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      this.touch(FieldIndex.gramKey(c, -1), slot, adding, width, epoch);
      if (prev >= 0) this.touch(FieldIndex.gramKey(prev, c), slot, adding, width, epoch);
      prev = c;
    }
  }

  /** One gram of the page being added or removed, once per page (most are ASCII: stamped in a table). */
  private touch(key: number, slot: number, adding: boolean, width: number, epoch: number): void {
    let set: SlotSet | undefined;
    if (key < ASCII_GRAMS) {
      if (this.asciiStamps[key] === epoch) return;
      this.asciiStamps[key] = epoch;
      set = this.asciiGrams[key];
      if (!set && adding) this.asciiGrams[key] = set = new SlotSet();
    } else {
      set = this.otherGrams.get(key);
      if (!set && adding) this.otherGrams.set(key, (set = new SlotSet()));
      if (!set || set.epoch === epoch) return;
      set.epoch = epoch;
    }
    if (!set) return;
    if (adding) set.add(slot, width);
    else set.remove(slot);
  }

  add(slot: number, text: string): void {
    this.visit(text, slot, true);
  }

  /** `text` must be what was added for this slot. */
  remove(slot: number, text: string): void {
    this.visit(text, slot, false);
    if (this.emptied >= this.compaction.after) this.compact();
  }

  /** The slots whose text contains `token` (not empty), as a bit set of the index's current width. */
  lookup(token: string): Uint32Array {
    const out = new Uint32Array(this.width());
    if (token.length <= 2) {
      const key = FieldIndex.gramKey(token.charCodeAt(0), token.length === 2 ? token.charCodeAt(1) : -1);
      this.gram(key)?.orInto(out);
      return out;
    }
    const ids = this.byTrigram.get(FieldIndex.trigramKey(token, 0));
    if (!ids) return out;
    for (const id of ids) {
      const w = this.wordList[id] as Word;
      if (w.pages.size > 0 && w.text.includes(token)) w.pages.orInto(out);
    }
    return out;
  }
}
