export const MAX_SANITIZED: number;
export function createTextMemo(fn: (text: string) => string, max?: number): (text: string) => string;
