/**
 * Where a text stops being JSON, said without quoting it: `line 3, column 14: a value was expected`. V8's own
 * message quotes the text around the fault (`Unexpected token 'N', ..."token":NTFYTOKSEC"... is not valid JSON`),
 * and a config file's fault is often next to a secret (a token whose quotes were forgotten): that message would put
 * part of it on a terminal, a log or the serve page. This scanner follows JSON's grammar only far enough to find
 * the first fault; it builds nothing (the caller's JSON.parse already said the text is not JSON).
 */

type Fault = { at: number; what: string };

const WS = new Set([' ', '\t', '\n', '\r']);

function scan(t: string): Fault | null {
  let i = 0;
  const ws = () => {
    while (i < t.length && WS.has(t[i]!)) i++;
  };
  const fail = (what: string): Fault => ({ at: i, what });
  const str = (): Fault | null => {
    i++; // the opening quote
    while (i < t.length) {
      const c = t[i]!;
      if (c === '"') {
        i++;
        return null;
      }
      if (c === '\\') {
        const e = t[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) return fail('a \\u escape needs four hex digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return fail('an unknown escape in a string');
      } else if (c.charCodeAt(0) < 0x20) return fail('a control character inside a string (a line break?)');
      else i++;
    }
    return fail('a string is not closed');
  };
  const value = (): Fault | null => {
    ws();
    if (i >= t.length) return fail('the text ends where a value was expected');
    const c = t[i]!;
    if (c === '{') {
      i++;
      ws();
      if (t[i] === '}') return (i++, null);
      for (;;) {
        ws();
        if (t[i] !== '"') return fail('a name in double quotes was expected');
        const s = str();
        if (s) return s;
        ws();
        if (t[i] !== ':') return fail("a ':' was expected after the name");
        i++;
        const v = value();
        if (v) return v;
        ws();
        if (t[i] === ',') {
          i++;
          continue;
        }
        if (t[i] === '}') return (i++, null);
        return fail(i >= t.length ? 'the text ends inside an object' : "a ',' or '}' was expected");
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (t[i] === ']') return (i++, null);
      for (;;) {
        const v = value();
        if (v) return v;
        ws();
        if (t[i] === ',') {
          i++;
          continue;
        }
        if (t[i] === ']') return (i++, null);
        return fail(i >= t.length ? 'the text ends inside a list' : "a ',' or ']' was expected");
      }
    }
    if (c === '"') return str();
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(t.slice(i, i + 400));
    if (m && m[0] !== '' && m[0] !== '-') return ((i += m[0].length), null);
    for (const word of ['true', 'false', 'null']) if (t.startsWith(word, i)) return ((i += word.length), null);
    return fail('a value was expected (text without quotes?)');
  };
  const v = value();
  if (v) return v;
  ws();
  return i < t.length ? fail('more text after the value') : null;
}

/** Where and why `text` is not JSON, as `line L, column C: why`; null when it is. Never quotes the text. */
export function jsonProblem(text: string): string | null {
  let f: Fault | null;
  try {
    f = scan(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // Lists or objects nested past the stack: said as such, still without the text.
    return 'nested too deeply';
  }
  if (!f) return null;
  const before = text.slice(0, f.at + (text.charCodeAt(0) === 0xfeff ? 1 : 0));
  const line = before.split('\n').length;
  const column = f.at - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${f.what}`;
}
