/**
 * The process cell of a session row: what the Claude Code process behind it
 * is doing (busy, idle, waiting, gone, unknown) and since when, with "!" when
 * the join of OMC's state and the process needs the user (an orphaned loop,
 * a permission prompt, idle while a loop is active). Pure text: the row and
 * its tests read the same strings.
 */
import { attentionFor, type AttentionFact } from '../../store/claude/attention.js';
import { lifeOf, momentShort, momentWords } from '../../store/claude/life.js';
import { processWord } from '../../store/claude/join-words.js';
import type { ClaudeSessionView, ProcessView } from '../../store/claude/model.js';
import type { SessionView } from '../../store/sessions/model.js';
import { formatAge, width as textWidth } from '../../ui/format.js';

export type CellTone = 'ok' | 'warn' | 'error' | 'muted';

export interface ProcessCell {
  /** Longest first: the row takes the first that fits its column (never cut mid-word). */
  variants: string[];
  tone: CellTone;
  attention: AttentionFact[];
}

function toneOf(p: ProcessView | null, attention: readonly AttentionFact[]): CellTone {
  if (attention.some((a) => a.kind === 'orphaned-loop')) return 'error';
  if (attention.length > 0) return 'warn';
  if (p?.status === 'busy') return 'ok';
  return 'muted';
}

/**
 * `acknowledged`: what this session raises was acknowledged (it is out of the count), so the word loses its
 * "!" — the cell still says what the process is doing.
 */
export function processCell(
  s: SessionView,
  c: ClaudeSessionView | undefined,
  now: number,
  acknowledged = false,
): ProcessCell {
  if (s.kind === 'legacy') return { variants: ['—'], tone: 'muted', attention: [] };
  const p = c?.process ?? null;
  const attention = attentionFor(s, p, c?.transcript?.facts ?? null);
  const life = lifeOf(c);
  // A Claude whose hooks read another .omc runs nothing of this root's loop (the orphaned item says so): not "busy".
  const away = !!p?.elsewhere;
  const word = processWord(life.status, away);
  const mark = attention.length > 0 && !acknowledged ? '!' : '';
  // An exit is a moment, not a state that ages: "exited 14:02" (UTC, as every clock in the app), a day before today
  // with its date ("exited yesterday 23:10", in a narrow cell "exited Dec 6"), a moment ahead of the clock marked.
  const exited = word === 'exited' && life.sinceMs !== null && !away;
  const when =
    life.sinceMs === null || word === 'unknown' || away
      ? []
      : exited
        ? [momentWords(life.sinceMs, now), momentShort(life.sinceMs, now)].filter((w, i, a) => a.indexOf(w) === i)
        : [formatAge(life.sinceMs, now)];
  const variants = [...when.map((w) => `${mark}${word} ${w}`), `${mark}${word}`, word];
  // "unknown" does not fit a narrow column; "?" says the same without guessing.
  if (word === 'unknown') variants.push('?');
  return { variants, tone: toneOf(p, attention), attention };
}

/** The first variant that fits `width` cells, else "" (the column is too narrow to say anything whole). */
export function cellText(cell: ProcessCell, width: number): string {
  return cell.variants.find((v) => textWidth(v) <= width) ?? '';
}
