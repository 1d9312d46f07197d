/**
 * The last `keep` (time, tokens) pairs of a transcript's API responses, oldest first, for a burn rate. Kept in two
 * number arrays outside the JS heap rather than as an object per sample: 200 sessions keep up to 200 samples
 * each, and as objects (each with a boxed time) they were some 80,000 heap objects, a third of what reading the
 * transcripts leaves in the heap, all of which every full collection marks (and a compacting one moves).
 */
export interface UsageSample {
  atMs: number;
  tokens: number;
}

export class UsageSamples {
  private at: Float64Array | null = null;
  private tokens: Float64Array | null = null;
  /** Index of the oldest sample in the ring. */
  private start = 0;
  private count = 0;

  constructor(readonly keep: number) {}

  get length(): number {
    return this.count;
  }

  push(atMs: number, tokens: number): void {
    if (this.keep <= 0) return;
    if (this.at === null || this.tokens === null) {
      // Allocated on the first sample: most subagent files and every empty transcript keep none.
      this.at = new Float64Array(this.keep);
      this.tokens = new Float64Array(this.keep);
    }
    const i = (this.start + this.count) % this.keep;
    this.at[i] = atMs;
    this.tokens[i] = tokens;
    if (this.count < this.keep) this.count += 1;
    else this.start = (this.start + 1) % this.keep;
  }

  /** The samples, oldest first. */
  *[Symbol.iterator](): IterableIterator<UsageSample> {
    for (let k = 0; k < this.count; k++) {
      const i = (this.start + k) % this.keep;
      yield { atMs: (this.at as Float64Array)[i] as number, tokens: (this.tokens as Float64Array)[i] as number };
    }
  }

  /** Tokens and the oldest time of the samples with `from <= atMs <= to` (a burn window). */
  window(from: number, to: number): { count: number; tokens: number; firstMs: number | null } {
    let count = 0;
    let tokens = 0;
    let firstMs: number | null = null;
    for (let k = 0; k < this.count; k++) {
      const i = (this.start + k) % this.keep;
      const at = (this.at as Float64Array)[i] as number;
      if (at < from || at > to) continue;
      firstMs ??= at;
      count += 1;
      tokens += (this.tokens as Float64Array)[i] as number;
    }
    return { count, tokens, firstMs };
  }

  /** Every sample of `lists` in time order (a tie keeps the lists' order), the last `keep` of them. */
  static merged(lists: readonly UsageSamples[], keep: number): UsageSamples {
    const all: UsageSample[] = [];
    for (const l of lists) for (const s of l) all.push(s);
    all.sort((a, b) => a.atMs - b.atMs);
    const out = new UsageSamples(keep);
    for (const s of all.slice(-keep)) out.push(s.atMs, s.tokens);
    return out;
  }
}
