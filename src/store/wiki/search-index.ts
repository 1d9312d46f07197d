/**
 * The wiki's search index: for every searchable page, its body, title and
 * tags in three FieldIndexes, kept in step with the pages arrays the domain
 * publishes. A new pages array costs the pages that came or went (a page that
 * changed is a new object: its old text goes, its new text comes), found by
 * identity; the first one is built in slices by the domain's warm-up. A
 * keystroke then asks the index which pages hold each token: bit sets, no
 * page text read (see rankWiki).
 */
import { FieldIndex, type Compaction } from './field-index.js';
import type { WikiPage } from './page.js';

export interface TokenPages {
  body: Uint32Array;
  title: Uint32Array;
  tag: Uint32Array;
}

export class WikiSearchIndex {
  private readonly slotOf = new Map<WikiPage, number>();
  private readonly freeSlots: number[] = [];
  private slotCount = 0;
  private words = 1;
  private readonly width = () => this.words;
  private readonly body: FieldIndex;
  private readonly title: FieldIndex;
  private readonly tag: FieldIndex;
  /** The pages array the index was last brought in step with, and each position's slot. */
  private synced: readonly WikiPage[] | null = null;
  private slots = new Int32Array(0);
  /** A pages array being brought in step over several calls, and the position to go on from. */
  private pending: readonly WikiPage[] | null = null;
  private next = 0;
  /** Answers for the tokens of recent keystrokes, for the synced pages (most recent last). */
  private readonly cache = new Map<string, TokenPages>();

  constructor(
    private readonly cacheSize = 64,
    /**
     * How long one search may spend bringing the index in step before it ranks by the plain scan instead
     * (the domain's: a few ms, so a key typed while the warm-up is still building the index never waits
     * for the rest of it; each such search still builds that much more).
     */
    private readonly budgetMs = Infinity,
    /** See FieldIndex: when words left on no page are dropped (tests drop them at once). */
    compaction?: Compaction,
  ) {
    this.body = new FieldIndex(this.width, compaction);
    this.title = new FieldIndex(this.width, compaction);
    this.tag = new FieldIndex(this.width, compaction);
  }

  /** Whether the index is in step with `pages` after at most `budgetMs` of work on it. */
  ready(pages: readonly WikiPage[]): boolean {
    return this.sync(pages, this.budgetMs === Infinity ? Infinity : performance.now() + this.budgetMs);
  }

  private add(page: WikiPage): void {
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      slot = this.slotCount++;
      // Bit sets are as wide as the slots in use; they grow by half again when full.
      if (slot >>> 5 >= this.words) this.words = Math.max(this.words + 1, Math.ceil(this.words * 1.5));
    }
    this.slotOf.set(page, slot);
    this.body.add(slot, page.contentLower);
    this.title.add(slot, page.titleLower);
    this.tag.add(slot, page.tagsJoined);
  }

  private remove(page: WikiPage, slot: number): void {
    this.slotOf.delete(page);
    this.body.remove(slot, page.contentLower);
    this.title.remove(slot, page.titleLower);
    this.tag.remove(slot, page.tagsJoined);
    this.freeSlots.push(slot);
  }

  /**
   * Brings the index in step with `pages` (searchable pages only); stops once `deadline` (performance.now())
   * passes and returns false when it did not finish.
   */
  sync(pages: readonly WikiPage[], deadline = Infinity): boolean {
    if (pages === this.synced) return true;
    if (pages !== this.pending) {
      // Pages that went (or changed: a new object) leave first; then the new ones are added from `next` on,
      // over as many calls as it takes (a warm-up slice, a keystroke's budget).
      this.synced = null;
      this.cache.clear();
      if (this.slotOf.size > 0) {
        const keep = new Set(pages);
        for (const [page, slot] of this.slotOf) if (!keep.has(page)) this.remove(page, slot);
      }
      this.pending = pages;
      this.next = 0;
    }
    for (let n = 0; this.next < pages.length; this.next++) {
      const page = pages[this.next] as WikiPage;
      if (this.slotOf.has(page)) continue;
      this.add(page);
      if ((++n & 7) === 0 && performance.now() > deadline) {
        this.next += 1;
        return false;
      }
    }
    const slots = new Int32Array(pages.length);
    for (let i = 0; i < pages.length; i++) slots[i] = this.slotOf.get(pages[i] as WikiPage) as number;
    this.slots = slots;
    this.synced = pages;
    this.pending = null;
    return true;
  }

  /** The slot of each position of `pages` (sync first). */
  slotsOf(pages: readonly WikiPage[]): Int32Array {
    this.sync(pages);
    return this.slots;
  }

  /** The pages whose body, title and tags contain `token`, as bit sets over slots. */
  token(pages: readonly WikiPage[], token: string): TokenPages {
    this.sync(pages);
    const hit = this.cache.get(token);
    if (hit) {
      this.cache.delete(token);
      this.cache.set(token, hit);
      return hit;
    }
    const out = { body: this.body.lookup(token), title: this.title.lookup(token), tag: this.tag.lookup(token) };
    this.cache.set(token, out);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    return out;
  }

  /** How many pages the index holds (a page that went is taken out: its slot is used again). */
  get pageCount(): number {
    return this.slotOf.size;
  }

  /** Forgets the remembered token answers (benchmarks time a query typed from scratch). */
  forget(): void {
    this.cache.clear();
  }
}
