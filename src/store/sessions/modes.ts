import { type Obj } from '../../io/json.js';
/**
 * The one place that declares each OMC mode omc-top knows: its state file, the
 * fields that carry its progress, phase and prompt, the modes it links to, how
 * a cancel ends it, and which OMC versions' Stop hooks read it. Rules
 * (omc-rules.ts, verdict/), rows, detail and the cancel plan read this table;
 * adding a mode is one entry here.
 *
 * Sources: omc-contract.md §2.2/§2.5 (4.15.10), omc-contract-5.5.md §2.2/§2.5,
 * and the three wired Stop hooks (5.5.0 and 4.15.10 scripts/persistent-mode.mjs, 4.4.4
 * scripts/persistent-mode.cjs).
 */

export interface ModeSpec {
  mode: string;
  /** Under a session directory, `state/` or the .omc root. */
  file: string;
  /** Fields holding "n of m", first present wins. */
  iteration: readonly string[];
  max: readonly string[];
  /** The max OMC assumes when the file has none (only used when an iteration is present or assumed). */
  defaultMax: number | null;
  /**
   * The iteration OMC's Stop hook reads when the file has none (ralph `iteration || 1` in 4.4.4 and 5.5.0; 4.4.4's
   * keyword detector writes ralph without one until its first Stop), or null: unknown.
   */
  defaultIteration: number | null;
  /** Fields holding the phase, first non-empty string wins. */
  phase: readonly string[];
  /** Fields holding the task / prompt text, first non-empty string wins. */
  prompt: readonly string[];
  /** The phase is the point of the row (shown even at 80 columns next to progress). */
  phaseInRow: boolean;
  /** Fields that link this mode's file to another mode (value true or "true"). */
  links: ReadonlyArray<{ field: string; mode: string }>;
  /** How a cancel ends it: remove the file, or set active:false and keep it (OMC's autopilot cancel). */
  cancel: 'remove' | 'deactivate';
  /** The OMC version whose Stop hook stopped reading it, or null. */
  retiredIn: string | null;
  /** Whether each supported version's wired Stop hook reads this file at all. */
  readBy: { '5.5.0': boolean; '4.15.10': boolean; '4.4.4': boolean };
}

const PROMPTS = [
  'prompt',
  'original_prompt',
  'task_description',
  'originalIdea',
  'task',
  'current_objective',
  'initial_idea',
  'goal_pattern',
] as const;

function spec(mode: string, over: Partial<ModeSpec>): ModeSpec {
  return {
    mode,
    file: `${mode}-state.json`,
    iteration: ['iteration'],
    max: ['max_iterations'],
    defaultMax: null,
    defaultIteration: null,
    phase: ['current_phase', 'phase'],
    prompt: PROMPTS,
    phaseInRow: false,
    links: [],
    cancel: 'remove',
    retiredIn: null,
    readBy: { '5.5.0': false, '4.15.10': false, '4.4.4': false },
    ...over,
  };
}

/** In the Stop hook's priority order (5.5.0), then the modes no hook enforces. */
export const MODE_TABLE: readonly ModeSpec[] = [
  spec('ralph', {
    defaultMax: 100,
    defaultIteration: 1,
    links: [
      { field: 'linked_ultrawork', mode: 'ultrawork' },
      { field: 'linked_team', mode: 'team' },
    ],
    readBy: { '5.5.0': true, '4.15.10': true, '4.4.4': true },
  }),
  spec('ultragoal', {
    iteration: ['reinforcement_count'],
    max: ['max_reinforcements'],
    defaultMax: 50,
    readBy: { '5.5.0': true, '4.15.10': true, '4.4.4': false },
  }),
  spec('autopilot', {
    phase: ['phase', 'current_phase'],
    phaseInRow: true,
    cancel: 'deactivate',
    readBy: { '5.5.0': true, '4.15.10': true, '4.4.4': true },
  }),
  spec('ultrapilot', { readBy: { '5.5.0': true, '4.15.10': true, '4.4.4': true } }),
  spec('pipeline', { readBy: { '5.5.0': true, '4.15.10': true, '4.4.4': true } }),
  spec('team', {
    phase: ['current_phase', 'phase', 'stage'],
    phaseInRow: true,
    links: [{ field: 'linked_ralph', mode: 'ralph' }],
    readBy: { '5.5.0': true, '4.15.10': true, '4.4.4': false },
  }),
  spec('omc-teams', {
    phase: ['current_phase', 'phase', 'stage'],
    phaseInRow: true,
    readBy: { '5.5.0': true, '4.15.10': true, '4.4.4': false },
  }),
  spec('ultraqa', {
    iteration: ['cycle'],
    max: ['max_cycles'],
    defaultMax: 10,
    retiredIn: '5.5.0',
    readBy: { '5.5.0': false, '4.15.10': true, '4.4.4': true },
  }),
  spec('ultrawork', {
    iteration: ['reinforcement_count'],
    max: ['max_reinforcements'],
    defaultMax: 50,
    links: [{ field: 'linked_to_ralph', mode: 'ralph' }],
    retiredIn: '5.5.0',
    readBy: { '5.5.0': false, '4.15.10': true, '4.4.4': true },
  }),
  spec('autoresearch', {}),
  spec('ralplan', {}),
  spec('deep-interview', {}),
  spec('merge-readiness', { iteration: [], max: [], phase: ['phase', 'current_phase'] }),
  spec('self-improve', { phase: ['status', 'current_phase'] }),
];

const BY_MODE = new Map(MODE_TABLE.map((m) => [m.mode, m]));

/** The table entry, or a generic one for an unknown `<name>-state.json` that looks like a mode. */
export function modeSpec(mode: string): ModeSpec {
  return BY_MODE.get(mode) ?? spec(mode, {});
}

export const isKnownMode = (mode: string): boolean => BY_MODE.has(mode);

/** The modes of the table, in its order (a message naming what could have been meant). */
export const knownModes = (): string[] => MODE_TABLE.map((m) => m.mode);

/** First non-empty string among `fields`. */
export function firstString(s: Obj, fields: readonly string[]): string | null {
  for (let i = 0; i < fields.length; i++) {
    const v = s[fields[i]!];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return null;
}

/** The mode's prompt / objective text, raw (callers sanitise). */
export function promptOf(mode: string, s: Obj): string | null {
  return firstString(s, modeSpec(mode).prompt);
}
