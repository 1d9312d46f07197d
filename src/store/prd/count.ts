/**
 * Ralph PRD story progress, counted the way OMC's own PRD reader counts it.
 *
 * OMC 5.5.0 (dist/hooks/ralph/prd.js) validates every story and throws the
 * whole PRD away when one story is malformed; a story counts as done only
 * when its `passes` claim is bound to the *current* criteria revision (a
 * sha256 over the active criteria and the amendment ledger) and an architect
 * approved that same revision. Amending a criterion therefore silently
 * "un-passes" a story. OMC 4.4.4 counted `passes === true` and nothing else.
 * This file restates those rules; it does not import OMC.
 */
import { createHash } from 'node:crypto';
import { isObj } from '../../io/json.js';

export type PrdRules = '5.5' | '4.x';

export interface StoryView {
  id: string;
  title: string;
  priority: number;
  /** Counted as done by the rules in force. */
  done: boolean;
  /** `passes: true` on disk (the claim, before binding to the criteria revision). */
  claimed: boolean;
  /** The claim was made against criteria that have since been amended (5.5 rules). */
  claimStale: boolean;
  architectVerified: boolean;
  criteria: string[];
  amendments: Array<{ kind: string; original: string; replacement: string | null; reason: string }>;
}

export interface StoryProgress {
  passed: number;
  total: number;
  /** The next story OMC would hand to ralph: lowest priority number among the not-done ones. */
  current: string | null;
  stories: StoryView[];
}

export type PrdVerdict = { ok: true; progress: StoryProgress } | { ok: false; reason: string };

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

interface Amendment {
  kind: 'replaced' | 'superseded';
  original: string;
  replacement: string | undefined;
  reason: string;
  evidence: string;
  authority: string;
  timestamp: string;
}

/** One amendment, or null when OMC would reject it (every field mandatory; replacement only for "replaced"). */
function amendment(v: unknown): Amendment | null {
  if (!isObj(v)) return null;
  const { kind, original, replacement, reason, evidence, authority, timestamp } = v;
  if (kind !== 'replaced' && kind !== 'superseded') return null;
  if (![original, reason, evidence, authority, timestamp].every(nonEmpty)) return null;
  if (kind === 'replaced' && !nonEmpty(replacement)) return null;
  if (kind === 'superseded' && replacement !== undefined) return null;
  return {
    kind,
    original: original as string,
    replacement: kind === 'replaced' ? (replacement as string) : undefined,
    reason: reason as string,
    evidence: evidence as string,
    authority: authority as string,
    timestamp: timestamp as string,
  };
}

/** The ledger, `undefined` when absent or empty, `null` when OMC would call the story invalid. */
function amendments(v: unknown, active: readonly string[]): Amendment[] | undefined | null {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) return null;
  if (v.length === 0) return undefined;
  const out: Amendment[] = [];
  const seen = new Set<string>();
  const activeSet = new Set(active);
  for (const raw of v) {
    const a = amendment(raw);
    // An original amended twice, or amended and still active, makes the story invalid (fail closed).
    if (!a || seen.has(a.original) || activeSet.has(a.original)) return null;
    seen.add(a.original);
    out.push(a);
  }
  return out;
}

/**
 * The revision a completion claim must carry. The JSON text hashed must be
 * byte-identical to OMC's, so the object is built with OMC's key order and
 * `replacement: undefined` (dropped by JSON.stringify) for superseded entries.
 */
export function criteriaRevision(criteria: readonly string[], ledger: readonly Amendment[] | undefined): string {
  const body = JSON.stringify({ acceptanceCriteria: criteria, criterionAmendments: ledger ?? [] });
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

function story(v: unknown, rules: PrdRules): StoryView | string {
  if (!isObj(v)) return 'a story is not an object';
  const id = typeof v.id === 'string' ? v.id : null;
  const label = id ? `story ${JSON.stringify(id)}` : 'a story';
  if (rules === '4.x') {
    // 4.4.4 only needs the list; a story without `passes: true` is pending.
    const priority = typeof v.priority === 'number' ? v.priority : Number.NaN;
    // 4.4.4 filters on truthiness (`s.passes`), not on `=== true`.
    const claimed = Boolean(v.passes);
    return {
      id: id ?? '?',
      title: typeof v.title === 'string' ? v.title : '',
      priority,
      done: claimed,
      claimed,
      claimStale: false,
      architectVerified: v.architectVerified === true,
      criteria: Array.isArray(v.acceptanceCriteria) ? v.acceptanceCriteria.filter((c) => typeof c === 'string') : [],
      amendments: [],
    };
  }
  if (typeof v.id !== 'string') return `${label} has no string "id"`;
  if (typeof v.title !== 'string') return `${label} has no string "title"`;
  if (typeof v.description !== 'string') return `${label} has no string "description"`;
  const ac = v.acceptanceCriteria;
  if (!Array.isArray(ac) || !ac.every((c) => typeof c === 'string'))
    return `${label}: "acceptanceCriteria" is not a list of strings`;
  if (typeof v.priority !== 'number' || !Number.isFinite(v.priority)) return `${label}: "priority" is not a number`;
  if (typeof v.passes !== 'boolean') return `${label}: "passes" is not true/false`;
  const criteria = [...(ac as string[])];
  const ledger = amendments(v.criterionAmendments, criteria);
  if (ledger === null)
    return `${label}: "criterionAmendments" is invalid (a field missing, an original amended twice, or still active)`;
  const revision = criteriaRevision(criteria, ledger);
  const claimed = v.passes;
  const passes = claimed && v.completionCriteriaRevision === revision;
  const verified = passes && v.architectVerified === true && v.architectVerificationCriteriaRevision === revision;
  return {
    id: v.id,
    title: v.title,
    priority: v.priority,
    done: verified,
    claimed,
    claimStale: claimed && !passes,
    architectVerified: verified,
    criteria,
    amendments: (ledger ?? []).map((a) => ({
      kind: a.kind,
      original: a.original,
      replacement: a.replacement ?? null,
      reason: a.reason,
    })),
  };
}

/** Judges a parsed prd.json. An invalid PRD is a reason, never "0/0". */
export function countStories(doc: unknown, rules: PrdRules): PrdVerdict {
  if (!isObj(doc)) return { ok: false, reason: 'is not a JSON object' };
  if (!Array.isArray(doc.userStories)) return { ok: false, reason: 'has no "userStories" list' };
  if (rules === '5.5') {
    for (const key of ['project', 'branchName', 'description'] as const)
      if (typeof doc[key] !== 'string') return { ok: false, reason: `has no string "${key}"` };
  }
  const stories: StoryView[] = [];
  for (const raw of doc.userStories) {
    const s = story(raw, rules);
    if (typeof s === 'string') return { ok: false, reason: `${s}; OMC rejects the whole PRD` };
    stories.push(s);
  }
  // Stable sort by priority, as Array.prototype.sort is: equal priorities keep file order.
  const pending = stories.filter((s) => !s.done).sort((a, b) => a.priority - b.priority);
  return {
    ok: true,
    progress: {
      passed: stories.length - pending.length,
      total: stories.length,
      current: pending[0]?.id ?? null,
      stories,
    },
  };
}
