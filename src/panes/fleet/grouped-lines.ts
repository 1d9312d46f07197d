/**
 * The fleet list's lines and ids without a filter, read through the groups as the model keeps them (one lines
 * array per group object, fleet/model.ts groupLines) instead of copied into one array per snapshot. A change in
 * one project makes a new group object for that project only; copying every line and id of the fleet for each
 * snapshot cost 2 × 4,000 entries at 20 projects × 200 sessions, where this costs a start index per group.
 */
import { groupLines, lineId, type FleetGroup, type FleetLine } from '../../fleet/model.js';
import type { Ids } from '../../kit/list.js';

/** What the view reads of the lines shown: a filter's plain array, or the groups' own lines joined. */
export interface LineList {
  readonly length: number;
  at(index: number): FleetLine | undefined;
  slice(start: number, end: number): FleetLine[];
}

/** Each group's line ids, kept while the fleet keeps the group. */
const idsOfGroup = new WeakMap<FleetGroup, string[]>();
function groupIds(g: FleetGroup): string[] {
  let ids = idsOfGroup.get(g);
  if (!ids) idsOfGroup.set(g, (ids = groupLines(g).map(lineId)));
  return ids;
}

export class GroupedLines implements LineList {
  readonly length: number;
  /** Session rows in all the groups (the filter line's total). */
  readonly rows: number;
  /** The lines' ids in the same order, for the list model. */
  readonly ids: Ids;
  /** Each group's lines (the model's own arrays, never changed here) and the index of its first line. */
  private readonly parts: readonly FleetLine[][];
  private readonly starts: readonly number[];

  constructor(private readonly groups: readonly FleetGroup[]) {
    const parts: FleetLine[][] = [];
    const starts: number[] = [];
    let length = 0;
    let rows = 0;
    for (const g of groups) {
      const lines = groupLines(g);
      parts.push(lines);
      starts.push(length);
      length += lines.length;
      rows += g.rows.length;
    }
    this.parts = parts;
    this.starts = starts;
    this.length = length;
    this.rows = rows;
    this.ids = {
      length,
      at: (index) => {
        const at = this.locate(index);
        return at ? groupIds(this.groups[at.part] as FleetGroup)[at.offset] : undefined;
      },
      indexOf: (id) => {
        for (let p = 0; p < this.groups.length; p++) {
          const i = groupIds(this.groups[p] as FleetGroup).indexOf(id);
          if (i !== -1) return (this.starts[p] as number) + i;
        }
        return -1;
      },
    };
  }

  at(index: number): FleetLine | undefined {
    const at = this.locate(index);
    return at ? this.parts[at.part]?.[at.offset] : undefined;
  }

  /** Lines `start` (inclusive) to `end` (exclusive), as Array.prototype.slice for non-negative bounds. */
  slice(start: number, end: number): FleetLine[] {
    const out: FleetLine[] = [];
    const stop = Math.min(end, this.length);
    let at = this.locate(Math.max(0, start));
    for (let i = Math.max(0, start); at && i < stop; i++) {
      out.push(this.parts[at.part]?.[at.offset] as FleetLine);
      at =
        at.offset + 1 < (this.parts[at.part]?.length ?? 0)
          ? { part: at.part, offset: at.offset + 1 }
          : this.locate(i + 1);
    }
    return out;
  }

  /** The group holding line `index` and the line's place in it (binary search over the groups' start indexes). */
  private locate(index: number): { part: number; offset: number } | null {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return null;
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= index) lo = mid;
      else hi = mid - 1;
    }
    return { part: lo, offset: index - (this.starts[lo] as number) };
  }
}
