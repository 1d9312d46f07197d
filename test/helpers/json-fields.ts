/**
 * The field paths of a JSON value (`sessions[].process.pid`: object keys joined by `.`, an array's elements by
 * `[]`), and the paths docs/json-fields.md lists per output. test/commands/json-fields.test.ts compares the two.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './fixtures.js';

/**
 * Every path in `value` below `prefix`: each key (an object or an array too), never the root itself. `maps` are
 * the paths whose keys are data (a map from a name to a value): they are one path, nothing below them is.
 */
export function fieldPaths(value: unknown, prefix: string, into: Set<string>, maps: ReadonlySet<string>): void {
  if (maps.has(prefix)) return;
  if (Array.isArray(value)) {
    for (const v of value) fieldPaths(v, `${prefix}[]`, into, maps);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    const p = prefix === '' ? k : `${prefix}.${k}`;
    into.add(p);
    fieldPaths(v, p, into, maps);
  }
}

export interface DocField {
  path: string;
  type: string;
  /** Marked `(not emitted in tests: …)`: no test tree makes it; the test skips it by name. */
  notInTests: boolean;
}

export const FIELDS_DOC = path.join(REPO, 'docs', 'json-fields.md');

/**
 * The doc's tables, by the output each follows (`<!-- json-fields: NAME -->`): rows `| \`path\` | type | … |`.
 * A type starting `map` names a path whose keys are data; a type starting `as ` names a value whose fields are
 * listed at another path (`as \`events.roots[].rows[]\``): neither is looked into below.
 */
export function docFields(text = fs.readFileSync(FIELDS_DOC, 'utf8')): Map<string, DocField[]> {
  const out = new Map<string, DocField[]>();
  let current: DocField[] | null = null;
  for (const line of text.split('\n')) {
    const marker = /^<!-- json-fields: ([a-z-]+) -->$/.exec(line.trim());
    if (marker) {
      current = [];
      out.set(marker[1] as string, current);
      continue;
    }
    if (!current) continue;
    const cells = line.split('|').map((c) => c.trim());
    const field = /^`([^`]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!line.startsWith('|') || !field) continue;
    current.push({ path: field, type: cells[2] ?? '', notInTests: line.includes('(not emitted in tests:') });
  }
  return out;
}
