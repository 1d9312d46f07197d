/**
 * What OMC injects from project memory at the next session start
 * (OMC 5.5.0: dist/hooks/project-memory/formatter.js; scripts/session-start.mjs), rebuilt so the
 * user can see it before it happens: the four tiers of the context summary
 * (environment, hot paths, directives, learnings), each tier's ranking, the
 * 650-character cut, and the SessionStart wrapper. It also tells which
 * directives make the cut.
 */
import type { CustomNote, Directive, HotPath } from './schema.js';
import { directiveKey, rankForSummary } from './rules.js';

export const SUMMARY_BUDGET = 650;
const TOP = 3;
const HOUR_MS = 60 * 60 * 1000;
export const RESCAN_AFTER_MS = 24 * HOUR_MS;

/** The parts of the memory the summary reads, already type-checked by the caller. */
export interface SummaryInput {
  languages: ReadonlyArray<{ name: string; confidence: string; markers: readonly unknown[] }>;
  frameworks: ReadonlyArray<{ name: string; category: string }>;
  packageManager: string | null;
  runtime: string | null;
  buildCommand: string | null;
  testCommand: string | null;
  lintCommand: string | null;
  hotPaths: readonly HotPath[];
  directives: readonly Directive[];
  notes: readonly CustomNote[];
}

/** Paths OMC never lists as hot (hot-path-tracker's ignore list, matched anywhere in the path). */
const IGNORED_PATH_PARTS = [
  'node_modules',
  '.git',
  '.omc',
  'dist',
  'build',
  '.cache',
  '.next',
  '.nuxt',
  'coverage',
  '.DS_Store',
];
const isIgnoredPath = (p: string) => IGNORED_PATH_PARTS.some((part) => p.includes(part));

/** Access count dominates; recent use (up to 120 h) and files over directories break ties. No scope at SessionStart. */
function hotPathScore(hp: HotPath, now: number): number {
  const hours = Math.floor(Math.max(0, now - hp.lastAccessed) / HOUR_MS);
  return hp.accessCount * 10 + Math.max(0, 120 - hours) + (hp.type === 'file' ? 6 : 3);
}

export function topHotPaths(list: readonly HotPath[], now: number, n = TOP): HotPath[] {
  return list
    .filter((hp) => !isIgnoredPath(hp.path))
    .sort((a, b) => hotPathScore(b, now) - hotPathScore(a, now))
    .slice(0, n);
}

const NOTE_WEIGHT: Record<string, number> = { env: 60, runtime: 50, dependency: 40, deploy: 30, test: 20 };

function noteScore(n: CustomNote, now: number): number {
  const hours = Math.floor(Math.max(0, now - n.timestamp) / HOUR_MS);
  return Math.max(0, 100 - hours) + (Object.hasOwn(NOTE_WEIGHT, n.category) ? (NOTE_WEIGHT[n.category] as number) : 10);
}

export function topNotes(list: readonly CustomNote[], now: number, n = TOP): CustomNote[] {
  return [...list].sort((a, b) => noteScore(b, now) - noteScore(a, now)).slice(0, n);
}

const FRAMEWORK_PREFERENCE = ['fullstack', 'frontend', 'backend', 'testing', 'build'];

/** The high-confidence language with the most markers, else the first one (null: no languages). */
export function primaryLanguage(m: SummaryInput): string | null {
  const high = m.languages.filter((l) => l.confidence === 'high').sort((a, b) => b.markers.length - a.markers.length);
  const lang = high[0] ?? m.languages[0];
  return lang ? lang.name : null;
}

/** The first framework by category preference, else the first one (null: no frameworks). */
export function primaryFramework(m: SummaryInput): string | null {
  for (const cat of FRAMEWORK_PREFERENCE) {
    const f = m.frameworks.find((x) => x.category === cat);
    if (f) return f.name;
  }
  const first = m.frameworks[0];
  return first ? first.name : null;
}

