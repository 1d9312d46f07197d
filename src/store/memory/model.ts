/**
 * The project-memory snapshot the pane reads: the file as OMC will see it
 * (valid or ignored), every directive with its rank and fate, a compact
 * summary of the rest, and the exact SessionStart injection. Built from the
 * parsed JSON by `buildModel`; all display strings are sanitised here.
 */
import type { Problem } from '../types.js';
import { cleanLine } from '../../io/sanitize.js';
import { directiveKey, rankForSummary, survivorsOfCap } from './rules.js';
import {
  CustomNoteSchema,
  DirectiveSchema,
  FrameworkSchema,
  HotPathSchema,
  LanguageSchema,
  MAX_DIRECTIVES,
  ProjectMemorySchema,
  describeIssue,
  type CustomNote,
  type Directive,
  type HotPath,
} from './schema.js';
import {
  RESCAN_AFTER_MS,
  formatSummary,
  hasInjectableContent,
  primaryFramework,
  primaryLanguage,
  topHotPaths,
  topNotes,
  wrapForSessionStart,
  type InjectionState,
  type SummaryInput,
} from './summary.js';
import { arr, objOrEmpty, strOrNull } from '../../io/json.js';

export interface DirectiveRow {
  key: string;
  directive: Directive;
  /** 1-based place in SessionStart's ranking (high first, then newest). */
  rank: number;
  injection: InjectionState;
  /** False when the file holds more than 20 and OMC's next add would push this one out. */
  survivesCap: boolean;
  display: { text: string; context: string; source: string };
}

export interface MalformedDirective {
  index: number;
  problem: string;
  text: string;
}

export interface MemoryModel {
  /** OMC loads the file (version, projectRoot and lastScanned are set); otherwise it ignores and re-detects it. */
  omcLoads: boolean;
  projectRoot: string;
  lastScanned: number | null;
  /** More than 24 h since the last scan: the next SessionStart re-detects the stack and drops hot paths. */
  rescanDue: boolean;
  directives: DirectiveRow[];
  malformed: MalformedDirective[];
  overCap: boolean;
  summary: {
    stack: string;
    commands: string;
    notes: string[];
    hotPaths: string[];
    noteCount: number;
    hotPathCount: number;
  };
  /** Exactly what SessionStart would add to Claude's context ('' when it adds nothing). */
  injection: string;
  injectionNote: string | null;
  summaryLength: number;
  summaryCut: boolean;
  /** The part of the summary the 650-character limit cuts off ('' when nothing is cut). */
  cutText: string;
  schemaIssues: string[];
}

/** Keeps the entries of a list that have the shape OMC's code reads, so one bad entry does not blank the pane. */
function validEntries<T>(
  list: unknown,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
): T[] {
  const out: T[] = [];
  for (const v of arr(list)) {
    const r = schema.safeParse(v);
    if (r.success) out.push(r.data);
  }
  return out;
}

export function summaryInputOf(raw: Record<string, unknown>): SummaryInput {
  const tech = objOrEmpty(raw.techStack);
  const build = objOrEmpty(raw.build);
  return {
    languages: validEntries(tech.languages, LanguageSchema),
    frameworks: validEntries(tech.frameworks, FrameworkSchema),
    packageManager: strOrNull(tech.packageManager),
    runtime: strOrNull(tech.runtime),
    buildCommand: strOrNull(build.buildCommand),
    testCommand: strOrNull(build.testCommand),
    lintCommand: strOrNull(build.lintCommand),
    hotPaths: validEntries<HotPath>(raw.hotPaths, HotPathSchema),
    directives: validEntries<Directive>(raw.userDirectives, DirectiveSchema),
    notes: validEntries<CustomNote>(raw.customNotes, CustomNoteSchema),
  };
}

