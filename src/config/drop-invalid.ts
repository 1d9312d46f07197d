/**
 * A config file with one bad field keeps the rest: a typo in `title` must not switch off push, prices, hosts
 * and answers with it. The schema's issues name their paths; each issue drops the smallest part of the file
 * that stands on its own (a setting, one push channel, one price entry, one host, one notify reason), and the
 * rest is parsed again. Every dropped part is named, with the key shown by every character (a key holding an
 * escape sequence reads `␛[31m`, never loses the text around it).
 */
import type { z } from 'zod';
import { shownExactly } from '../io/shown-exactly.js';

type Segment = string | number;

export interface DroppedPart {
  /** Where the issue is (`push.channels.0.url`), shown by every character. */
  field: string;
  /** What is wrong, in zod's words or the schema's own. */
  message: string;
  /** What was left out for it (`push.channels.0`), shown by every character. */
  dropped: string;
}

export type Salvaged<T> = { ok: true; data: T; dropped: DroppedPart[] } | { ok: false; whole: DroppedPart };

/** The lists and maps whose entries stand alone: one bad entry drops that entry, not the list. */
const ENTRY_LISTS = new Set(['push.channels', 'notify.reasons', 'prices', 'hosts']);

/** The part an issue at `at` drops: one entry of a list above, else the setting (two levels down at most). */
function unitOf(at: readonly Segment[]): Segment[] {
  return at.slice(0, at.length >= 2 && ENTRY_LISTS.has(at.slice(0, 2).join('.')) ? 3 : 2);
}

export function shownField(at: readonly Segment[]): string {
  return at.length === 0 ? '(top level)' : at.map((s) => shownExactly(String(s))).join('.');
}

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null;

/** The longest prefix of `unit` that is in the file (zod may name a field that is missing). */
function presentPrefix(raw: unknown, unit: readonly Segment[]): Segment[] {
  let cur = raw;
  const out: Segment[] = [];
  for (const s of unit) {
    if (!isContainer(cur) || !Object.hasOwn(cur, s)) break;
    cur = (cur as Record<string, unknown>)[s as string];
    out.push(s);
  }
  return out;
}

/** Removes each part from `raw` (in place): array entries last, highest index first, so indices hold. */
function removeParts(raw: unknown, parts: readonly Segment[][]): void {
  const fromArrays = new Map<unknown[], number[]>();
  for (const p of parts) {
    let parent: unknown = raw;
    for (const s of p.slice(0, -1))
      parent = isContainer(parent) ? (parent as Record<string, unknown>)[s as string] : null;
    if (!isContainer(parent)) continue; // inside a part removed with it
    const last = p[p.length - 1] as Segment;
    if (Array.isArray(parent)) fromArrays.set(parent, [...(fromArrays.get(parent) ?? []), Number(last)]);
    else delete parent[last as string];
  }
  for (const [list, indices] of fromArrays) {
    for (const i of [...new Set(indices)].sort((a, b) => b - a)) list.splice(i, 1);
  }
}

function describe(issue: z.core.$ZodIssue): Array<{ at: Segment[]; field: string; message: string }> {
  const at = issue.path.filter((s): s is Segment => typeof s !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((k) => ({
      at: [...at, k],
      field: shownField(at),
      message: `unknown key "${shownExactly(k)}"`,
    }));
  }
  // A bad key of a map (a header name): zod's own words are "Invalid key in record"; the key's rule says what.
  const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
  return [{ at, field: shownField(at), message: shownExactly(inner ?? issue.message) }];
}

/** A part as one string (a key may hold any character but the one JSON text cannot: NUL is escaped there). */
const keyOf = (part: readonly Segment[]) => part.map((s) => `${typeof s}:${String(s)}`).join('\u0000');

/** `raw` is the parsed JSON, owned by the caller (it is changed). A few rounds at most: parts are independent. */
export function parseKeepingValid<T>(schema: z.ZodType<T>, raw: unknown): Salvaged<T> {
  const dropped: DroppedPart[] = [];
  for (let round = 0; round < 4; round++) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return { ok: true, data: parsed.data, dropped };
    const parts: Segment[][] = [];
    const taken = new Set<string>();
    for (const issue of parsed.error.issues) {
      for (const d of describe(issue)) {
        const part = presentPrefix(raw, unitOf(d.at));
        // An issue about the whole file (not an object): nothing of it can be kept.
        if (part.length === 0) return { ok: false, whole: { ...d, dropped: '(the whole file)' } };
        // One word per part; a part inside another goes with it.
        if (part.some((_, i) => taken.has(keyOf(part.slice(0, i + 1))))) continue;
        taken.add(keyOf(part));
        parts.push(part);
        dropped.push({ field: d.field, message: d.message, dropped: shownField(part) });
      }
    }
    removeParts(raw, parts);
  }
  const first = dropped[0] ?? { field: '(top level)', message: 'invalid', dropped: '' };
  return { ok: false, whole: { ...first, dropped: '(the whole file)' } };
}
