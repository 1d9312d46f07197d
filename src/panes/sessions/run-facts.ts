/**
 * What the run-history domains add to a session: ralph's story progress
 * (prd.json, counted as OMC's own PRD reader counts), what OMC 5.6 will say
 * about it at the next session start (stale-run watchdog, missing closeout),
 * and the 5.6 files that belong to it, explained. Kept apart from rows.ts and
 * detail.ts so the sessions pane's own columns stay as they are: each piece
 * here is one function the row and the detail view append.
 */
import type { PrdLookup } from '../../store/prd/domain.js';
import type { StoryView } from '../../store/prd/count.js';
import { explainOmc56Path } from '../../store/omc56/known-files.js';
import type { NextSessionFact } from '../../store/omc56/next-session.js';
import type { SessionView } from '../../store/sessions/model.js';
import type { OmcStore } from '../../store/store.js';
import { clip, fit, width as textWidth, wrapText } from '../../ui/format.js';
import { modesText } from './rows.js';
import { modeSummary } from '../../store/sessions/summary.js';
import type { DetailLine } from './detail.js';
import type { DetailExtra } from './layout.js';
import { loopExtras, loopFactDetail } from './loop-facts.js';
import { groupDigits } from '../../io/group-digits.js';

const sessionKey = (s: SessionView) => (s.kind === 'legacy' ? null : s.id);
const hasRalph = (s: SessionView) => s.modes.some((m) => m.mode === 'ralph');

/** The PRD ralph would read for this session, when the session runs ralph. */
export function sessionPrd(store: OmcStore, s: SessionView): PrdLookup | null {
  return hasRalph(s) ? store.prd.lookup(sessionKey(s)) : null;
}

/** "stories 3/7 · US-004"; an invalid PRD says so (never "0/0"); null without a PRD. */
export function storyCell(prd: PrdLookup | null): string | null {
  if (!prd) return null;
  if (!prd.verdict.ok) return 'stories: PRD invalid ⚠';
  const p = prd.verdict.progress;
  return `stories ${p.passed}/${p.total}${p.current ? ` · ${p.current}` : ''}`;
}

/** The facts OMC 5.6 will print about this session at the next SessionStart. */
export function sessionFacts(store: OmcStore, s: SessionView): readonly NextSessionFact[] {
  const all = store.runs.nextSession();
  // Every visible row asks on every frame: index the list once per list, not once per row.
  let bySession = factIndex.get(all);
  if (!bySession) {
    bySession = new Map();
    for (const f of all) bySession.set(f.sessionId, [...(bySession.get(f.sessionId) ?? []), f]);
    factIndex.set(all, bySession);
  }
  return bySession.get(sessionKey(s)) ?? [];
}
const factIndex = new WeakMap<readonly NextSessionFact[], Map<string | null, NextSessionFact[]>>();

/** The row badges for those facts: short, in brackets, one per kind. */
export function factBadges(facts: readonly NextSessionFact[]): string | null {
  const kinds = new Set(facts.map((f) => f.kind));
  const out = [kinds.has('stale-run') ? '[stale run]' : '', kinds.has('no-closeout') ? '[no closeout]' : ''];
  const text = out.filter(Boolean).join(' ');
  return text === '' ? null : text;
}

/**
 * The row's modes cell (`w` cells) with the badges and the story cell appended (badges first: they say
 * what OMC will do). When they do not fit beside the whole modes text, the modes text gives way (cut with
 * "…") as long as the first mode's name and progress stay readable; else the extra is left out.
 */
export function withRunFacts(
  s: SessionView,
  cell: string,
  w: number,
  extras: readonly string[],
  /** Text that leads the cell (what Claude waits on: rows.ts waitsText). */
  lead = '',
): string {
  const first = s.modes[0] ? modeSummary(s.modes[0], false) : '';
  const keep = Math.max(12, textWidth(first) + 1) + (lead ? textWidth(lead) + 3 : 0);
  const tries = extras.length > 1 ? [extras, ...extras.map((x) => [x])] : [extras];
  for (const xs of tries) {
    const tail = ` · ${xs.join(' · ')}`;
    const room = w - 1 - textWidth(tail);
    if (room < keep) continue;
    const base = lead ? `${lead} · ${modesText(s, room - textWidth(lead) - 3)}` : modesText(s, room);
    return fit((textWidth(base) <= room ? base : clip(base, room)) + tail, w);
  }
  return cell;
}

function storyStatus(st: StoryView): string {
  if (st.done) return 'passed';
  if (st.claimed && st.claimStale) return 'passed before its criteria were amended: not counted';
  if (st.claimed && !st.architectVerified) return 'claimed, not architect-verified: not counted';
  return 'open';
}

