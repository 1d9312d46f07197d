/**
 * The last `keep` distinct message ids a transcript named, for counting each API response once: Claude Code
 * writes one line per content block of a response, each repeating its id and usage, and those lines are
 * close together, so a bounded window of recent ids dedupes them.
 *
 * One Set holds the window: a Set iterates in insertion order, so its first value is the oldest id (a second
 * array of the same ids in order, as before, kept ~2 KB per transcript alive for nothing once read).
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly keep: number) {}

  /** True the first time `id` is seen within the window (and remembers it, forgetting the oldest past `keep`). */
  firstSight(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.keep) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}