export function buildModel(
  raw: Record<string, unknown>,
  now: number,
): { model: MemoryModel; problems: Omit<Problem, 'path'>[] } {
  const problems: Omit<Problem, 'path'>[] = [];
  const omcLoads = Boolean(raw.version) && Boolean(raw.projectRoot) && Boolean(raw.lastScanned);
  if (!omcLoads) {
    const missing = ['version', 'projectRoot', 'lastScanned'].filter((k) => !raw[k]);
    problems.push({
      severity: 'error',
      message: `OMC ignores this file (${missing.join(', ')} missing or empty) and re-detects the project at the next session start, losing its directives`,
    });
  }
  const parsed = ProjectMemorySchema.safeParse(raw);
  const schemaIssues = parsed.success ? [] : parsed.error.issues.slice(0, 5).map(describeIssue);
  if (!parsed.success && omcLoads) {
    problems.push({
      severity: 'warning',
      message: `does not match OMC's schema: ${schemaIssues.slice(0, 2).join('; ')}${parsed.error.issues.length > 2 ? '; …' : ''}`,
    });
  }

  const input = summaryInputOf(raw);
  const lastScanned = typeof raw.lastScanned === 'number' ? raw.lastScanned : null;
  const rescanDue = omcLoads && lastScanned !== null && now - lastScanned > RESCAN_AFTER_MS;
  // session-start.mjs's rescan keeps notes and directives and drops hot paths (it re-detects the rest).
  const previewInput: SummaryInput = rescanDue ? { ...input, hotPaths: [] } : input;
  const result = formatSummary(previewInput, now);
  const trimmed = result.summary.trim();
  const injects = omcLoads && hasInjectableContent(previewInput) && trimmed !== '';
  const injection = injects ? wrapForSessionStart(trimmed) : '';
  let injectionNote: string | null = null;
  if (!omcLoads)
    injectionNote =
      'OMC ignores this file: the next session start re-detects the project and injects none of these directives.';
  else if (rescanDue)
    injectionNote =
      'Last scan is over 24 h old: the next session start re-detects the stack and build commands and drops hot paths; directives and notes are kept.';
  else if (!injects)
    injectionNote = 'Nothing to inject: the memory has no stack, commands, hot paths, notes or directives.';

  const malformed: MalformedDirective[] = [];
  arr(raw.userDirectives).forEach((v, index) => {
    const r = DirectiveSchema.safeParse(v);
    if (!r.success)
      malformed.push({
        index,
        problem: describeIssue(r.error.issues[0] ?? { path: [], message: 'invalid' }),
        text: cleanLine(objOrEmpty(v).directive ?? ''),
      });
  });
  if (raw.userDirectives !== undefined && !Array.isArray(raw.userDirectives)) {
    problems.push({ severity: 'error', message: 'userDirectives is not a list; OMC treats it as empty' });
  }
  for (const m of malformed)
    problems.push({ severity: 'warning', message: `directive [${m.index}] is malformed (${m.problem})` });

  const survivors = survivorsOfCap(input.directives);
  const ranked = rankForSummary(input.directives);
  const rankOf = new Map(ranked.map((d, i) => [directiveKey(d), i + 1]));
  const directives: DirectiveRow[] = ranked.map((d) => {
    const key = directiveKey(d);
    return {
      key,
      directive: d,
      rank: rankOf.get(key) ?? 0,
      injection: injects ? (result.directives.get(key) ?? 'not-top') : 'not-top',
      survivesCap: survivors.has(key),
      display: { text: cleanLine(d.directive), context: cleanLine(d.context), source: cleanLine(d.source) },
    };
  });

  const cmds: string[] = [];
  if (input.buildCommand) cmds.push(`build ${input.buildCommand}`);
  if (input.testCommand) cmds.push(`test ${input.testCommand}`);
  if (input.lintCommand) cmds.push(`lint ${input.lintCommand}`);
  const devCommand = strOrNull(objOrEmpty(raw.build).devCommand);
  if (devCommand) cmds.push(`dev ${devCommand}`);
  const stackParts = [
    primaryLanguage(input),
    primaryFramework(input),
    input.packageManager && `pkg ${input.packageManager}`,
    input.runtime,
  ].filter((x): x is string => Boolean(x));
  const otherFrameworks = input.frameworks.map((f) => f.name).filter((n) => n !== primaryFramework(input));
  return {
    model: {
      omcLoads,
      projectRoot: cleanLine(raw.projectRoot ?? ''),
      lastScanned,
      rescanDue,
      directives,
      malformed,
      overCap: input.directives.length > MAX_DIRECTIVES,
      summary: {
        stack: cleanLine([...stackParts, ...otherFrameworks].join(' · ')),
        commands: cleanLine(cmds.join(' · ')),
        notes: topNotes(input.notes, now).map((n) => cleanLine(`[${n.category}] ${n.content}`)),
        hotPaths: topHotPaths(input.hotPaths, now, 5).map((h) => cleanLine(`${h.path} (${h.accessCount}x)`)),
        noteCount: input.notes.length,
        hotPathCount: input.hotPaths.length,
      },
      injection,
      injectionNote,
      summaryLength: result.fullLength,
      summaryCut: result.cut,
      cutText: injects && result.cut ? result.full.slice(result.summary.length - 1) : '',
      schemaIssues,
    },
    problems,
  };
}