export function environmentLines(m: SummaryInput): string[] {
  const parts: string[] = [];
  // An empty name still counts as a part (OMC pushes whatever name the entry has).
  const lang = primaryLanguage(m);
  if (lang !== null) parts.push(lang);
  const fw = primaryFramework(m);
  if (fw !== null) parts.push(fw);
  if (m.packageManager) parts.push(`pkg:${m.packageManager}`);
  if (m.runtime) parts.push(m.runtime);
  // Without any stack facts OMC drops the whole tier, build commands included.
  if (parts.length === 0) return [];
  const lines = ['[Project Environment]', `- ${parts.join(' | ')}`];
  const cmds: string[] = [];
  if (m.buildCommand) cmds.push(`build=${m.buildCommand}`);
  if (m.testCommand) cmds.push(`test=${m.testCommand}`);
  if (m.lintCommand) cmds.push(`lint=${m.lintCommand}`);
  if (cmds.length > 0) lines.push(`- ${cmds.join(' | ')}`);
  return lines;
}

export const directiveLabel = (d: Pick<Directive, 'priority'>) => (d.priority === 'high' ? 'critical' : 'note');

export type InjectionState = 'injected' | 'cut-short' | 'over-budget' | 'not-top';

export interface SummaryResult {
  /** Exactly what formatContextSummary returns. */
  summary: string;
  /** The summary before the 650-character cut. */
  full: string;
  fullLength: number;
  cut: boolean;
  /** Per directive key: whether its line made it into the summary. */
  directives: Map<string, InjectionState>;
}

/** OMC's formatContextSummary with SessionStart's context (no working directory), at time `now`. */
export function formatSummary(m: SummaryInput, now: number): SummaryResult {
  const lines: string[] = [];
  const directiveLines = new Map<number, string>();
  const addTier = (tier: string[], onLine?: (i: number) => void) => {
    if (tier.length === 0) return;
    if (lines.length > 0) lines.push('');
    tier.forEach((l, i) => {
      if (onLine && i > 0) onLine(lines.length);
      lines.push(l);
    });
  };
  addTier(environmentLines(m));
  const hot = topHotPaths(m.hotPaths, now);
  addTier(hot.length ? ['[Hot Paths]', ...hot.map((h) => `- ${h.path} (${h.accessCount}x)`)] : []);
  const top = rankForSummary(m.directives).slice(0, TOP);
  let k = 0;
  addTier(top.length ? ['[Directives]', ...top.map((d) => `- ${directiveLabel(d)}: ${d.directive}`)] : [], (lineNo) => {
    directiveLines.set(lineNo, directiveKey(top[k++] as Directive));
  });
  const notes = topNotes(m.notes, now);
  addTier(notes.length ? ['[Recent Learnings]', ...notes.map((n) => `- [${n.category}] ${n.content}`)] : []);

  const full = lines.join('\n');
  const cut = full.length > SUMMARY_BUDGET;
  const summary = cut ? `${full.slice(0, SUMMARY_BUDGET - 1).trimEnd()}…` : full;
  const kept = cut ? summary.length - 1 : summary.length;

  const states = new Map<string, InjectionState>();
  for (const d of m.directives) states.set(directiveKey(d), 'not-top');
  let offset = 0;
  lines.forEach((l, i) => {
    const key = directiveLines.get(i);
    if (key !== undefined) {
      const end = offset + l.length;
      states.set(key, end <= kept ? 'injected' : offset < kept ? 'cut-short' : 'over-budget');
    }
    offset += l.length + 1;
  });
  return { summary, full, fullLength: full.length, cut, directives: states };
}

/** session-start.mjs only injects when the memory has something worth saying. */
export function hasInjectableContent(m: SummaryInput): boolean {
  return (
    m.directives.length > 0 ||
    m.notes.length > 0 ||
    m.hotPaths.length > 0 ||
    m.languages.length > 0 ||
    m.frameworks.length > 0 ||
    Boolean(m.buildCommand) ||
    Boolean(m.testCommand)
  );
}

/** The block SessionStart adds to Claude's context (inside its overall 6 000-character budget). */
export function wrapForSessionStart(summary: string): string {
  return `<project-memory-context>\n\n[PROJECT MEMORY]\n\n${summary}\n\n</project-memory-context>\n\n---\n`;
}
