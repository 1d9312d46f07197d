/** The one line an editor shows above its field while a kept draft is offered (kit/kept-drafts.ts), every pane alike. */
import { KEPT_WHY_WORDS } from '../store/drafts/draft-file.js';
import type { DraftOffer } from '../kit/kept-drafts.js';
import { cleanLine, truncate } from '../io/sanitize.js';
import { formatAge, formatClock } from './format.js';

export function offerLine(offer: DraftOffer<unknown>, now: number): string {
  // The problem may quote the file (a JSON parser's message): cleaned as every text from a file is.
  if (offer.kind === 'bad')
    return `The draft kept in ${offer.file} cannot be used (${truncate(cleanLine(offer.problem), 200)}): Ctrl-X deletes it`;
  // The clock alone is ambiguous a day later; the age says which day.
  const age = offer.keptAt <= now ? ` (${formatAge(offer.keptAt, now)} ago)` : '';
  if (offer.kind === 'landed')
    return `A draft from ${formatClock(offer.keptAt).slice(0, 5)} UTC${age} was kept when ${KEPT_WHY_WORDS[offer.why]}, and its text is saved already: ${offer.where}. Ctrl-X deletes the draft`;
  return `A draft from ${formatClock(offer.keptAt).slice(0, 5)} UTC${age} was kept when ${KEPT_WHY_WORDS[offer.why]}: ${offer.preview} · Ctrl-R restores · Ctrl-X discards`;
}
