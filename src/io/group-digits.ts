/**
 * A whole number with its digits grouped by commas, exactly as `n.toLocaleString('en-US')` writes it ("12,345").
 *
 * Why not toLocaleString: its first call in a process sets up ICU's number formatter, 10–20 ms of CPU, and the
 * first one came in the monitor's first read slice ("reading 200/2,000"), before the first frame. A whole number
 * needs no locale data; anything else (a fraction, NaN, ∞) is still ICU's to write, so every figure on screen is
 * what it was.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  if (Object.is(n, -0)) return '-0';
  const digits = String(Math.abs(n));
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += ',' + digits.slice(i, i + 3);
  return n < 0 ? '-' + out : out;
}
