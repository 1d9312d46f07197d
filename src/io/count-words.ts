/**
 * A count with its noun, singular for one: "1 character", "1,204 characters". Every "(N characters)" a draft line,
 * the quit question or a long field's cut shows goes through it, so none of them says "1 characters".
 */
import { groupDigits } from './group-digits.js';

export function countWord(n: number, singular: string, plural = `${singular}s`): string {
  return `${groupDigits(n)} ${n === 1 ? singular : plural}`;
}
