/**
 * Fields of a mode file that OMC's hooks read, with the type they expect. A value of another
 * type is not an error to OMC (JavaScript coerces it, often into "not active" or "no
 * progress"), so the user gets one problem line per file naming each such field, the type
 * expected and what was found; the mode is still shown with what can be read.
 */
import { cleanLine, truncate } from '../../io/sanitize.js';
import { modeSpec } from './modes.js';
import { timeMs } from './omc-rules.js';

type Kind = 'boolean' | 'number' | 'string' | 'date';

const COMMON: Record<string, Kind> = {
  active: 'boolean',
  session_id: 'string',
  project_path: 'string',
  started_at: 'date',
  last_checked_at: 'date',
  updated_at: 'date',
  completed_at: 'date',
  awaiting_confirmation: 'boolean',
  awaiting_confirmation_set_at: 'date',
  reinforcement_count: 'number',
};

/** A value described for a problem line: short, sanitised, never the whole of a nested structure. */
function described(v: unknown): string {
  if (Array.isArray(v)) return `an array (${v.length} items)`;
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(truncate(cleanLine(v), 30));
  return cleanLine(String(v));
}

function fits(kind: Kind, v: unknown): boolean {
  switch (kind) {
    case 'boolean':
      return typeof v === 'boolean';
    // A digit string ("3") is what state_write sometimes stores; OMC's comparisons coerce it.
    case 'number':
      return (
        (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v))
      );
    case 'string':
      return typeof v === 'string';
    // A date string omc-top cannot use is flagged however JavaScript parses it: one past year 9999 (JavaScript's
    // last date, +275760-09-13, parses) would otherwise be dropped with no word (timeMs).
    case 'date':
      return (typeof v === 'string' && (v === '' || timeMs(v) !== null)) || typeof v === 'number';
  }
}

const WORD: Record<Kind, string> = {
  boolean: 'true or false',
  number: 'a number',
  string: 'text',
  date: 'an ISO date',
};

/** The fields OMC reads in one mode's file, with their types: built once per mode name (every file asks). */
const tables = new Map<string, readonly (readonly [string, Kind])[]>();
function fieldsOf(mode: string): readonly (readonly [string, Kind])[] {
  let table = tables.get(mode);
  if (!table) {
    const t = modeSpec(mode);
    const fields: Record<string, Kind> = { ...COMMON };
    for (const k of [...t.iteration, ...t.max]) fields[k] = 'number';
    for (const k of t.phase) fields[k] = 'string';
    table = Object.entries(fields);
    // Unknown *-state.json names come from disk: keep the known modes' tables, not one per stray name.
    if (tables.size < 256) tables.set(mode, table);
  }
  return table;
}

/** One message for the file, or null when every field OMC reads has the type it expects. */
export function wrongTypedFields(mode: string, s: Record<string, unknown>): string | null {
  const bad: string[] = [];
  const table = fieldsOf(mode);
  // Indexed and unpacked by hand, not `for (const [k, kind] of …)`: this runs once per session file at start,
  // mostly before V8 optimises it, where that allocates two iterators and a result object per step (see "Cold
  // loops" in docs/ARCHITECTURE.md).
  for (let i = 0; i < table.length; i++) {
    const field = table[i]!;
    const k = field[0];
    const kind = field[1];
    // null is how OMC itself writes "not set" (its autopilot has completed_at: null).
    if (!(k in s) || s[k] === undefined || s[k] === null) continue;
    if (!fits(kind, s[k])) bad.push(`${k} should be ${WORD[kind]}, found ${described(s[k])}`);
  }
  return bad.length === 0 ? null : `fields OMC reads have the wrong type: ${bad.join('; ')}`;
}
