/**
 * OMC's hooks are plain JavaScript reading whatever JSON is on disk: `iteration || 1`,
 * `(count || 0) + 1 <= 20`, `new Date(x).getTime()`. Their decisions on wrong-typed fields
 * follow JavaScript's coercions, so the verdict engine applies the very same operators to
 * the same values instead of restating them (a string count "5" + 1 is "51", and "51" <= 20
 * is false — exactly as in the hook). Kept in one file so the `any` stays here.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */

/** `a || b` */
export const or = (a: unknown, b: unknown): unknown => (a as any) || b;
/** `(v || 0) + 1` */
export const plusOne = (v: unknown): unknown => ((v as any) || 0) + 1;
/** `a < b` */
export const lt = (a: unknown, b: unknown): boolean => (a as any) < (b as any);
/** `a <= b` */
export const le = (a: unknown, b: unknown): boolean => (a as any) <= (b as any);
/** `a >= b` */
export const ge = (a: unknown, b: unknown): boolean => (a as any) >= (b as any);
/** `a > b` */
export const gt = (a: unknown, b: unknown): boolean => (a as any) > (b as any);
/** `new Date(v).getTime()` */
export const dateMs = (v: unknown): number => new Date(v as any).getTime();
/** `obj?.[key]`, on any value (strings and arrays have properties too). */
export const get = (v: unknown, key: string): unknown => (v === null || v === undefined ? undefined : (v as any)[key]);
