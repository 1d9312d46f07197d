/**
 * Where each value of a JSON text starts and ends, so one array element can be cut out with every other byte of
 * the file kept as it was (a user's spacing, key order, escapes): `hooks uninstall` removing an older omc-top's
 * entry from a file it did not write last. Only for text JSON.parse already accepted; null when it cannot follow.
 */

export interface JsonSpan {
  start: number;
  end: number;
  /** Object members by key (the last of a repeated key, as JSON.parse keeps it), or array elements in order. */
  members?: Map<string, JsonSpan>;
  elements?: JsonSpan[];
}

export function jsonSpans(text: string): JsonSpan | null {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const ws = () => {
    while (i < text.length && /[ \t\r\n]/.test(text[i] as string)) i++;
  };
  const str = (): string | null => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) return null;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (depth: number): JsonSpan | null => {
    if (depth > 512) return null;
    ws();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members = new Map<string, JsonSpan>();
      ws();
      if (text[i] === '}') return { start, end: ++i, members };
      for (;;) {
        ws();
        if (text[i] !== '"') return null;
        const key = str();
        ws();
        if (key === null || text[i++] !== ':') return null;
        const v = value(depth + 1);
        if (!v) return null;
        members.set(key, v);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return { start, end: ++i, members };
        else return null;
      }
    }
    if (c === '[') {
      i++;
      const elements: JsonSpan[] = [];
      ws();
      if (text[i] === ']') return { start, end: ++i, elements };
      for (;;) {
        const v = value(depth + 1);
        if (!v) return null;
        elements.push(v);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return { start, end: ++i, elements };
        else return null;
      }
    }
    if (c === '"') return str() === null ? null : { start, end: i };
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!m) return null;
    i += m[0].length;
    return { start, end: i };
  };
  const root = value(0);
  ws();
  return root && i === text.length ? root : null;
}

/** `text` without element `k` of `array` (and the comma and spacing that joined it), every other byte kept. */
export function withoutElement(text: string, array: JsonSpan, k: number): string {
  const els = array.elements ?? [];
  const e = els[k] as JsonSpan;
  if (els.length === 1) return text.slice(0, array.start + 1) + text.slice(array.end - 1);
  if (k < els.length - 1) return text.slice(0, e.start) + text.slice((els[k + 1] as JsonSpan).start);
  return text.slice(0, (els[k - 1] as JsonSpan).end) + text.slice(e.end);
}