/** The story list for the session detail: status, priority, the criteria and their amendments. */
export function storyLines(prd: PrdLookup | null): DetailLine[] {
  if (!prd) return [];
  const out: DetailLine[] = [{ text: '' }];
  if (!prd.verdict.ok) {
    out.push({ text: `▌stories (${prd.path}): invalid PRD`, tone: 'title' });
    out.push({ text: `  ⚠ ${prd.verdict.reason}`, tone: 'error' });
    out.push({ text: "  OMC's PRD reader ignores this file, so ralph's story progress is unknown", tone: 'dim' });
    return out;
  }
  const p = prd.verdict.progress;
  out.push({
    text: `▌stories (${prd.path}): ${p.passed}/${p.total} passed${p.current ? ` · next ${p.current}` : ''}`,
    tone: 'title',
  });
  for (const st of [...p.stories].sort((a, b) => a.priority - b.priority)) {
    out.push({
      text: `  ${st.done ? '✓' : '·'} ${st.id} [p${st.priority}] ${st.title} — ${storyStatus(st)}`,
      tone: st.done ? 'ok' : st.claimed ? 'warn' : undefined,
    });
    for (const c of st.criteria) out.push({ text: `      - ${c}`, tone: 'dim' });
    for (const a of st.amendments)
      out.push({
        text: `      amended (${a.kind}): ${a.original}${a.replacement !== null ? ` → ${a.replacement}` : ''}${a.reason ? ` (${a.reason})` : ''}`,
        tone: 'warn',
      });
  }
  return out;
}

/** What OMC 5.6 will say next session, with the file and the fix. */
export function nextSessionLines(store: OmcStore, s: SessionView): DetailLine[] {
  const out: DetailLine[] = [];
  for (const f of sessionFacts(store, s)) {
    out.push({ text: '' });
    out.push({
      text: `▌next session (OMC 5.6): ${f.kind === 'stale-run' ? 'stale run' : 'no closeout'}`,
      tone: 'title',
    });
    out.push({ text: `  ${f.message}`, tone: 'warn' });
    out.push({ text: `  file: ${f.path}`, tone: 'dim' });
    out.push({ text: `  fix: ${f.action}` });
  }
  return out;
}

/** The 5.6 files of this session, explained; the budget guard's log with spend against budget. */
export function fileLines(store: OmcStore, s: SessionView): DetailLine[] {
  const out: DetailLine[] = [];
  const files = store.runs.omc56Files(
    sessionKey(s),
    s.modes.map((m) => m.mode),
  );
  if (files.length > 0) {
    out.push({ text: '' });
    out.push({ text: '▌OMC 5.6 files', tone: 'title' });
    for (const rel of files) {
      const k = explainOmc56Path(rel);
      if (!k) continue;
      out.push({ text: `  ${rel}`, tone: 'label' });
      out.push({ text: `    ${k.what}`, tone: 'dim' });
      out.push({ text: `    omc-top: ${k.omcTop}`, tone: 'dim' });
      if (rel.startsWith('state/enforcement'))
        for (const m of s.modes) {
          const b = store.runs.budgetFor(m.mode);
          if (b)
            out.push({
              text: `    ${m.mode}: ~${groupDigits(b.spend)}/${groupDigits(b.budget)} tokens (${b.pct}%)${b.outcome ? `, ${b.outcome}` : ''}`,
              tone: b.pct >= 100 ? 'warn' : undefined,
            });
        }
    }
  }
  return out;
}

/** Everything above for the session detail, wrapped to the pane like the rest of it: stories and what OMC
 * will say next session before the modes (they are what a user opens the detail for), the files at the end. */
export function runFactDetail(store: OmcStore, s: SessionView, width: number): DetailExtra {
  const w = Math.max(20, width);
  const wrap = (lines: readonly DetailLine[]) =>
    lines.flatMap((l) => (l.text === '' ? [''] : wrapText(l.text, w)).map((text) => ({ text, tone: l.tone })));
  return {
    top: wrap([...loopFactDetail(store, s), ...storyLines(sessionPrd(store, s)), ...nextSessionLines(store, s)]),
    bottom: wrap(fileLines(store, s)),
  };
}

/** The row extras in the order they are appended: badges, then stories. */
export function rowExtras(store: OmcStore, s: SessionView): string[] {
  return [factBadges(sessionFacts(store, s)), storyCell(sessionPrd(store, s)), ...loopExtras(store, s)].filter(
    (x): x is string => x !== null,
  );
}
