/**
 * What may be written into a notepad section so that OMC reads back exactly
 * the text the user saw. Every check runs before anything is written; a
 * refusal names the rule (and the limit) so the user can fix the draft.
 */
import { ENTRY_HEADING_RE, LIMITS, SECTION_TITLES, type SectionId } from './format.js';
import { groupDigits } from '../../io/group-digits.js';

export interface Verdict {
  ok: boolean;
  /** Why the text is refused (ok === false). */
  error?: string;
  /** Saved anyway, but worth saying (Priority over the 500 recommended). */
  warning?: string;
}

const fmt = groupDigits;

/**
 * Draft → the text we store: leading blank lines and trailing whitespace go
 * (OMC's reader trims them anyway). Every other character is kept as it is:
 * the editors hold the raw text, so a tab or a control character the user
 * did not touch is written back byte for byte (what is typed or pasted is
 * cleaned where it is typed).
 */
export function normalizeDraft(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/**
 * The draft with the comments it started with blanked out (each kept line break stays, so line numbers still
 * match the draft), and OMC's reading of it. A comment already in the file is the user's text and is written
 * back as it was; only a comment that is new (typed, pasted, or an old one changed) is refused, as OMC would
 * never see it.
 */
function withoutKept(text: string, kept: readonly string[]): { shown: string; read: string } {
  const left = new Map<string, number>();
  for (const c of kept) left.set(c, (left.get(c) ?? 0) + 1);
  const shown = text.replace(/<!--[\s\S]*?-->/g, (c) => {
    const n = left.get(c) ?? 0;
    if (n === 0) return c;
    left.set(c, n - 1);
    return c.replace(/[^\n]/g, '');
  });
  return { shown, read: text.replace(/<!--[\s\S]*?-->/g, '') };
}

/** How long a draft is as OMC reads it (comments deleted): what the limits count, the same as the read view's size. */
export const readLength = (draft: string): number => draft.replace(/<!--[\s\S]*?-->/g, '').trimEnd().length;

/** Rules shared by every section: nothing OMC's reader would hide or cut. */
function commonRules(text: string): string | null {
  const comment = text.search(/<!--|-->/);
  if (comment !== -1) {
    return `line ${lineOf(text, comment)} has an HTML comment marker (<!-- or -->): OMC's reader deletes comments, so OMC would not see that text`;
  }
  const m = /(^|\n)## (?!#)/.exec(text);
  if (m) {
    return `line ${lineOf(text, m.index + m[1]!.length)} starts with "## ": OMC's reader ends the section there and would lose the rest`;
  }
  return null;
}

/** A Working Memory or MANUAL entry body (already normalized). */
export function validateEntry(
  section: Exclude<SectionId, 'priority'>,
  draft: string,
  kept: readonly string[] = [],
): Verdict {
  const title = SECTION_TITLES[section];
  const { shown: body, read } = withoutKept(draft, kept);
  if (read.trim() === '') return { ok: false, error: 'the entry is empty: nothing to save (d deletes an entry)' };
  if (read.length > LIMITS.entryMax) {
    return {
      ok: false,
      error: `${title} entries are limited to ${fmt(LIMITS.entryMax)} characters by OMC; this one has ${fmt(read.length)}. Nothing was written`,
    };
  }
  const common = commonRules(body);
  if (common) return { ok: false, error: common };
  const lines = body.split('\n');
  const heading = lines.findIndex((l) => ENTRY_HEADING_RE.test(l));
  if (heading !== -1) {
    return {
      ok: false,
      error: `line ${heading + 1} is an entry heading (### YYYY-MM-DD HH:MM): it would split this into two entries`,
    };
  }
  if (section === 'working') {
    const sub = body.indexOf('### ');
    if (sub !== -1) {
      return {
        ok: false,
        error: `line ${lineOf(body, sub)} contains "### ": OMC's notepad_prune cuts a Working Memory entry at "### " and would drop the rest`,
      };
    }
  }
  return { ok: true };
}

/** The Priority Context text (already normalized; empty clears it). */
export function validatePriority(draft: string, kept: readonly string[] = []): Verdict {
  const { shown: text, read } = withoutKept(draft, kept);
  if (read.length > LIMITS.priorityMax) {
    return {
      ok: false,
      error: `Priority Context is limited to ${fmt(LIMITS.priorityMax)} characters by OMC; this has ${fmt(read.length)}. Nothing was written`,
    };
  }
  const common = commonRules(text);
  if (common) return { ok: false, error: common };
  const cut = text.indexOf('## ');
  if (cut !== -1) {
    return {
      ok: false,
      error: `line ${lineOf(text, cut)} contains "## ": OMC's session-start hook stops reading Priority Context there`,
    };
  }
  if (read.length > LIMITS.priorityRecommended) {
    return {
      ok: true,
      warning: `Priority Context is ${fmt(read.length)} characters, over the ${fmt(LIMITS.priorityRecommended)} OMC recommends (it is injected into every session)`,
    };
  }
  return { ok: true };
}
