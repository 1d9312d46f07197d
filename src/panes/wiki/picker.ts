import type { WikiSnapshot } from '../../store/wiki/domain.js';

export interface TagOption {
  /** null = "any tag" (clears the filter). */
  tag: string | null;
  count: number;
}

/** "(any tag)" first, then the tags containing the typed text, most used first. */
export function pickerTags(snap: WikiSnapshot, filter: string): TagOption[] {
  const f = filter.trim().toLowerCase();
  const tags = snap.tags
    .filter(([t]) => f === '' || t.toLowerCase().includes(f))
    .map(([tag, count]) => ({ tag, count }));
  return [{ tag: null, count: 0 }, ...tags];
}
