/**
 * Reading values out of parsed JSON that anyone could have written: what is
 * an object, a list, a string or a number, said once for every domain.
 */

/** A JSON object as parsed: keys to values of any type. */
export type Obj = Record<string, unknown>;

/** A plain object (not null, not an array). */
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Anything `typeof v === 'object'` takes, arrays included: for rules that mirror an OMC check written that way
 * (the verdict engine must accept what OMC's hooks accept).
 */
export const isObjectLike = (v: unknown): v is Obj => v !== null && typeof v === 'object';

/** `v` as an object, or null. */
export const obj = (v: unknown): Obj | null => (isObj(v) ? v : null);

/** `v` as an object, or an empty one: for optional sections read field by field. */
export const objOrEmpty = (v: unknown): Obj => (isObj(v) ? v : {});

/** `v` as a list, or an empty one. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Any string (empty included), or null. */
export const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A string with something in it (not only blanks), or null. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/** A finite number, or a string holding one (OMC's state_write delivers "3"; OMC's readers cope), or null. */
export function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return null;
}

/** `text` parsed as a JSON object; null when it is not JSON or not an object. */
export function parseObj(text: string): Obj | null {
  try {
    return obj(JSON.parse(text));
  } catch {
    return null;
  }
}
