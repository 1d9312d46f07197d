/**
 * The order of worker names (WORKER_NAME_RE: a-z, 0-9 and `-`) as `localeCompare(b, 'en', { numeric: true })`
 * gives it (worker-2 before worker-10), without ICU: the collator's first use cost 6–10 ms of a start with teams,
 * before `live`. For these characters the collator orders `-` before a run of digits before a letter, letters
 * alphabetically, digit runs by their value (leading zeros do not count, so `w01` and `w1` are equal and the
 * sort keeps their listing order, as it did), and a name before its longer continuations; that is what this
 * does (test/store/worker-order.property.test.ts holds it to the collator over random names). Other text keeps
 * localeCompare: this order is only shown to match on these names.
 */

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

export function compareWorkerNames(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      const byValue = compareDigitRuns(a, i, b, j);
      if (byValue.order !== 0) return byValue.order;
      i = byValue.endA;
      j = byValue.endB;
      continue;
    }
    // `-` (45) < digits (48–57) < a–z (97–122) in ASCII too: the code units order them as the collator does.
    if (ca !== cb) return ca < cb ? -1 : 1;
    i++;
    j++;
  }
  const restA = a.length - i;
  const restB = b.length - j;
  return restA === restB ? 0 : restA < restB ? -1 : 1;
}

/** Two runs of digits starting at `i` in `a` and `j` in `b`, by value: the longer (without leading zeros) is more. */
function compareDigitRuns(a: string, i: number, b: string, j: number): { order: number; endA: number; endB: number } {
  let endA = i;
  while (endA < a.length && isDigit(a.charCodeAt(endA))) endA++;
  let endB = j;
  while (endB < b.length && isDigit(b.charCodeAt(endB))) endB++;
  let startA = i;
  while (startA < endA - 1 && a.charCodeAt(startA) === 48) startA++;
  let startB = j;
  while (startB < endB - 1 && b.charCodeAt(startB) === 48) startB++;
  const lenA = endA - startA;
  const lenB = endB - startB;
  if (lenA !== lenB) return { order: lenA < lenB ? -1 : 1, endA, endB };
  for (let k = 0; k < lenA; k++) {
    const x = a.charCodeAt(startA + k);
    const y = b.charCodeAt(startB + k);
    if (x !== y) return { order: x < y ? -1 : 1, endA, endB };
  }
  return { order: 0, endA, endB };
}
