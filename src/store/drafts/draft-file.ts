/**
 * The bytes of one kept draft (store/drafts/kept-drafts.ts): what the user had typed into a text field when
 * omc-top was ended without being asked (a hang-up, SIGTERM, a crash), what they had chosen (which entry, which
 * directive, which session) and when. Parsed strictly: a file that does not hold exactly this is a problem, never
 * half applied.
 */
import { isObj, type Obj } from '../../io/json.js';

export const DRAFT_FILE_VERSION = 1;

/** How the process was ended when the draft was kept: the offer says it in words (`KEPT_WHY_WORDS`). */
export type KeptWhy = 'hangup' | 'sigterm' | 'sigint' | 'sigquit' | 'crash';

export const KEPT_WHY_WORDS: Record<KeptWhy, string> = {
  hangup: 'the terminal closed',
  sigterm: 'omc-top was stopped (SIGTERM)',
  sigint: 'omc-top was interrupted (SIGINT)',
  sigquit: 'omc-top was stopped (SIGQUIT)',
  crash: 'omc-top crashed',
};

/** A draft as the pane hands it over and gets it back. */
export interface KeptDraft {
  /** Which field: `notepad-working`, `memory-directive`, `note-<digest of the session id>`, … */
  target: string;
  /** When it was kept (ms since the epoch). */
  keptAt: number;
  why: KeptWhy;
  /** What the user had chosen, in the pane's own words (the entry edited, the directive, the session). */
  item: Obj;
  /** The text of each field, each at most its limit. */
  fields: Record<string, string>;
}

/** The longest text each field may hold: the field's own limit (a longer draft is cut to it). */
export type FieldLimits = Readonly<Record<string, number>>;

/** `text` cut to `max` UTF-16 units, never inside a surrogate pair. */
export function cutTo(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = max > 0 && /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}

/** The fields named in `limits`, each cut to its limit; whether any was cut. */
export function boundFields(
  fields: Record<string, string>,
  limits: FieldLimits,
): {
  fields: Record<string, string>;
  cut: boolean;
} {
  const out: Record<string, string> = {};
  let cut = false;
  for (const [name, max] of Object.entries(limits)) {
    const text = fields[name] ?? '';
    out[name] = cutTo(text, max);
    if (out[name] !== text) cut = true;
  }
  return { fields: out, cut };
}

export function serializeDraft(draft: KeptDraft, shownRoot: string): string {
  return `${JSON.stringify(
    {
      version: DRAFT_FILE_VERSION,
      root: shownRoot,
      target: draft.target,
      keptAt: draft.keptAt,
      why: draft.why,
      item: draft.item,
      fields: draft.fields,
    },
    null,
    2,
  )}\n`;
}

export type ParsedDraft = { ok: true; draft: KeptDraft } | { ok: false; problem: string };

/** The draft in `text` if it is one for `target` holding every field of `limits` (each cut to its limit). */
export function parseDraft(text: string, target: string, limits: FieldLimits): ParsedDraft {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `is not JSON (${(e as Error).message})` };
  }
  if (!isObj(v)) return { ok: false, problem: 'is not a JSON object' };
  if (v.version !== DRAFT_FILE_VERSION)
    return { ok: false, problem: `has version ${JSON.stringify(v.version) ?? 'none'}, not ${DRAFT_FILE_VERSION}` };
  if (v.target !== target)
    return { ok: false, problem: `is for ${JSON.stringify(v.target) ?? 'no field'}, not ${target}` };
  if (typeof v.keptAt !== 'number' || !Number.isFinite(v.keptAt) || v.keptAt < 0)
    return { ok: false, problem: '"keptAt" is not a time' };
  if (typeof v.why !== 'string' || !Object.hasOwn(KEPT_WHY_WORDS, v.why))
    return { ok: false, problem: `"why" is ${JSON.stringify(v.why) ?? 'missing'}, not one omc-top writes` };
  if (!isObj(v.item)) return { ok: false, problem: '"item" is not an object' };
  if (!isObj(v.fields)) return { ok: false, problem: '"fields" is not an object' };
  const fields: Record<string, string> = {};
  for (const name of Object.keys(limits)) {
    const f = v.fields[name];
    if (typeof f !== 'string') return { ok: false, problem: `field "${name}" is not text` };
    fields[name] = f;
  }
  return {
    ok: true,
    draft: {
      target,
      keptAt: v.keptAt,
      why: v.why as KeptWhy,
      item: v.item,
      fields: boundFields(fields, limits).fields,
    },
  };
}
