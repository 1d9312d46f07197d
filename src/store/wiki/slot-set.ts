/**
 * A set of small integers (the search index's page slots): a list while it is
 * small, a bit set once the list would be bigger than the bits. Most words of
 * a wiki are on a few pages; the few on every page cost one bit a page.
 */
export class SlotSet {
  /** How many slots are in the set. */
  size = 0;
  private list: Int32Array | null = new Int32Array(2);
  private bits: Uint32Array | null = null;
  /** The index's epoch of the last add or remove (one page is added or removed per epoch: see FieldIndex). */
  epoch = -1;

  add(slot: number, words: number): void {
    if (this.bits) {
      if (slot >>> 5 >= this.bits.length) this.growBits(words);
      const bits = this.bits;
      const w = slot >>> 5;
      const b = 1 << (slot & 31);
      if ((bits[w]! & b) === 0) {
        bits[w]! |= b;
        this.size += 1;
      }
      return;
    }
    let list = this.list as Int32Array;
    if (this.size === list.length) {
      // A list longer than the bit set would be: bits from now on.
      if (this.size >= words) {
        this.toBits(words);
        this.add(slot, words);
        return;
      }
      const grown = new Int32Array(Math.min(words, list.length * 2));
      grown.set(list);
      this.list = list = grown;
    }
    list[this.size++] = slot;
  }

  remove(slot: number): void {
    if (this.bits) {
      const w = slot >>> 5;
      const b = 1 << (slot & 31);
      if (w < this.bits.length && (this.bits[w]! & b) !== 0) {
        this.bits[w]! &= ~b;
        this.size -= 1;
      }
      return;
    }
    const list = this.list as Int32Array;
    for (let i = 0; i < this.size; i++) {
      if (list[i] === slot) {
        list[i] = list[this.size - 1]!;
        this.size -= 1;
        return;
      }
    }
  }

  /** Sets this set's slots in `out` (a bit set of at least the index's current width). */
  orInto(out: Uint32Array): void {
    if (this.bits) {
      const bits = this.bits;
      for (let w = 0, n = Math.min(bits.length, out.length); w < n; w++) out[w]! |= bits[w]!;
      return;
    }
    const list = this.list as Int32Array;
    for (let i = 0; i < this.size; i++) {
      const s = list[i]!;
      out[s >>> 5]! |= 1 << (s & 31);
    }
  }

  private toBits(words: number): void {
    const bits = new Uint32Array(words);
    const list = this.list as Int32Array;
    for (let i = 0; i < this.size; i++) bits[list[i]! >>> 5]! |= 1 << (list[i]! & 31);
    this.bits = bits;
    this.list = null;
  }

  private growBits(words: number): void {
    const grown = new Uint32Array(words);
    grown.set(this.bits as Uint32Array);
    this.bits = grown;
  }
}

/** Whether `slot` is in the bit set `bits`. */
export const hasSlot = (bits: Uint32Array, slot: number): boolean => (bits[slot >>> 5]! & (1 << (slot & 31))) !== 0;
