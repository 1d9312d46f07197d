export const MAX_SANITIZED: number;
export function plainSgrPassesThrough(sanitize: (text: string) => string): (text: string) => string;
export function createTextMemo(fn: (text: string) => string, max?: number): (text: string) => string;
