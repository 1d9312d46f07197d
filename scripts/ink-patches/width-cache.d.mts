export const MAX_TEXTS: number;
export function createFastWidth(widestLine: (text: string) => number): (text: string) => number;
export function createWidthCache(widestLine: (text: string) => number): (text: string) => number;
export const NARROW_SYMBOLS: string;
export const WIDE_BLOCKS: ReadonlyArray<readonly [number, number]>;
