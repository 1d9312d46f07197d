/**
 * OMC's directive rules, as pure functions over the directive list
 * (OMC 5.5.0: dist/hooks/project-memory/storage.js and dist/tools/memory-tools.js):
 *
 * - adding: case-insensitive de-duplication on the text; when the list then
 *   holds more than 20, it is sorted high-priority first, then newest, and
 *   cut to 20 (addDirective). Nothing is capped on other changes, and
 *   project_memory_write's merge is uncapped, so files with more exist;
 * - SessionStart ranks directives by priority, then newest, and shows the top
 *   three ("critical" for high, "note" for normal).
 *
 * OMC has no edit or remove tool; omc-top edits in place (same timestamp,
 * source and unknown keys) and removes by identity (timestamp + text).
 */
import { cleanLine } from '../../io/sanitize.js';
import { MAX_DIRECTIVES, type Directive, type DirectiveInput } from './schema.js';

/** Between a key's timestamp and its text: a NUL, which a timestamp written out never holds. */
const KEY_SEPARATOR = '\u0000';

/** A directive's identity inside one file: its timestamp and its exact text (parseDirectiveKey reads it back). */
export const directiveKey = (d: Pick<Directive, 'timestamp' | 'directive'>) =>
  `${d.timestamp}${KEY_SEPARATOR}${d.directive}`;

/**
 * The timestamp and text a directiveKey was made of (the text may hold a NUL itself: the first one ends the
 * timestamp), or null for a string that is no such key.
 */
export function parseDirectiveKey(key: string): Pick<Directive, 'timestamp' | 'directive'> | null {
  const at = key.indexOf(KEY_SEPARATOR);
  if (at <= 0) return null;
  const timestamp = Number(key.slice(0, at));
  return Number.isFinite(timestamp) ? { timestamp, directive: key.slice(at + 1) } : null;
}

/** addDirective's order when it has to cut: high before normal, then newest first. */
export function capOrder(a: Directive, b: Directive): number {
  if (a.priority !== b.priority) return a.priority === 'high' ? -1 : 1;
  return b.timestamp - a.timestamp;
}

/** SessionStart's order (formatter scoreDirective): the same ranking as a single score. */
export const summaryScore = (d: Directive) => (d.priority === 'high' ? 1_000_000_000_000 : 0) + d.timestamp;

export function rankForSummary<T extends Directive>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => summaryScore(b) - summaryScore(a));
}

/** Which directives OMC's next add would keep if the list is already over the cap (uncapped merges). */
export function survivorsOfCap(list: readonly Directive[]): Set<string> {
  if (list.length <= MAX_DIRECTIVES) return new Set(list.map(directiveKey));
  return new Set([...list].sort(capOrder).slice(0, MAX_DIRECTIVES).map(directiveKey));
}

export type DirectiveOp =
  | { kind: 'add'; input: DirectiveInput; timestamp: number }
  /**
   * `base`: the directive as the user's edit started from it (the form opened on it). A field changed on disk since
   * then and left alone by the user keeps the disk's value; one both changed, differently, refuses the save.
   */
  | { kind: 'edit'; target: string; input: DirectiveInput; base?: DirectiveInput }
  /**
   * `base`: the directive as the user saw it when asked to remove it. One changed on disk since then (its context or
   * priority: the text is part of its identity) is not removed: the user agreed to remove what they saw.
   */
  | { kind: 'remove'; target: string; base?: DirectiveInput };

export type OpResult =
  | {
      ok: true;
      list: Directive[];
      dropped: Directive[];
      changed: Directive | null;
      /** Fields of an edit taken from the disk: changed there since the edit began, not by the user. */
      kept?: readonly (keyof DirectiveInput)[];
    }
  /** `disk`: an edit's directive as it is on disk now, when a field both sides changed refused it. */
  /** `gone`: the directive changed is not in the file any more (removed, or its text changed meanwhile). */
  | { ok: false; reason: string; disk?: DirectiveInput; gone?: true };

const FIELDS = ['directive', 'context', 'priority'] as const;

/**
 * The edit as it lands on what is on disk now: per field, the user's value where the user changed it, the disk's
 * where only the disk did; both changed it differently: a conflict, named.
 */
function mergeEdit(
  now: Directive,
  input: DirectiveInput,
  base: DirectiveInput | undefined,
): { input: DirectiveInput; kept: (keyof DirectiveInput)[] } | { conflict: keyof DirectiveInput } {
  if (!base) return { input, kept: [] };
  const out = { ...input };
  const kept: (keyof DirectiveInput)[] = [];
  for (const f of FIELDS) {
    const disk = now[f] ?? '';
    if (disk === base[f]) continue;
    if (input[f] === base[f]) {
      (out as Record<string, unknown>)[f] = disk;
      kept.push(f);
    } else if (input[f] !== disk) return { conflict: f };
  }
  return { input: out, kept };
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Applies one change to a directive list (never mutates it). `dropped` lists
 * what the 20-cap pushed out, which the user must be told about before saving.
 */
export function applyOp(list: readonly Directive[], op: DirectiveOp): OpResult {
  if (op.kind === 'add') {
    const text = op.input.directive.trim();
    const dup = list.find((d) => sameText(d.directive, text));
    if (dup)
      return {
        ok: false,
        reason: `already a directive (OMC de-duplicates ignoring case): "${cleanLine(dup.directive)}"`,
      };
    const added: Directive = {
      timestamp: op.timestamp,
      directive: text,
      context: op.input.context,
      source: 'explicit',
      priority: op.input.priority,
    };
    const next = [...list, added];
    if (next.length <= MAX_DIRECTIVES) return { ok: true, list: next, dropped: [], changed: added };
    const sorted = [...next].sort(capOrder);
    return { ok: true, list: sorted.slice(0, MAX_DIRECTIVES), dropped: sorted.slice(MAX_DIRECTIVES), changed: added };
  }
  const i = list.findIndex((d) => directiveKey(d) === op.target);
  if (i === -1)
    return {
      ok: false,
      reason: 'that directive is no longer in the file (OMC or another editor changed it); nothing was changed',
      gone: true,
    };
  if (op.kind === 'remove') {
    const now = list[i] as Directive;
    const moved = op.base ? FIELDS.find((f) => (now[f] ?? '') !== (op.base as DirectiveInput)[f]) : undefined;
    if (moved)
      return {
        ok: false,
        reason: `this directive's ${moved} was changed on disk since you asked (now "${cleanLine(String(now[moved] ?? ''))}"): nothing was removed`,
      };
    return { ok: true, list: list.filter((_, j) => j !== i), dropped: [], changed: null };
  }
  const merged = mergeEdit(list[i] as Directive, op.input, op.base);
  if ('conflict' in merged) {
    const now = list[i] as Directive;
    return {
      ok: false,
      reason: `this directive's ${merged.conflict} was changed on disk since you began (now "${cleanLine(String(now[merged.conflict] ?? ''))}"): nothing was written`,
      disk: { directive: now.directive, context: now.context ?? '', priority: now.priority },
    };
  }
  const input = merged.input;
  const text = input.directive.trim();
  const dup = list.find((d, j) => j !== i && sameText(d.directive, text));
  if (dup)
    return {
      ok: false,
      reason: `another directive already says that (OMC de-duplicates ignoring case): "${cleanLine(dup.directive)}"`,
    };
  const edited: Directive = {
    ...(list[i] as Directive),
    directive: text,
    context: input.context,
    priority: input.priority,
  };
  const next = [...list];
  next[i] = edited;
  return { ok: true, list: next, dropped: [], changed: edited, kept: merged.kept };
}
