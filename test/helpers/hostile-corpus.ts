/**
 * The hand-made bad-input corpus: every file omc-top reads × every way a file
 * goes bad. Each case says which file it damages, how, what the user must see
 * (a specific problem line naming the file and the reason, or — when OMC's
 * own rules do not call it an error — the value shown or coerced), which
 * sessions it may touch (every other healthy session must stay as it was),
 * which views to walk through, and which strings must never reach the screen.
 *
 * Cases are generated from tables (file kinds × defect kinds) so that adding
 * a file kind or a defect adds a row, not a test.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { shownPath } from '../../src/io/shown-path.js';
import type { OmcStore } from '../../src/store/store.js';
import { SESSION } from './fixtures.js';
import { ALL_ESCAPES, ESCAPES, ESCAPE_NAMES, type EscapeName } from './hostile-bytes.js';
import { NOW, OUTSIDE_SECRET, TEAM, type Sandbox } from './hostile-sandbox.js';
import { realName } from './fault-fs.js';

export type Visit =
  | { pane: 'sessions'; id: string }
  | { pane: 'teams'; team: string }
  | { pane: 'notepad' }
  | { pane: 'memory' }
  | { pane: 'wiki'; file?: string };

export interface HostileCase {
  /** Unique and readable: "<file kind> · <defect>". */
  name: string;
  group: 'sessions' | 'teams' | 'knowledge';
  /** The file (or directory) the case damages, relative to the root. */
  rel: string;
  apply(s: Sandbox): void;
  /** Installed while the store reads (deterministic stubs: a file vanishing, permission denied); returns the undo. */
  intercept?(s: Sandbox): () => void;
  /** A specific problem line: this path, a message matching this. */
  problem?: { path: string; message: RegExp };
  /** Text the visits must show (not an error by OMC's rules: the value is shown, or coerced). */
  shown?: Array<string | RegExp>;
  /** Never on screen, never in --json (escape payloads, text from outside the root). */
  hidden?: string[];
  /** Session ids whose row may change or go ('legacy' for session-less state, '*' for all). */
  touches: string[];
  visit: Visit[];
  /** A file that was good before the damage: its last good value must still be shown. */
  keeps?: { what: string; check(store: OmcStore): boolean };
}

// ---------------------------------------------------------------------------
// Writing helpers

const iso = (ms: number) => new Date(ms).toISOString();

export function put(root: string, rel: string, data: string | Buffer): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.rmSync(abs, { recursive: true, force: true });
  fs.writeFileSync(abs, data);
}

function replaceWithDir(root: string, rel: string): void {
  const abs = path.join(root, rel);
  fs.rmSync(abs, { recursive: true, force: true });
  fs.mkdirSync(abs, { recursive: true });
  fs.writeFileSync(path.join(abs, 'inner.json'), '{}');
}

function replaceWithSymlink(root: string, rel: string, target: string): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.rmSync(abs, { recursive: true, force: true });
  fs.symlinkSync(target, abs);
}

/** 50 MB: real bytes, not a sparse file, shaped like the file kind (a huge string field, a huge page). */
export const HUGE_BYTES = 50 * 1024 * 1024;
function hugeJson(field: string): Buffer {
  const head = Buffer.from(`{"active":true,"${field}":"`);
  const tail = Buffer.from('"}');
  const buf = Buffer.alloc(HUGE_BYTES, 'A');
  head.copy(buf, 0);
  tail.copy(buf, buf.length - tail.length);
  return buf;
}
function hugeText(prefix: string): Buffer {
  const buf = Buffer.alloc(HUGE_BYTES, 'lorem ipsum dolor sit amet\n');
  Buffer.from(prefix).copy(buf, 0);
  return buf;
}

/** 100,000 levels of nesting. */
export const DEEP_ARRAY = '['.repeat(100_000) + ']'.repeat(100_000);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** Valid JSON text whose string value carries bytes that are not UTF-8 (a lone 0xff 0xfe and a cut 3-byte sequence). */
function invalidUtf8Json(obj: Record<string, unknown>, field: string): Buffer {
  const marker = 'UTF8-MARKER';
  const text = JSON.stringify({ ...obj, [field]: `bad ${marker} bytes` }, null, 2);
  const [a, b] = text.split(marker) as [string, string];
  return Buffer.concat([
    Buffer.from(a),
    Buffer.from([0xff, 0xfe, 0xe2, 0x82]),
    Buffer.from(' bytes-follow'),
    Buffer.from(b),
  ]);
}

const BINARY = Buffer.from([
  0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0xff, 0xd8, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0x00, 0x9b,
]);

// ---------------------------------------------------------------------------
// Defects that apply to any JSON file

type Domain = 'sessions' | 'teams' | 'memory';

interface JsonKind {
  /** e.g. "mode ralph (fresh session)". */
  label: string;
  group: HostileCase['group'];
  domain: Domain;
  rel: string;
  /** The good object of this kind (written for fresh files, damaged for existing ones). */
  good(s: Sandbox): Record<string, unknown>;
  /** The base fixture has this file: damage means "last good value kept". */
  existing: boolean;
  /** A string field a view displays: where escape sequences and CRLF go. */
  textField: string;
  /** The views display textField (so invalid UTF-8 put there must be visible as text). */
  textShown: boolean;
  /** Text the views show for the good object (proves the value is shown). */
  shows: Array<string | RegExp>;
  /** This domain's own words for a symlinked file or a directory in its place, when they differ from fsx's. */
  symlinkMessage?: RegExp;
  dirMessage?: RegExp;
  touches: string[];
  visit: Visit[];
  keeps?: HostileCase['keeps'];
  /** Size limit omc-top reads this kind up to, as printed ("4.0 MB"). */
  limit: string;
  /** How this domain words "the top-level value is not an object". */
  notObject(kind: 'null' | 'an array' | 'number' | 'string'): RegExp;
}

const TRUNCATED = /truncated JSON \(\d+ bytes; /;
const INVALID = /^invalid JSON \(/;
const EMPTY = /file is empty \(probably caught mid-write\)/;
const NUL = /contains NUL bytes \(binary data, not text\); not read/;
const UTF8 = /contains bytes that are not valid UTF-8 \(shown as �/;
const BOM = /starts with a byte-order mark: OMC's JSON\.parse rejects it/;
const OUTSIDE = /symlink points outside the \.omc root \(to .*\); not read/;
const LOOP = /symlink loop/;
const DIR = /is a directory where a (state )?file was expected/;
const FIFO = /is not a regular file/;

function jsonCases(k: JsonKind): HostileCase[] {
  const out: HostileCase[] = [];
  // The last good value stays while the file is unreadable; not when the file is gone (a directory took
  // its place: OMC sees no file either) or when the new value is usable (invalid UTF-8 is shown as �).
  const keepsLast = (defect: string) =>
    k.existing && defect !== 'directory where the file should be' && defect !== 'invalid UTF-8 inside a string';
  const add = (defect: string, c: Partial<HostileCase> & Pick<HostileCase, 'apply'>) =>
    out.push({
      name: `${k.label} · ${defect}`,
      group: k.group,
      rel: k.rel,
      touches: k.touches,
      visit: k.visit,
      ...(keepsLast(defect) && c.problem ? { keeps: k.keeps } : {}),
      ...c,
    });
  const goodText = (s: Sandbox) => JSON.stringify(k.good(s), null, 2);
  const problem = (message: RegExp) => ({ path: k.rel, message });

  add('truncated JSON', {
    apply: (s) => put(s.root, k.rel, goodText(s).slice(0, Math.floor(goodText(s).length / 2))),
    problem: problem(TRUNCATED),
  });
  add('truncated after one byte', { apply: (s) => put(s.root, k.rel, '{'), problem: problem(TRUNCATED) });
  add('invalid JSON (trailing comma, bare word)', {
    apply: (s) => put(s.root, k.rel, '{"active": tru, "x": [1,2,],}'),
    problem: problem(INVALID),
  });
  add('invalid JSON with raw escape sequences outside strings', {
    apply: (s) => put(s.root, k.rel, `{"active": \u001b]0;${ESCAPES.title.payload}\u0007 \u009b2J }`),
    problem: problem(INVALID),
    hidden: [ESCAPES.title.payload],
  });
  add('JavaScript instead of JSON', {
    apply: (s) => put(s.root, k.rel, 'module.exports = { active: true } // not JSON\n'),
    problem: problem(INVALID),
  });
  add('empty file', { apply: (s) => put(s.root, k.rel, ''), problem: problem(EMPTY) });
  add('whitespace only (CRLF)', { apply: (s) => put(s.root, k.rel, '\r\n\r\n  \t'), problem: problem(EMPTY) });
  add('top-level null', { apply: (s) => put(s.root, k.rel, 'null'), problem: problem(k.notObject('null')) });
  add('top-level array', {
    apply: (s) => put(s.root, k.rel, '[1, "two", null]'),
    problem: problem(k.notObject('an array')),
  });
  add('top-level number', { apply: (s) => put(s.root, k.rel, '42'), problem: problem(k.notObject('number')) });
  add('top-level string with escapes', {
    apply: (s) => put(s.root, k.rel, JSON.stringify(ESCAPES.title.text)),
    problem: problem(k.notObject('string')),
    hidden: [ESCAPES.title.payload],
  });
  add('100,000 levels of nested arrays', {
    apply: (s) => put(s.root, k.rel, DEEP_ARRAY),
    problem: problem(k.notObject('an array')),
  });
  add('5,000 levels of nested objects in a field', {
    apply: (s) => put(s.root, k.rel, goodText(s).replace(/^\{/, `{"deep": ${deepObject(5_000)},`)),
    shown: k.shows,
  });
  add('50 MB file', {
    apply: (s) => put(s.root, k.rel, hugeJson(k.textField)),
    problem: problem(new RegExp(`file is 50\\.0 MB, over the ${k.limit.replace('.', '\\.')} limit; not read`)),
  });
  add('binary garbage with NUL bytes', { apply: (s) => put(s.root, k.rel, BINARY), problem: problem(NUL) });
  add('raw NUL byte inside a string', {
    apply: (s) => put(s.root, k.rel, goodText(s).replace(/"([^"]*)"\s*:/, '"$1\u0000":')),
    problem: problem(NUL),
  });
  add('invalid UTF-8 inside a string', {
    apply: (s) => put(s.root, k.rel, invalidUtf8Json(k.good(s), k.textField)),
    problem: problem(UTF8),
    shown: k.textShown ? ['bytes-follow'] : k.shows,
  });
  add('byte-order mark', { apply: (s) => put(s.root, k.rel, '\ufeff' + goodText(s)), problem: problem(BOM) });
  add('CRLF line endings', { apply: (s) => put(s.root, k.rel, goodText(s).replace(/\n/g, '\r\n')), shown: k.shows });
  add('escaped \\u0000 and every escape sequence in a displayed field', {
    apply: (s) =>
      put(s.root, k.rel, JSON.stringify({ ...k.good(s), [k.textField]: `nul\u0000byte ${ALL_ESCAPES}` }, null, 2)),
    shown: [],
    hidden: ESCAPE_NAMES.filter((n) => n !== 'bell' && n !== 'cr').map((n) => ESCAPES[n].payload),
  });
  add('symlink to a file outside the root', {
    apply: (s) => replaceWithSymlink(s.root, k.rel, path.join(s.outside, 'secret-state.json')),
    problem: problem(k.symlinkMessage ?? OUTSIDE),
    hidden: [OUTSIDE_SECRET],
  });
  add('symlink to /etc/passwd', {
    apply: (s) => replaceWithSymlink(s.root, k.rel, '/etc/passwd'),
    problem: problem(k.symlinkMessage ?? /symlink points outside the \.omc root \(to \/etc\/passwd\); not read/),
    hidden: ['root:x:0:0'],
  });
  add('symlink loop', {
    apply: (s) => replaceWithSymlink(s.root, k.rel, path.basename(k.rel)),
    problem: problem(k.symlinkMessage ?? LOOP),
  });
  add('directory where the file should be', {
    apply: (s) => replaceWithDir(s.root, k.rel),
    problem: problem(k.dirMessage ?? DIR),
  });
  if (k.domain === 'sessions') {
    // A named pipe: opening it must not block the monitor.
    add('named pipe (FIFO) where the file should be', { apply: (s) => mkfifo(s.root, k.rel), problem: problem(FIFO) });
    // Round two (issue 12): a chain longer than the kernel follows is named as such, not "a loop".
    add('a chain of 46 symlinks', {
      apply: (s) => symlinkChain(s.root, k.rel, 46),
      problem: problem(/a chain of 46 symlinks, more than the 40 the kernel follows; not read/),
    });
    // Round two: text whose width terminals dispute, in a displayed field (it used to wrap its row).
    add('text whose width terminals dispute in a displayed field', {
      apply: (s) =>
        put(s.root, k.rel, JSON.stringify({ ...k.good(s), [k.textField]: `wide ${DISPUTED_WIDTHS} end` }, null, 2)),
      shown: [],
    });
  }
  return out;
}

/** Strings whose width string-width and terminals (or two terminals) count differently. */
export const DISPUTED_WIDTHS = [
  '\u3164'.repeat(8) + '\u115f'.repeat(8),
  '\ud800\udc00\udfff'.repeat(4),
  '\u200b\u200d\u2060\ufeff'.repeat(8),
  'e' + '\u0301\u0308\u0327'.repeat(20),
  '👨‍👩‍👧‍👦🏳️‍🌈🇺🇦👍🏽☺️',
].join(' ');

/** `rel` as the last of `n` symlinks, each pointing at the one before, the first at a real file. */
function symlinkChain(root: string, rel: string, n: number): void {
  const abs = path.join(root, rel);
  const dir = path.dirname(abs);
  fs.mkdirSync(dir, { recursive: true });
  fs.rmSync(abs, { recursive: true, force: true });
  fs.writeFileSync(path.join(dir, 'chain-end.json'), '{}');
  for (let i = 0; i < n - 1; i++)
    fs.symlinkSync(i === 0 ? 'chain-end.json' : `chain-${i - 1}.json`, path.join(dir, `chain-${i}.json`));
  fs.symlinkSync(`chain-${n - 2}.json`, abs);
}

function mkfifo(root: string, rel: string): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.rmSync(abs, { recursive: true, force: true });
  // node has no mkfifo; coreutils does.
  execFileSync('mkfifo', [abs]);
}

/** The escape-sequence cases: one per sequence, in the field a view displays. */
function escapeCases(k: JsonKind, names: readonly EscapeName[] = ESCAPE_NAMES): HostileCase[] {
  return names.map((n) => ({
    name: `${k.label} · escape sequence (${n}) in ${k.textField}`,
    group: k.group,
    rel: k.rel,
    touches: k.touches,
    visit: k.visit,
    apply: (s: Sandbox) =>
      put(s.root, k.rel, JSON.stringify({ ...k.good(s), [k.textField]: ESCAPES[n].text }, null, 2)),
    shown: [ESCAPES[n].visible],
    hidden: n === 'bell' || n === 'cr' ? [] : [ESCAPES[n].payload],
  }));
}

// ---------------------------------------------------------------------------
// Sessions: mode state of every mode, cancel signals, session files

export const MODES = [
  'ralph',
  'ultrawork',
  'ultraqa',
  'autopilot',
  'team',
  'omc-teams',
  'ultragoal',
  'ralplan',
  'deep-interview',
  'self-improve',
  'merge-readiness',
  'autoresearch',
] as const;
type Mode = (typeof MODES)[number];

/** A mode state like OMC's writers leave it, with progress 2/10 (or the mode's own counters). */
export function modeState(
  mode: Mode,
  sid: string | null,
  prompt = `hostile test prompt for ${mode}`,
): Record<string, unknown> {
  const base: Record<string, unknown> = {
    active: true,
    started_at: iso(NOW - 60_000),
    last_checked_at: iso(NOW - 10_000),
    prompt,
    ...(sid ? { session_id: sid } : {}),
  };
  switch (mode) {
    case 'ultrawork':
    case 'ultragoal':
      return { ...base, reinforcement_count: 2, max_reinforcements: 10 };
    case 'ultraqa':
      return { ...base, cycle: 2, max_cycles: 10, goal_type: 'tests' };
    case 'autopilot':
      return { ...base, phase: 'execution', iteration: 2, max_iterations: 10 };
    case 'team':
    case 'omc-teams':
      return { ...base, current_phase: 'team-exec', iteration: 2, max_iterations: 10, team_name: 'hostile-team' };
    case 'merge-readiness':
      return {
        ...base,
        phase: 'asking',
        questions: Array.from({ length: 10 }, (_, i) => `q${i}`),
        answers: ['a0', 'a1'],
      };
    case 'self-improve':
      return { ...base, iteration: 2, max_iterations: 10, status: 'running' };
    default:
      return { ...base, iteration: 2, max_iterations: 10, current_phase: 'execute' };
  }
}

const sessionsNotObject = (kind: string) => new RegExp(`expected a JSON object, found ${kind}`);
const sessionVisit = (id: string): Visit[] => [{ pane: 'sessions', id }];
const hasMode = (id: string, mode: string) => (store: OmcStore) =>
  store.sessions.getSnapshot().sessions.some((x) => x.id === id && x.modes.some((m) => m.mode === mode));

/** A fresh session directory per mode, so a broken mode file never hides a healthy one. */
function freshModeKind(mode: Mode): JsonKind {
  const sid = `hx-${mode}`;
  const rel = `state/sessions/${sid}/${mode}-state.json`;
  return {
    label: `mode ${mode} (session)`,
    group: 'sessions',
    domain: 'sessions',
    rel,
    good: () => modeState(mode, sid),
    existing: false,
    textField: 'prompt',
    textShown: true,
    shows: ['progress: 2/10'],
    touches: [sid],
    visit: sessionVisit(sid),
    limit: '4.0 MB',
    notObject: sessionsNotObject,
  };
}

function existingModeKind(mode: 'ralph' | 'ultrawork' | 'ultraqa' | 'autopilot' | 'team', sid: string): JsonKind {
  const rel = `state/sessions/${sid}/${mode}-state.json`;
  return {
    label: `mode ${mode} (real OMC file)`,
    group: 'sessions',
    domain: 'sessions',
    rel,
    good: (s) => JSON.parse(fs.readFileSync(path.join(s.root, rel), 'utf8')),
    existing: true,
    textField: mode === 'autopilot' ? 'originalIdea' : 'prompt',
    textShown: true,
    shows: [mode],
    touches: [sid],
    visit: sessionVisit(sid),
    keeps: { what: `${mode} still listed for ${sid} with its last good values`, check: hasMode(sid, mode) },
    limit: '4.0 MB',
    notObject: sessionsNotObject,
  };
}

const legacyModeKind: JsonKind = {
  label: 'legacy state/ultrawork-state.json (real OMC file)',
  group: 'sessions',
  domain: 'sessions',
  rel: 'state/ultrawork-state.json',
  good: (s) => JSON.parse(fs.readFileSync(path.join(s.root, 'state/ultrawork-state.json'), 'utf8')),
  existing: true,
  textField: 'original_prompt',
  textShown: true,
  shows: ['ultrawork'],
  touches: ['legacy'],
  visit: sessionVisit('legacy'),
  keeps: { what: 'legacy ultrawork still listed', check: hasMode('legacy', 'ultrawork') },
  limit: '4.0 MB',
  notObject: sessionsNotObject,
};

const rootModeKind: JsonKind = {
  label: 'root .omc/ralph-state.json (4.x legacy location)',
  group: 'sessions',
  domain: 'sessions',
  rel: 'ralph-state.json',
  good: () => modeState('ralph', null),
  existing: false,
  textField: 'prompt',
  textShown: true,
  shows: ['progress: 2/10'],
  touches: ['legacy'],
  visit: sessionVisit('legacy'),
  limit: '4.0 MB',
  notObject: sessionsNotObject,
};

const cancelSessionKind: JsonKind = {
  label: 'cancel signal (session, real OMC file)',
  group: 'sessions',
  domain: 'sessions',
  rel: `state/sessions/${SESSION.cancelled}/cancel-signal-state.json`,
  good: (s) =>
    JSON.parse(
      fs.readFileSync(path.join(s.root, `state/sessions/${SESSION.cancelled}/cancel-signal-state.json`), 'utf8'),
    ),
  existing: true,
  textField: 'source',
  textShown: true,
  shows: ['cancel signal:'],
  touches: [SESSION.cancelled],
  visit: sessionVisit(SESSION.cancelled),
  keeps: {
    what: 'the cancel signal is still shown',
    check: (store) =>
      store.sessions.getSnapshot().sessions.some((x) => x.id === SESSION.cancelled && x.cancel !== null),
  },
  limit: '4.0 MB',
  notObject: sessionsNotObject,
};

const cancelLegacyKind: JsonKind = {
  ...cancelSessionKind,
  label: 'cancel signal (legacy state/, real OMC file)',
  rel: 'state/cancel-signal-state.json',
  good: (s) => JSON.parse(fs.readFileSync(path.join(s.root, 'state/cancel-signal-state.json'), 'utf8')),
  touches: ['legacy'],
  visit: sessionVisit('legacy'),
  keeps: {
    what: 'the legacy cancel signal is still shown',
    check: (store) => store.sessions.getSnapshot().sessions.some((x) => x.id === 'legacy' && x.cancel !== null),
  },
};

const skillActiveKind: JsonKind = {
  label: 'skill-active-state.json',
  group: 'sessions',
  domain: 'sessions',
  rel: `state/sessions/${SESSION.ralph}/skill-active-state.json`,
  good: (s) =>
    JSON.parse(fs.readFileSync(path.join(s.root, `state/sessions/${SESSION.ralph}/skill-active-state.json`), 'utf8')),
  existing: true,
  textField: 'active_skills',
  textShown: false,
  shows: ['ralph'],
  touches: [SESSION.ralph],
  visit: sessionVisit(SESSION.ralph),
  keeps: { what: 'the ralph session still lists ralph', check: hasMode(SESSION.ralph, 'ralph') },
  limit: '4.0 MB',
  notObject: sessionsNotObject,
};

const sessionStartedKind: JsonKind = {
  label: 'session-started.json',
  group: 'sessions',
  domain: 'sessions',
  rel: `state/sessions/${SESSION.ralph}/session-started.json`,
  good: (s) =>
    JSON.parse(fs.readFileSync(path.join(s.root, `state/sessions/${SESSION.ralph}/session-started.json`), 'utf8')),
  existing: true,
  textField: 'cwd',
  textShown: true,
  shows: ['cwd: /home/dev/shop'],
  touches: [SESSION.ralph],
  visit: sessionVisit(SESSION.ralph),
  keeps: {
    what: 'the session keeps its cwd',
    check: (store) =>
      store.sessions.getSnapshot().sessions.some((x) => x.id === SESSION.ralph && x.cwd === '/home/dev/shop'),
  },
  limit: '4.0 MB',
  notObject: sessionsNotObject,
};

const endedKind: JsonKind = {
  label: 'ended-session marker sessions/<sid>.json',
  group: 'sessions',
  domain: 'sessions',
  rel: `sessions/${SESSION.finished}.json`,
  good: (s) => JSON.parse(fs.readFileSync(path.join(s.root, `sessions/${SESSION.finished}.json`), 'utf8')),
  existing: true,
  textField: 'reason',
  textShown: true,
  shows: ['ended: '],
  touches: [SESSION.finished],
  visit: sessionVisit(SESSION.finished),
  keeps: {
    what: 'the session is still shown as ended',
    check: (store) => store.sessions.getSnapshot().sessions.some((x) => x.id === SESSION.finished && x.ended !== null),
  },
  limit: '4.0 MB',
  notObject: sessionsNotObject,
};

/** Values of the wrong type, nulls and strings-for-numbers: OMC tolerates them, so they are shown or coerced, not errors. */
function modeTypeCases(): HostileCase[] {
  const out: HostileCase[] = [];
  const c = (
    mode: Mode,
    label: string,
    value: (sid: string) => Record<string, unknown>,
    shown: Array<string | RegExp>,
  ) => {
    const sid = `hx-${mode}-types`;
    const rel = `state/sessions/${sid}/${mode}-state.json`;
    out.push({
      name: `mode ${mode} (session) · ${label}`,
      group: 'sessions',
      rel,
      touches: [sid],
      visit: sessionVisit(sid),
      apply: (s) => put(s.root, rel, JSON.stringify(value(sid), null, 2)),
      shown,
    });
  };
  c(
    'ralph',
    'numbers as strings ("3" for 3, as state_write sends them)',
    (sid) => ({ ...modeState('ralph', sid), iteration: '3', max_iterations: '10' }),
    ['progress: 3/10'],
  );
  c('ralph', '"active" is the string "true"', (sid) => ({ ...modeState('ralph', sid), active: 'true' }), [
    /"active" is the string "true"/,
  ]);
  c('ralph', '"active" is 1', (sid) => ({ ...modeState('ralph', sid), active: 1 }), ['active is 1']);
  c(
    'ralph',
    'every field null',
    (sid) => Object.fromEntries(Object.keys(modeState('ralph', sid)).map((k) => [k, null])),
    ['active is null'],
  );
  c(
    'ralph',
    'objects and arrays where numbers belong',
    (sid) => ({ ...modeState('ralph', sid), iteration: { n: 3 }, max_iterations: [10] }),
    ['progress: —'],
  );
  c(
    'ralph',
    'timestamps that are not dates',
    (sid) => ({
      ...modeState('ralph', sid),
      started_at: 'yesterday-ish',
      last_checked_at: { at: 1 },
      updated_at: true,
    }),
    [/no started_at \/ updated_at \/ last_checked_at/],
  );
  c(
    'ralph',
    'timestamps of 1e308 and year 275760 (beyond what a Date holds)',
    (sid) => ({ ...modeState('ralph', sid), started_at: 1e308, last_checked_at: '+275760-09-13T00:00:00.001Z' }),
    ['progress: 2/10'],
  );
  c(
    'ralph',
    'negative, huge and fractional numbers',
    (sid) => ({ ...modeState('ralph', sid), iteration: -1, max_iterations: 1e308 }),
    [/progress: -1\/1e\+308/],
  );
  c(
    'ralph',
    'prompt is a number, phase is an object',
    (sid) => ({ ...modeState('ralph', sid), prompt: 42, current_phase: { p: 'x' } }),
    [/prompt: 42/],
  );
  c(
    'ralph',
    'extra unknown keys',
    (sid) => ({ ...modeState('ralph', sid), zz_future_key: { nested: ['x'] }, 'key with spaces': 1 }),
    ['zz_future_key', 'progress: 2/10'],
  );
  c(
    'ralph',
    '_meta and session_id of the wrong types',
    (sid) => ({ ...modeState('ralph', sid), _meta: 'not-an-object', session_id: 12345 }),
    ['owner: unowned'],
  );
  c(
    'ralph',
    'owner is another session (stranded)',
    (sid) => ({ ...modeState('ralph', sid), session_id: 'someone-else' }),
    [/stranded: owned by another session/],
  );
  c('ralph', 'keys with escape sequences', (sid) => ({ ...modeState('ralph', sid), [`k${ESCAPES.title.text}`]: 1 }), [
    'progress: 2/10',
  ]);
  c(
    'ultrawork',
    'reinforcement_count as a string',
    (sid) => ({ ...modeState('ultrawork', sid), reinforcement_count: '7' }),
    ['progress: 7/10'],
  );
  c(
    'ultraqa',
    'cycle null, goal_type an array',
    (sid) => ({ ...modeState('ultraqa', sid), cycle: null, goal_type: ['x'] }),
    ['progress: ?/10'],
  );
  c(
    'autopilot',
    'execution is a string, workflow is null',
    (sid) => ({ ...modeState('autopilot', sid), execution: 'lots', workflow: null }),
    ['progress: 2/10'],
  );
  c('team', 'fix_loop of the wrong shape', (sid) => ({ ...modeState('team', sid), fix_loop: [1, 2], team_name: 7 }), [
    'progress: 2/10',
  ]);
  c(
    'merge-readiness',
    'questions is an object',
    (sid) => ({ ...modeState('merge-readiness', sid), questions: { a: 1 } }),
    ['progress: 2/?'],
  );
  c('self-improve', 'status is a number', (sid) => ({ ...modeState('self-improve', sid), status: 3 }), [
    'progress: 2/10',
  ]);
  return out;
}

function sessionStructureCases(): HostileCase[] {
  const out: HostileCase[] = [];
  const dirCase = (label: string, name: string) =>
    out.push({
      name: `session directory name · ${label}`,
      group: 'sessions',
      rel: `state/sessions/${name}`,
      touches: [],
      visit: [],
      apply: (s) =>
        put(
          s.root,
          `state/sessions/${name}/ralph-state.json`,
          JSON.stringify(modeState('ralph', null, ESCAPES.osc52.text)),
        ),
      problem: {
        // The name with every byte, controls as escapes (io/shown-path.ts): the directory it is, nothing raw.
        path: shownPath(`state/sessions/${name}`),
        message: /directory name is not a valid OMC session id; OMC ignores it and so does omc-top/,
      },
      // The OSC 52 payload is a file's content (removed); a title sequence in the name is shown as inert text
      // (`evil\e]0;PWNED-DIR\x07x`), never sent: no raw control byte in any frame or output proves that.
      hidden: [ESCAPES.osc52.payload],
    });
  // Names the filesystem allows but OMC's id allow-list refuses (no "/" possible in a name; "../" is covered by "..x").
  dirCase('"..evil" (dot-dot)', '..evil');
  dirCase('"a..b"', 'a..b');
  dirCase('starts with "-"', '-rf');
  dirCase('has a space', 'has space');
  dirCase('has a backslash', 'back\\slash');
  dirCase('has a colon', 'c:legacy');
  dirCase('title escape sequence in the name', 'evil\u001b]0;PWNED-DIR\u0007x');
  dirCase('cursor movement in the name', 'mv\u001b[2J\u001b[Hx');
  dirCase('C1 control in the name', 'c1\u009bname');
  dirCase('255 characters with a dot', `${'a'.repeat(250)}.json`);
  dirCase('non-ASCII', 'séssion-ü');

  out.push({
    name: 'session directory · symlink to a directory outside the root',
    group: 'sessions',
    rel: 'state/sessions/hx-symlinked',
    touches: [],
    visit: [],
    apply: (s) =>
      replaceWithSymlink(
        s.root,
        'state/sessions/hx-symlinked',
        path.join(s.outside, 'sessions-dir', 'aaaaaaaa-outside-session'),
      ),
    problem: {
      path: 'state/sessions/hx-symlinked',
      // OMC's Stop hook reads through it; omc-top does not follow it out of the root: unreadable, the refusal named.
      message: /^directory is a symlink to outside the \.omc root \(.*\); not listed$/,
    },
    hidden: [OUTSIDE_SECRET],
  });
  out.push({
    name: 'session directory · a plain file where the directory should be',
    group: 'sessions',
    rel: 'state/sessions/hx-file',
    touches: [],
    visit: [],
    apply: (s) => put(s.root, 'state/sessions/hx-file', JSON.stringify(modeState('ralph', null))),
    problem: { path: 'state/sessions/hx-file', message: /a file where a session directory was expected/ },
  });
  out.push({
    name: 'state/sessions · a file where the directory should be',
    group: 'sessions',
    rel: 'state/sessions',
    touches: ['*'],
    visit: [],
    apply: (s) => {
      fs.rmSync(path.join(s.root, 'state/sessions'), { recursive: true });
      put(s.root, 'state/sessions', 'not a directory');
    },
    problem: { path: 'state/sessions', message: /is a file where a directory was expected/ },
  });
  out.push({
    name: 'state/sessions · symlink to a directory outside the root',
    group: 'sessions',
    rel: 'state/sessions',
    touches: ['*'],
    visit: [],
    apply: (s) => {
      fs.rmSync(path.join(s.root, 'state/sessions'), { recursive: true });
      fs.symlinkSync(path.join(s.outside, 'sessions-dir'), path.join(s.root, 'state/sessions'));
    },
    problem: { path: 'state/sessions', message: /symlink to outside the \.omc root/ },
    hidden: [OUTSIDE_SECRET, 'aaaaaaaa'],
  });
  out.push({
    name: 'mode state file · unknown mode with escape sequences in its name is ignored',
    group: 'sessions',
    rel: `state/sessions/${SESSION.ralph}/x\u001b]0;T\u0007-state.json`,
    touches: [SESSION.ralph],
    visit: sessionVisit(SESSION.ralph),
    apply: (s) =>
      put(s.root, `state/sessions/${SESSION.ralph}/x\u001b]0;T\u0007-state.json`, JSON.stringify({ active: true })),
    shown: ['ralph'],
  });
  return out;
}

export function sessionCases(): HostileCase[] {
  const kinds: JsonKind[] = [
    ...MODES.map(freshModeKind),
    existingModeKind('ralph', SESSION.ralph),
    existingModeKind('autopilot', SESSION.autopilot),
    existingModeKind('ultraqa', SESSION.ultraqa),
    existingModeKind('team', SESSION.team),
    existingModeKind('ultrawork', SESSION.ultrawork),
    legacyModeKind,
    rootModeKind,
    cancelSessionKind,
    cancelLegacyKind,
    skillActiveKind,
    sessionStartedKind,
    endedKind,
  ];
  const out: HostileCase[] = [];
  // The full defect table for two representatives (a fresh session file and a real OMC one); for
  // every other kind of session file the defects whose handling depends on the kind (where it
  // lives, what keeps its last good value); for every other mode, the ones that reach its own
  // progress and phase parser. Every defect still meets every kind of file somewhere.
  const full = new Set(['mode ralph (session)', 'mode ralph (real OMC file)']);
  const perKind = new Set([
    'truncated JSON',
    'top-level null',
    '50 MB file',
    'invalid UTF-8 inside a string',
    'byte-order mark',
    'CRLF line endings',
    'symlink to a file outside the root',
    'directory where the file should be',
    'escaped \\u0000 and every escape sequence in a displayed field',
  ]);
  const perMode = new Set([
    'truncated JSON',
    'escaped \\u0000 and every escape sequence in a displayed field',
    '5,000 levels of nested objects in a field',
  ]);
  const modeKinds = new Set(kinds.filter((k) => k.label.startsWith('mode ')).map((k) => k.label));
  for (const k of kinds) {
    const cases = jsonCases(k);
    const keep = full.has(k.label) ? null : modeKinds.has(k.label) ? perMode : perKind;
    out.push(...(keep === null ? cases : cases.filter((c) => keep.has(c.name.slice(k.label.length + 3)))));
  }
  out.push(...escapeCases(freshModeKind('ralph')));
  out.push(...escapeCases(cancelSessionKind, ['osc52', 'title']));
  out.push(...escapeCases(endedKind, ['cursor']));
  out.push(...escapeCases(sessionStartedKind, ['c1csi']));
  out.push(...modeTypeCases());
  out.push(...sessionStructureCases());
  out.push(...specialFileCases());
  return out;
}

/**
 * Round three: the files that had no special-file cases yet, OMC 5.6's run ledger (which omc-top's
 * cancel also appends to: test/hostile/blocking-opens.test.ts drives that write) and ralph's session
 * PRD (the project's prd.json is read by the same code). A FIFO, a link to /dev/zero or a directory in their
 * place is a problem line in bounded time, never a hang or a read of a device.
 */
function specialFileCases(): HostileCase[] {
  const ledger = 'state/runs/ledger.jsonl';
  const prd = `state/sessions/${SESSION.ralph}/prd.json`;
  const kinds: Array<{
    label: string;
    rel: string;
    problemPath: string;
    touches: string[];
    visit: Visit[];
    says: { fifo: RegExp; devZero: RegExp; dir: RegExp };
  }> = [
    {
      label: 'run ledger state/runs/ledger.jsonl',
      rel: ledger,
      problemPath: ledger,
      touches: [],
      visit: [],
      says: {
        fifo: /^run ledger not read: is not a regular file/,
        devZero: /^run ledger not read: is a symlink; not followed/,
        dir: /^run ledger not read: is not a regular file/,
      },
    },
    {
      label: "ralph's session prd.json",
      rel: prd,
      problemPath: prd,
      touches: [SESSION.ralph],
      visit: [{ pane: 'sessions', id: SESSION.ralph }],
      says: {
        fifo: /^invalid PRD: is not a regular file \(a FIFO, a named pipe\)/,
        devZero: /^invalid PRD: symlink points outside the \.omc root \(to \/dev\/zero\); not read/,
        dir: /^invalid PRD: is a directory where a file was expected/,
      },
    },
  ];
  const out: HostileCase[] = [];
  for (const k of kinds) {
    const inDir = (s: Sandbox) => path.join(s.root, path.dirname(k.rel));
    const common = { group: 'sessions' as const, rel: k.rel, touches: k.touches, visit: k.visit };
    out.push({
      ...common,
      name: `${k.label} · named pipe (FIFO) where the file should be`,
      apply: (s) => {
        fs.mkdirSync(inDir(s), { recursive: true });
        execFileSync('mkfifo', [path.join(inDir(s), path.basename(k.rel))]);
      },
      problem: { path: k.problemPath, message: k.says.fifo },
    });
    out.push({
      ...common,
      name: `${k.label} · symlink to /dev/zero`,
      apply: (s) => {
        fs.mkdirSync(inDir(s), { recursive: true });
        fs.symlinkSync('/dev/zero', path.join(inDir(s), path.basename(k.rel)));
      },
      problem: { path: k.problemPath, message: k.says.devZero },
    });
    out.push({
      ...common,
      name: `${k.label} · a directory where the file should be`,
      apply: (s) => {
        fs.mkdirSync(path.join(inDir(s), path.basename(k.rel)), { recursive: true });
      },
      problem: { path: k.problemPath, message: k.says.dir },
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Teams: config, manifest, phase, tasks, worker files, events, bridge heartbeats

const T = `state/team/${TEAM}`;
const teamVisit: Visit[] = [{ pane: 'teams', team: TEAM }];
const teamNotObject = (kind: string) => new RegExp(`expected a JSON object, found ${kind}`);
const workerNotObject = () => /^expected a JSON object$/;
const existingJson = (rel: string) => (s: Sandbox) =>
  JSON.parse(fs.readFileSync(path.join(s.root, rel), 'utf8')) as Record<string, unknown>;
const teamListed = (store: OmcStore) => {
  return store.teams.getSnapshot().teams.some((t) => t.name === TEAM);
};

function teamKind(
  label: string,
  rel: string,
  textField: string,
  textShown: boolean,
  shows: Array<string | RegExp>,
  notObject: JsonKind['notObject'] = teamNotObject,
): JsonKind {
  return {
    textShown,
    symlinkMessage: /is a symlink; OMC's readers refuse symlinked team files/,
    label,
    group: 'teams',
    domain: 'teams',
    rel,
    good: existingJson(rel),
    existing: true,
    textField,
    shows,
    touches: [],
    visit: teamVisit,
    keeps: { what: `team ${TEAM} still listed`, check: teamListed },
    limit: '1.0 MB',
    notObject,
  };
}

const teamKinds: JsonKind[] = [
  teamKind('team config.json', `${T}/config.json`, 'task', false, [TEAM]),
  teamKind('team manifest.json', `${T}/manifest.json`, 'task', false, [TEAM]),
  teamKind('team phase-state.json', `${T}/phase-state.json`, 'current_phase', false, [TEAM]),
  teamKind(
    'team task-2.json',
    `${T}/tasks/task-2.json`,
    'subject',
    true,
    [TEAM],
    (kind) => new RegExp(`does not follow OMC's task schema: expected a JSON object, found ${kind}`),
  ),
  teamKind(
    'worker heartbeat.json',
    `${T}/workers/worker-1/heartbeat.json`,
    'last_turn_at',
    false,
    ['worker-1'],
    workerNotObject,
  ),
  teamKind('worker status.json', `${T}/workers/worker-1/status.json`, 'reason', false, ['worker-1'], workerNotObject),
  teamKind(
    'worker shutdown-ack.json',
    `${T}/workers/worker-1/shutdown-ack.json`,
    'reason',
    false,
    ['worker-1'],
    workerNotObject,
  ),
  {
    ...teamKind(
      'legacy bridge heartbeat',
      'state/team-bridge/bridge-team/worker-a.heartbeat.json',
      'provider',
      false,
      ['worker-a'],
      workerNotObject,
    ),
    visit: [{ pane: 'teams', team: 'bridge-team' }],
    keeps: undefined,
    // The bridge reads its heartbeats like any file (fsx's reasons), not as v2 team files.
    symlinkMessage: undefined,
    dirMessage: /is a directory where a heartbeat file was expected/,
  },
];

/** Tasks must follow OMC's schema; the bad ones are named with the rule they break. */
function taskSchemaCases(): HostileCase[] {
  const rel = `${T}/tasks/task-2.json`;
  const c = (label: string, patch: Record<string, unknown>, message: RegExp): HostileCase => ({
    name: `team task-2.json · ${label}`,
    group: 'teams',
    rel,
    touches: [],
    visit: teamVisit,
    apply: (s) => put(s.root, rel, JSON.stringify({ ...existingJson(rel)(s), ...patch }, null, 2)),
    problem: { path: rel, message },
  });
  return [
    c('status null', { status: null }, /"status" null is not one of pending\|blocked\|in_progress\|completed\|failed/),
    c('status with escape sequences', { status: ESCAPES.title.text }, /"status" .* is not one of/),
    c('subject is a number', { subject: 7 }, /"subject" must be a string/),
    c('id does not match the file name', { id: '9' }, /"id" is "9" but the file name says 2/),
    c('id with ../', { id: '../../etc' }, /"id" must be a numeric string/),
    c('created_at is not a date', { created_at: 'soon' }, /"created_at" must be an ISO timestamp/),
    c('depends_on points at itself', { depends_on: ['2'] }, /"depends_on" \/ "blocked_by" must be equal arrays/),
    c('owner is empty', { owner: '  ' }, /"owner" must be a non-empty string/),
    c('metadata is a string', { metadata: 'x' }, /"metadata" must be an object/),
  ];
}

function teamStructureCases(): HostileCase[] {
  const out: HostileCase[] = [];
  const bad = (
    label: string,
    rel: string,
    apply: (s: Sandbox) => void,
    message: RegExp,
    extra: Partial<HostileCase> = {},
  ) =>
    out.push({
      name: label,
      group: 'teams',
      rel,
      touches: [],
      visit: teamVisit,
      apply,
      problem: { path: shownPath(rel), message },
      ...extra,
    });
  bad(
    'team directory name · uppercase',
    'state/team/UPPER',
    (s) => put(s.root, 'state/team/UPPER/config.json', '{}'),
    /directory name is not a valid OMC team name; ignored/,
  );
  bad(
    'team directory name · "..x"',
    'state/team/..x',
    (s) => put(s.root, 'state/team/..x/config.json', '{}'),
    /not a valid OMC team name/,
  );
  bad(
    'team directory name · escape sequences',
    'state/team/t\u001b]0;PWNED-TEAM\u0007',
    (s) => put(s.root, 'state/team/t\u001b]0;PWNED-TEAM\u0007/config.json', '{}'),
    /not a valid OMC team name/,
    // Shown as inert text (`t\e]0;PWNED-TEAM\x07`), never sent: no raw control byte reaches any output.
  );
  bad(
    'team directory · symlink to outside',
    'state/team/linked',
    (s) => replaceWithSymlink(s.root, 'state/team/linked', s.outside),
    /is a symlink; OMC's readers skip symlinked team directories/,
    { hidden: [OUTSIDE_SECRET] },
  );
  bad(
    'team directory · a file instead',
    'state/team/plainfile',
    (s) => put(s.root, 'state/team/plainfile', 'x'),
    /a file where a team directory was expected/,
  );
  bad(
    'worker directory name · escape sequences',
    `${T}/workers/w\u001b[2J\u001b]52;c;V09SS0VS\u0007`,
    (s) => put(s.root, `${T}/workers/w\u001b[2J\u001b]52;c;V09SS0VS\u0007/heartbeat.json`, '{}'),
    /not a valid OMC worker name; ignored/,
    // Shown as inert text (`w\e[2J\e]52;c;V09SS0VS\x07`), never sent: no raw control byte reaches any output.
  );
  bad(
    'worker directory name · "../"-like',
    `${T}/workers/..w`,
    (s) => put(s.root, `${T}/workers/..w/heartbeat.json`, '{}'),
    /not a valid OMC worker name/,
  );
  bad(
    'worker directory · symlink to outside',
    `${T}/workers/worker-9`,
    (s) => replaceWithSymlink(s.root, `${T}/workers/worker-9`, s.outside),
    /is a symlink; OMC's readers skip symlinked worker directories/,
    { hidden: [OUTSIDE_SECRET] },
  );
  bad(
    'tasks directory · a file instead',
    `${T}/tasks`,
    (s) => put(s.root, `${T}/tasks`, 'x'),
    /is a file where a directory was expected/,
  );
  bad(
    'workers directory · a file instead',
    `${T}/workers`,
    (s) => put(s.root, `${T}/workers`, 'x'),
    /is a file where a directory was expected/,
  );
  bad(
    'events.jsonl · a directory instead',
    `${T}/events.jsonl`,
    (s) => replaceWithDir(s.root, `${T}/events.jsonl`),
    /is a directory where a file was expected/,
  );
  bad(
    'task file · a directory instead',
    `${T}/tasks/task-7.json`,
    (s) => replaceWithDir(s.root, `${T}/tasks/task-7.json`),
    /is a directory where a file was expected/,
  );
  bad(
    'config.json · a symlink',
    `${T}/config.json`,
    (s) => replaceWithSymlink(s.root, `${T}/config.json`, path.join(s.outside, 'secret-state.json')),
    /is a symlink; OMC's readers refuse symlinked team files/,
    { hidden: [OUTSIDE_SECRET] },
  );
  bad(
    'state/team · a file instead',
    'state/team',
    (s) => {
      fs.rmSync(path.join(s.root, 'state/team'), { recursive: true });
      put(s.root, 'state/team', 'x');
    },
    /is a file where a directory was expected/,
  );

  const cfgRel = `${T}/config.json`;
  const roster = (
    label: string,
    patch: (cfg: Record<string, unknown>) => Record<string, unknown>,
    message: RegExp,
    hidden: string[] = [],
  ) =>
    bad(
      `team config.json · ${label}`,
      cfgRel,
      (s) => put(s.root, cfgRel, JSON.stringify(patch(existingJson(cfgRel)(s)), null, 2)),
      message,
      { hidden },
    );
  roster('workers is a string', (c) => ({ ...c, workers: 'worker-1' }), /"workers" is not an array: no worker list/);
  roster(
    'worker names with ../ and escapes',
    (c) => ({
      ...c,
      workers: [...(c.workers as unknown[]), { name: '../../etc/passwd' }, { name: `w${ESCAPES.osc52.text}` }],
    }),
    /name ".*" is not a valid OMC worker name; ignored/,
    [ESCAPES.osc52.payload],
  );
  roster(
    'name does not match the directory',
    (c) => ({ ...c, name: `other${ESCAPES.cursor.text}` }),
    // The name is shown by every character (␛[2J…): its sequences' text is on the line as stand-ins, never raw.
    /"name" is "other.*␛\[2J.*" but the directory is fix-ts-errors/,
  );
  roster(
    'worker_count disagrees',
    (c) => ({ ...c, worker_count: '99' }),
    /"worker_count" is "99" but \d+ workers are listed/,
  );

  const hbRel = `${T}/workers/worker-1/heartbeat.json`;
  bad(
    'worker heartbeat.json · last_turn_at is not a timestamp',
    hbRel,
    (s) => put(s.root, hbRel, JSON.stringify({ ...existingJson(hbRel)(s), last_turn_at: ESCAPES.title.text }, null, 2)),
    /"last_turn_at" is not a timestamp/,
    { hidden: [ESCAPES.title.payload] },
  );
  const ackRel = `${T}/workers/worker-1/shutdown-ack.json`;
  bad(
    'worker shutdown-ack.json · status is neither accept nor reject',
    ackRel,
    (s) => put(s.root, ackRel, JSON.stringify({ status: ESCAPES.osc52.text, reason: 'x' }, null, 2)),
    /"status" is neither "accept" nor "reject"/,
    { hidden: [ESCAPES.osc52.payload] },
  );
  const brRel = 'state/team-bridge/bridge-team/worker-a.heartbeat.json';
  bad(
    'legacy bridge heartbeat · lastPollAt is not a timestamp',
    brRel,
    (s) => put(s.root, brRel, JSON.stringify({ workerName: 'worker-a', lastPollAt: null, status: 'polling' })),
    /"lastPollAt" is not a timestamp: OMC counts this worker as dead/,
    {
      visit: [{ pane: 'teams', team: 'bridge-team' }],
    },
  );
  return out;
}

/** events.jsonl: appended lines of every shape; the tail keeps going. */
function eventCases(): HostileCase[] {
  const rel = `${T}/events.jsonl`;
  const ev = (extra: Record<string, unknown>) =>
    JSON.stringify({
      event_id: 'e-x',
      team: TEAM,
      created_at: iso(NOW - 1_000),
      type: 'task_failed',
      worker: 'worker-2',
      task_id: '2',
      ...extra,
    });
  const append = (
    label: string,
    lines: string | Buffer,
    shown: Array<string | RegExp>,
    hidden: string[] = [],
  ): HostileCase => ({
    name: `team events.jsonl · ${label}`,
    group: 'teams',
    rel,
    touches: [],
    visit: teamVisit,
    apply: (s) => fs.appendFileSync(path.join(s.root, rel), lines),
    shown,
    hidden,
  });
  const out: HostileCase[] = (['colour', 'osc52', 'title', 'dcs', 'bidi'] as EscapeName[]).map((n) =>
    append(
      `escape sequence (${n}) in an event reason`,
      ev({ reason: ESCAPES[n].text }) + '\n',
      [ESCAPES[n].visible],
      n === 'bell' ? [] : [ESCAPES[n].payload],
    ),
  );
  out.push(
    append('a line that is not JSON, then a good one', `not json at all\n${ev({ reason: 'after-garbage' })}\n`, [
      'after-garbage',
    ]),
  );
  out.push(
    append('a truncated last line (append in progress)', `${ev({ reason: 'complete-line' })}\n{"event_id":"half`, [
      'complete-line',
    ]),
  );
  out.push(
    append('a JSON array and null lines', `[1,2]\nnull\n"str"\n${ev({ reason: 'after-non-objects' })}\n`, [
      'after-non-objects',
    ]),
  );
  out.push(append('CRLF lines', `${ev({ reason: 'crlf-line' })}\r\n`, ['crlf-line']));
  out.push(
    append(
      'a 200 KB line without a newline, then good lines',
      `${'x'.repeat(200 * 1024)}\n${ev({ reason: 'after-long-line' })}\n`,
      ['after-long-line'],
    ),
  );
  out.push({
    ...append(
      'wrong types in every field',
      `${JSON.stringify({ type: 7, worker: ['w'], task_id: {}, created_at: 'never', reason: 'wrongly-typed-event' })}\n${ev({ reason: 'after-typed-wrong' })}\n`,
      ['after-typed-wrong'],
      ['wrongly-typed-event'],
    ),
    problem: { path: rel, message: /a line is not an OMC event \(an object with a "type"\)/ },
  });
  out.push(
    append(
      'worker name with ../ and escapes',
      `${ev({ worker: `../${ESCAPES.title.text}`, reason: 'named-worker' })}\n`,
      ['named-worker'],
      [ESCAPES.title.payload],
    ),
  );
  out.push({
    name: 'team events.jsonl · binary garbage with NUL bytes appended',
    group: 'teams',
    rel,
    touches: [],
    visit: teamVisit,
    apply: (s) =>
      fs.appendFileSync(
        path.join(s.root, rel),
        Buffer.concat([BINARY, Buffer.from(`\n${ev({ reason: 'after-binary' })}\n`)]),
      ),
    shown: ['after-binary'],
    hidden: ['[2J'],
  });
  out.push({
    name: 'team events.jsonl · 50 MB of events (only the tail is read)',
    group: 'teams',
    rel,
    touches: [],
    visit: teamVisit,
    apply: (s) => {
      const line = Buffer.from(ev({ reason: 'filler' }) + '\n');
      const n = Math.ceil(HUGE_BYTES / line.length);
      const fd = fs.openSync(path.join(s.root, rel), 'w');
      const chunk = Buffer.concat(Array.from({ length: 1000 }, () => line));
      for (let i = 0; i < n / 1000; i++) fs.writeSync(fd, chunk);
      fs.writeSync(fd, Buffer.from(ev({ reason: 'the-very-last-event' }) + '\n'));
      fs.closeSync(fd);
    },
    shown: ['the-very-last-event'],
  });
  out.push({
    name: 'team events.jsonl · named pipe (FIFO) swapped in',
    group: 'teams',
    rel,
    touches: [],
    visit: teamVisit,
    apply: (s) => mkfifo(s.root, rel),
    problem: { path: rel, message: FIFO },
  });
  out.push({
    name: 'team events.jsonl · cut mid-line (a crashed append), then appended to',
    group: 'teams',
    rel,
    touches: [],
    visit: teamVisit,
    apply: (s) => {
      const file = path.join(s.root, rel);
      fs.truncateSync(file, fs.statSync(file).size - 5);
      fs.appendFileSync(file, `${ev({ reason: 'joined-to-the-cut' })}\n${ev({ reason: 'next-after-the-cut' })}\n`);
    },
    problem: { path: rel, message: /a line is not valid JSON/ },
    shown: ['next-after-the-cut'],
  });
  out.push({
    name: 'team events.jsonl · symlink to outside',
    group: 'teams',
    rel,
    touches: [],
    visit: teamVisit,
    apply: (s) => replaceWithSymlink(s.root, rel, path.join(s.outside, 'secret.txt')),
    problem: { path: `${T}/events.jsonl`, message: /is a symlink; OMC's readers refuse symlinked team files/ },
    hidden: [OUTSIDE_SECRET],
  });
  return out;
}

export function teamCases(): HostileCase[] {
  const perKind = new Set([
    'truncated JSON',
    'top-level null',
    '100,000 levels of nested arrays',
    '50 MB file',
    'binary garbage with NUL bytes',
    'invalid UTF-8 inside a string',
    'byte-order mark',
    'CRLF line endings',
    'escaped \\u0000 and every escape sequence in a displayed field',
    'symlink to a file outside the root',
    'directory where the file should be',
  ]);
  const out: HostileCase[] = [];
  for (const k of teamKinds) out.push(...jsonCases(k).filter((c) => perKind.has(c.name.slice(k.label.length + 3))));
  out.push(...escapeCases(teamKinds[3] as JsonKind, ['osc52', 'title', 'c1csi']));
  out.push(...escapeCases(teamKinds[5] as JsonKind, ['cursor']).map((c) => ({ ...c, shown: ['worker-1'] })));
  out.push(...escapeCases(teamKinds[7] as JsonKind, ['title']));
  out.push(...taskSchemaCases(), ...teamStructureCases(), ...eventCases());
  return out;
}

// ---------------------------------------------------------------------------
// Knowledge: notepad, project memory, wiki pages and index.md

const MEM = 'project-memory.json';
const memoryKind: JsonKind = {
  label: 'project-memory.json',
  group: 'knowledge',
  domain: 'memory',
  rel: MEM,
  good: existingJson(MEM),
  existing: true,
  textField: 'projectRoot',
  textShown: false,
  shows: ['Never commit directly to main'],
  touches: [],
  visit: [{ pane: 'memory' }],
  keeps: {
    what: 'the last good directives are still there',
    check: (store) => {
      return Array.isArray(store.memory.getSnapshot().raw?.userDirectives);
    },
  },
  limit: '4.0 MB',
  notObject: () => /is not a JSON object/,
};

function memoryCases(): HostileCase[] {
  const keep = new Set([
    'truncated JSON',
    'invalid JSON (trailing comma, bare word)',
    'empty file',
    'top-level null',
    'top-level array',
    '100,000 levels of nested arrays',
    '50 MB file',
    'binary garbage with NUL bytes',
    'invalid UTF-8 inside a string',
    'byte-order mark',
    'CRLF line endings',
    'symlink to a file outside the root',
    'directory where the file should be',
  ]);
  const out = jsonCases(memoryKind).filter((c) => keep.has(c.name.slice(memoryKind.label.length + 3)));
  const c = (
    label: string,
    patch: (m: Record<string, unknown>) => Record<string, unknown>,
    expect: { problem?: RegExp; shown?: Array<string | RegExp>; hidden?: string[] },
  ) =>
    out.push({
      name: `project-memory.json · ${label}`,
      group: 'knowledge',
      rel: MEM,
      touches: [],
      visit: [{ pane: 'memory' }],
      apply: (s) => put(s.root, MEM, JSON.stringify(patch(existingJson(MEM)(s)), null, 2)),
      ...(expect.problem ? { problem: { path: MEM, message: expect.problem } } : {}),
      shown: expect.shown,
      hidden: expect.hidden,
    });
  const dirs = (m: Record<string, unknown>) => m.userDirectives as Array<Record<string, unknown>>;
  for (const n of ['osc52', 'title', 'cursor', 'c1csi'] as EscapeName[]) {
    c(
      `escape sequence (${n}) in a directive`,
      (m) => ({ ...m, userDirectives: [{ ...dirs(m)[0], directive: ESCAPES[n].text }, ...dirs(m).slice(1)] }),
      {
        shown: [ESCAPES[n].visible],
        hidden: n === 'bell' || n === 'cr' ? [] : [ESCAPES[n].payload],
      },
    );
  }
  c(
    'escape sequences in a directive context',
    (m) => ({ ...m, userDirectives: [{ ...dirs(m)[0], context: ESCAPES.osc52.text }, ...dirs(m).slice(1)] }),
    { shown: ['Never commit'], hidden: [ESCAPES.osc52.payload] },
  );
  c('userDirectives is a string', (m) => ({ ...m, userDirectives: 'be nice' }), {
    problem: /userDirectives is not a list; OMC treats it as empty/,
  });
  c(
    'a directive of the wrong types',
    (m) => ({ ...m, userDirectives: [{ directive: 7, timestamp: 'x', priority: 'urgent' }, ...dirs(m)] }),
    { problem: /directive \[0\] is malformed/ },
  );
  c('a directive that is null', (m) => ({ ...m, userDirectives: [null, ...dirs(m)] }), {
    problem: /directive \[0\] is malformed/,
  });
  c(
    'version, projectRoot and lastScanned missing',
    (m) => ({ ...m, version: null, projectRoot: '', lastScanned: undefined }),
    { problem: /OMC ignores this file \(.*missing or empty\)/ },
  );
  c(
    'hot paths with ../ and escapes',
    (m) => ({
      ...m,
      hotPaths: [{ path: `../../${ESCAPES.title.text}`, accessCount: 'many', lastAccessed: -1, type: 'file' }],
    }),
    { shown: ['Never commit'], hidden: [ESCAPES.title.payload] },
  );
  c('techStack of the wrong shape', (m) => ({ ...m, techStack: [null, 1, 'x'] }), { shown: ['Never commit'] });
  return out;
}

const NOTE = 'notepad.md';
function notepadCases(): HostileCase[] {
  const out: HostileCase[] = [];
  const visit: Visit[] = [{ pane: 'notepad' }];
  const c = (
    label: string,
    apply: (s: Sandbox) => void,
    expect: { problem?: RegExp; shown?: Array<string | RegExp>; hidden?: string[] },
    keeps = false,
  ) =>
    out.push({
      name: `notepad.md · ${label}`,
      group: 'knowledge',
      rel: NOTE,
      touches: [],
      visit,
      apply,
      ...(expect.problem ? { problem: { path: NOTE, message: expect.problem } } : {}),
      shown: expect.shown,
      hidden: expect.hidden,
      ...(keeps
        ? {
            keeps: {
              what: 'the last good notepad is still shown',
              check: (store: OmcStore) => store.notepad.getSnapshot().sections.working.entries.length > 0,
            },
          }
        : {}),
    });
  const good = (s: Sandbox) => fs.readFileSync(path.join(s.root, NOTE), 'utf8');
  const withEntry = (s: Sandbox, text: string) =>
    good(s).replace(
      '## Working Memory\n<!-- Session notes. Auto-pruned after 7 days. -->\n',
      `## Working Memory\n<!-- Session notes. Auto-pruned after 7 days. -->\n### 2026-11-30 18:14\n${text}\n`,
    );
  for (const n of ['colour', 'osc52st', 'title2', 'reset', 'cr'] as EscapeName[]) {
    c(`escape sequence (${n}) in a working entry`, (s) => put(s.root, NOTE, withEntry(s, ESCAPES[n].text)), {
      shown: [ESCAPES[n].visible],
      hidden: n === 'bell' || n === 'cr' ? [] : [ESCAPES[n].payload],
    });
  }
  c(
    'escape sequences in Priority Context',
    (s) =>
      put(
        s.root,
        NOTE,
        good(s).replace('Checkout totals', `${ESCAPES.osc52.text} ${ESCAPES.title.text} Checkout totals`),
      ),
    { shown: ['Checkout totals'], hidden: [ESCAPES.osc52.payload, ESCAPES.title.payload] },
  );
  c(
    'escape sequences in a section header line',
    (s) => put(s.root, NOTE, good(s).replace('## MANUAL', `## MANUAL${ESCAPES.title.text}`)),
    { problem: /has no "## MANUAL" header line/, hidden: [ESCAPES.title.payload] },
  );
  c('CRLF line endings', (s) => put(s.root, NOTE, good(s).replace(/\n/g, '\r\n')), {
    problem: /has Windows \(CRLF\) line endings/,
  });
  c('byte-order mark', (s) => put(s.root, NOTE, '\ufeff' + good(s)), { shown: ['Investigated cart rounding'] });
  c(
    'invalid UTF-8',
    (s) =>
      put(
        s.root,
        NOTE,
        Buffer.concat([
          Buffer.from(withEntry(s, 'UTF8-HERE')).subarray(0, 400),
          Buffer.from([0xff, 0xfe, 0xc3]),
          Buffer.from(withEntry(s, 'UTF8-HERE')).subarray(400),
        ]),
      ),
    {
      problem: /contains bytes that are not valid UTF-8 \(shown as �\); editing is off/,
    },
  );
  c('NUL bytes', (s) => put(s.root, NOTE, good(s).replace('Checkout', 'Check\u0000out')), { problem: NUL }, true);
  c('binary garbage', (s) => put(s.root, NOTE, BINARY), { problem: NUL }, true);
  c(
    '50 MB of text',
    (s) => put(s.root, NOTE, hugeText(good(s))),
    { problem: /file is 50\.0 MB, over the 16\.0 MB limit; not read/ },
    true,
  );
  c(
    'truncated mid-section (no MANUAL header)',
    (s) => put(s.root, NOTE, good(s).slice(0, good(s).indexOf('## MANUAL') - 20)),
    { problem: /has no "## MANUAL" header line/ },
  );
  c('empty file', (s) => put(s.root, NOTE, ''), {
    problem: /has no "## Priority Context", "## Working Memory", "## MANUAL" header line/,
  });
  c(
    '100,000 nested blockquote markers and list levels',
    (s) =>
      put(
        s.root,
        NOTE,
        withEntry(
          s,
          '>'.repeat(100_000) +
            ' deep\n' +
            Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i % 200)}- level ${i}`).join('\n'),
        ),
      ),
    { shown: [/level|deep|>>>/] },
  );
  c(
    '10,000 entries',
    (s) =>
      put(
        s.root,
        NOTE,
        withEntry(
          s,
          Array.from(
            { length: 10_000 },
            (_, i) => `### 2026-11-30 17:${String(i % 60).padStart(2, '0')}\nentry ${i}`,
          ).join('\n'),
        ),
      ),
    { shown: [/entry \d+/] },
  );
  c('a 1 MB single line', (s) => put(s.root, NOTE, withEntry(s, 'long-line-start ' + 'x'.repeat(1024 * 1024))), {
    shown: ['long-line-start'],
  });
  c(
    'directory where the file should be',
    (s) => replaceWithDir(s.root, NOTE),
    { problem: /is a directory where a file was expected/ },
    true,
  );
  c(
    'symlink to a file outside the root',
    (s) => replaceWithSymlink(s.root, NOTE, path.join(s.outside, 'secret.txt')),
    { problem: OUTSIDE, hidden: [OUTSIDE_SECRET] },
    true,
  );
  c('symlink loop', (s) => replaceWithSymlink(s.root, NOTE, NOTE), { problem: LOOP }, true);
  c('named pipe (FIFO)', (s) => mkfifo(s.root, NOTE), { problem: FIFO }, true);
  return out;
}

const PAGE = 'checkout-flow-architecture.md';
/** A file name as a test name: quoted, with every control character (C1 too, which JSON.stringify leaves raw) escaped. */
const printable = (name: string) =>
  JSON.stringify(name).replace(/[\u007f-\u009f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
function wikiCases(): HostileCase[] {
  const out: HostileCase[] = [];
  const page = (s: Sandbox) => fs.readFileSync(path.join(s.root, 'wiki', PAGE), 'utf8');
  const c = (
    label: string,
    file: string,
    apply: (s: Sandbox) => void,
    expect: { problem?: RegExp; shown?: Array<string | RegExp>; hidden?: string[] },
  ) =>
    out.push({
      name: `wiki page ${file.length > 40 ? file.slice(0, 40) + '…' : printable(file)} · ${label}`,
      group: 'knowledge',
      rel: `wiki/${file}`,
      touches: [],
      visit: [{ pane: 'wiki', file }],
      apply,
      ...(expect.problem ? { problem: { path: shownPath(`wiki/${file}`), message: expect.problem } } : {}),
      shown: expect.shown,
      hidden: expect.hidden,
    });
  const w = (file: string, text: string | Buffer) => (s: Sandbox) => put(s.root, `wiki/${file}`, text);
  // Quoted the way OMC's serializer does (\\ and \" escaped, nothing else): control bytes stay raw bytes.
  const q = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const fm = (title: string, body: string, extra = '') =>
    `---\ntitle: ${q(title)}\ntags: ["hostile"]\ncreated: 2026-11-20T18:15:23.552Z\nupdated: 2026-11-20T18:15:23.552Z\nsources: []\nlinks: []\ncategory: reference\nconfidence: high\n${extra}---\n\n# ${title}\n\n${body}\n`;
  for (const n of ['colour', 'osc52', 'cursor', 'title', 'dcs', 'bidi'] as EscapeName[]) {
    c(
      `escape sequence (${n}) in the title and body`,
      `hx-${n}.md`,
      w(`hx-${n}.md`, fm(`Title ${ESCAPES[n].text}`, `Body ${ESCAPES[n].text}`)),
      { shown: [ESCAPES[n].visible], hidden: n === 'bell' || n === 'cr' ? [] : [ESCAPES[n].payload] },
    );
  }
  c(
    'escape sequences in tags and category',
    'hx-tags.md',
    w(
      'hx-tags.md',
      fm('Tagged page', 'tag body')
        .replace('tags: ["hostile"]', `tags: [${q(ESCAPES.osc52.text)}]`)
        .replace('category: reference', `category: ${ESCAPES.title.text}`),
    ),
    {
      shown: ['Tagged page'],
      hidden: [ESCAPES.osc52.payload, ESCAPES.title.payload],
    },
  );
  c(
    'title with ../ and slashes',
    'hx-traversal.md',
    w('hx-traversal.md', fm('../../../etc/passwd /root/.ssh/id_rsa', 'traversal body')),
    { shown: ['../../../etc/passwd'] },
  );
  c('no frontmatter', 'hx-nofm.md', w('hx-nofm.md', '# Just a heading\n\nno frontmatter here\n'), {
    problem: /no frontmatter: the file must start with a "---" line; OMC skips the page/,
  });
  c('empty frontmatter', 'hx-emptyfm.md', w('hx-emptyfm.md', '---\n---\nbody\n'), {
    problem: /empty frontmatter block/,
  });
  c('frontmatter never closed', 'hx-openfm.md', w('hx-openfm.md', '---\ntitle: "Open"\ntags: [\n'), {
    problem: /frontmatter is never closed|frontmatter OMC cannot parse|no frontmatter/,
  });
  c('byte-order mark', 'hx-bom.md', w('hx-bom.md', '\ufeff' + fm('Bom page', 'bom body')), {
    problem: /starts with a byte-order mark, so OMC does not see its frontmatter and skips the page/,
  });
  c(
    'CRLF line endings (OMC reads them)',
    'hx-crlf.md',
    w('hx-crlf.md', fm('Crlf page', 'crlf body').replace(/\n/g, '\r\n')),
    { shown: ['Crlf page'] },
  );
  c(
    'invalid UTF-8',
    'hx-utf8.md',
    w(
      'hx-utf8.md',
      Buffer.concat([
        Buffer.from(fm('Utf8 page', 'before ')),
        Buffer.from([0xff, 0xc3, 0x28]),
        Buffer.from(' after\n'),
      ]),
    ),
    { problem: /contains bytes that are not valid UTF-8 \(shown as �, as OMC reads them\)/ },
  );
  // OMC reads a page with NUL bytes as text and ranks it: listed and searched here too, the NUL never drawn.
  c('NUL bytes', 'hx-nul.md', w('hx-nul.md', fm('Nul page', 'a\u0000b')), { shown: ['Nul page'] });
  c('binary garbage', 'hx-binary.md', w('hx-binary.md', BINARY), { problem: /no frontmatter/ });
  c('50 MB page', 'hx-huge.md', w('hx-huge.md', hugeText(fm('Huge page', ''))), {
    problem: /file is 50\.0 MB, over the 8\.0 MB limit; not read \(OMC reads it; omc-top does not search it\)/,
  });
  c(
    '2 MB page (huge badge, shown in part)',
    'hx-big.md',
    w('hx-big.md', fm('Big page', 'big-body-start ' + 'lorem ipsum '.repeat(180_000))),
    { problem: /huge page \(2\.\d MB\); the page view shows its first 512 KB/ },
  );
  c(
    '100,000 nested list levels and blockquotes',
    'hx-deep.md',
    w('hx-deep.md', fm('Deep page', '>'.repeat(100_000) + ' deep\n' + '['.repeat(50_000) + ']'.repeat(50_000))),
    { shown: ['Deep page'] },
  );
  c(
    '10,000 [[links]] to missing pages',
    'hx-links.md',
    w('hx-links.md', fm('Linky page', Array.from({ length: 10_000 }, (_, i) => `[[Missing ${i}]]`).join(' '))),
    { shown: ['Linky page'] },
  );
  c(
    'frontmatter values of the wrong types',
    'hx-types.md',
    w(
      'hx-types.md',
      '---\ntitle: 42\ntags: "not-a-list"\ncreated: never\nupdated: {}\nsources: 7\nlinks: null\ncategory: [1]\nconfidence: 3\n---\n\nbody\n',
    ),
    { shown: [/hx-types|42/] },
  );
  c('file name with ".." (OMC refuses it)', 'a..b.md', w('a..b.md', fm('Dotdot page', 'x')), {
    problem: /file name contains "\.\." or "\\": OMC refuses to read it/,
  });
  c('file name with a backslash', 'back\\slash.md', w('back\\slash.md', fm('Backslash page', 'x')), {
    problem: /OMC refuses to read it/,
  });
  c(
    'file name with an escape sequence',
    'evil\u001b]0;PWNED-NAME\u0007.md',
    w('evil\u001b]0;PWNED-NAME\u0007.md', fm('Evil name page', 'x')),
    { shown: ['Evil name page'], hidden: ['PWNED-NAME'] },
  );
  c(
    'file name with cursor movement and C1 controls',
    'mv\u001b[2J\u009bx.md',
    w('mv\u001b[2J\u009bx.md', fm('Cursor name page', 'x')),
    { shown: ['Cursor name page'], hidden: ['[2J'] },
  );
  c('a directory named like a page', 'hx-dir.md', (s) => replaceWithDir(s.root, 'wiki/hx-dir.md'), {
    problem: /is a directory where a page file was expected/,
  });
  c(
    'symlink to a page outside the root',
    'hx-link-out.md',
    (s) => replaceWithSymlink(s.root, 'wiki/hx-link-out.md', path.join(s.outside, 'secret.md')),
    { problem: OUTSIDE, hidden: [OUTSIDE_SECRET] },
  );
  c('symlink loop', 'hx-loop.md', (s) => replaceWithSymlink(s.root, 'wiki/hx-loop.md', 'hx-loop.md'), {
    problem: LOOP,
  });
  c('the real page truncated mid-frontmatter', PAGE, (s) => put(s.root, `wiki/${PAGE}`, page(s).slice(0, 60)), {
    problem: /frontmatter OMC cannot parse|no frontmatter|never closed/,
  });
  c(
    'the real page with an OSC 52 body',
    PAGE,
    (s) => put(s.root, `wiki/${PAGE}`, page(s).replace('The checkout flow', `${ESCAPES.osc52.text} The checkout flow`)),
    { shown: ['Checkout Flow Architecture'], hidden: [ESCAPES.osc52.payload] },
  );

  // index.md and log.md are OMC's bookkeeping: omc-top never reads them, so nothing in them can show or break anything.
  const idx = (label: string, data: (s: Sandbox) => string | Buffer) =>
    out.push({
      name: `wiki index.md · ${label} (not read: OMC's bookkeeping)`,
      group: 'knowledge',
      rel: 'wiki/index.md',
      touches: [],
      visit: [{ pane: 'wiki' }],
      apply: (s) => put(s.root, 'wiki/index.md', data(s)),
      shown: ['Checkout Flow Architecture'],
      hidden: [ESCAPES.osc52.payload, OUTSIDE_SECRET],
    });
  idx('escape sequences', () => `# Wiki Index\n\n- [${ESCAPES.osc52.text}](x.md)\n`);
  idx('binary', () => BINARY);
  idx('50 MB', () => hugeText('# Wiki Index\n'));
  out.push({
    name: "wiki index.md · symlink outside (not read: OMC's bookkeeping)",
    group: 'knowledge',
    rel: 'wiki/index.md',
    touches: [],
    visit: [{ pane: 'wiki' }],
    apply: (s) => replaceWithSymlink(s.root, 'wiki/index.md', path.join(s.outside, 'secret.md')),
    shown: ['Checkout Flow Architecture'],
    hidden: [OUTSIDE_SECRET],
  });
  out.push({
    name: 'wiki directory · a file instead',
    group: 'knowledge',
    rel: 'wiki',
    touches: [],
    visit: [{ pane: 'wiki' }],
    apply: (s) => {
      fs.rmSync(path.join(s.root, 'wiki'), { recursive: true });
      put(s.root, 'wiki', 'x');
    },
    problem: { path: 'wiki', message: /is a file where the wiki directory was expected/ },
  });
  out.push({
    name: 'wiki directory · symlink to a directory outside the root',
    group: 'knowledge',
    rel: 'wiki',
    touches: [],
    visit: [{ pane: 'wiki' }],
    apply: (s) => {
      fs.rmSync(path.join(s.root, 'wiki'), { recursive: true });
      fs.symlinkSync(s.outside, path.join(s.root, 'wiki'));
    },
    problem: { path: 'wiki', message: /symlink to outside the \.omc root/ },
    hidden: [OUTSIDE_SECRET],
  });
  return out;
}

export function knowledgeCases(): HostileCase[] {
  return [...notepadCases(), ...memoryCases(), ...wikiCases()];
}

export function allCases(): HostileCase[] {
  return [...sessionCases(), ...teamCases(), ...knowledgeCases()];
}

// ---------------------------------------------------------------------------
// Races and permissions, made deterministic by intercepting the fs calls the
// store makes (tests run as root in CI, where mode 000 is still readable).

type FsFn = (...args: never[]) => unknown;
/** Replaces fs[name] until the returned undo runs. */
function wrapFs<K extends 'openSync' | 'readdirSync'>(
  name: K,
  wrap: (real: (typeof fs)[K]) => (typeof fs)[K],
): () => void {
  const real = fs[name];
  (fs as unknown as Record<string, FsFn>)[name] = wrap(real) as unknown as FsFn;
  return () => {
    (fs as unknown as Record<string, FsFn>)[name] = real as unknown as FsFn;
  };
}

/** The listing of `dir` still names `file`, but it is deleted before anything can read it. */
export function vanishAfterListing(dirAbs: string, victimAbs: string): () => void {
  return wrapFs(
    'readdirSync',
    (real) =>
      ((p: fs.PathLike, opts?: unknown) => {
        const out = (real as (p: fs.PathLike, o?: unknown) => unknown)(p, opts);
        if (realName(p) === dirAbs) fs.rmSync(victimAbs, { recursive: true, force: true });
        return out;
      }) as unknown as typeof fs.readdirSync,
  );
}

/** The file exists when looked up (stat), and is gone when opened. */
export function vanishBeforeOpen(victimAbs: string): () => void {
  return wrapFs(
    'openSync',
    (real) =>
      ((p: fs.PathLike, ...rest: unknown[]) => {
        if (realName(p) === victimAbs) fs.rmSync(victimAbs, { force: true });
        return (real as (p: fs.PathLike, ...r: unknown[]) => number)(p, ...rest);
      }) as unknown as typeof fs.openSync,
  );
}

function eacces(syscall: string, p: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EACCES: permission denied, ${syscall} '${p}'`), {
    code: 'EACCES',
    errno: -13,
    syscall,
    path: p,
  });
}

/** open() of this file fails with EACCES, as for a mode-000 file read by another user. */
export function denyOpen(victimAbs: string): () => void {
  return wrapFs(
    'openSync',
    (real) =>
      ((p: fs.PathLike, ...rest: unknown[]) => {
        if (realName(p) === victimAbs) throw eacces('open', victimAbs);
        return (real as (p: fs.PathLike, ...r: unknown[]) => number)(p, ...rest);
      }) as unknown as typeof fs.openSync,
  );
}

/** readdir() of this directory fails with EACCES. */
export function denyList(dirAbs: string): () => void {
  return wrapFs(
    'readdirSync',
    (real) =>
      ((p: fs.PathLike, opts?: unknown) => {
        if (realName(p) === dirAbs) throw eacces('scandir', dirAbs);
        return (real as (p: fs.PathLike, o?: unknown) => unknown)(p, opts);
      }) as unknown as typeof fs.readdirSync,
  );
}

interface RaceTarget {
  label: string;
  group: HostileCase['group'];
  rel: string;
  touches: string[];
  visit: Visit[];
  /** What is still shown after the file is gone (the rest of the item, the other files). */
  after: Array<string | RegExp>;
  /** The domain lists the parent directory before reading (else it stats or opens directly). */
  listed: boolean;
}

const raceTargets: RaceTarget[] = [
  {
    label: 'mode ralph state (real OMC file)',
    group: 'sessions',
    rel: `state/sessions/${SESSION.ralph}/ralph-state.json`,
    touches: [SESSION.ralph],
    visit: sessionVisit(SESSION.ralph),
    after: ['ultrawork'],
    listed: true,
  },
  {
    label: 'legacy ultrawork state',
    group: 'sessions',
    rel: 'state/ultrawork-state.json',
    touches: ['legacy'],
    visit: sessionVisit('legacy'),
    after: ['cancel signal:'],
    listed: true,
  },
  {
    label: 'session cancel signal',
    group: 'sessions',
    rel: `state/sessions/${SESSION.cancelled}/cancel-signal-state.json`,
    touches: [SESSION.cancelled],
    visit: [],
    after: [],
    listed: true,
  },
  {
    label: 'ended-session marker',
    group: 'sessions',
    rel: `sessions/${SESSION.finished}.json`,
    touches: [SESSION.finished],
    visit: sessionVisit(SESSION.finished),
    after: ['ralph'],
    listed: true,
  },
  {
    label: 'team task-3.json',
    group: 'teams',
    rel: `${T}/tasks/task-3.json`,
    touches: [],
    visit: teamVisit,
    after: [TEAM],
    listed: true,
  },
  {
    label: 'worker heartbeat.json',
    group: 'teams',
    rel: `${T}/workers/worker-2/heartbeat.json`,
    touches: [],
    visit: teamVisit,
    after: ['worker-2'],
    listed: true,
  },
  {
    label: 'team config.json',
    group: 'teams',
    rel: `${T}/config.json`,
    touches: [],
    visit: teamVisit,
    after: [TEAM],
    listed: true,
  },
  {
    label: 'wiki page',
    group: 'knowledge',
    rel: `wiki/${PAGE}`,
    touches: [],
    visit: [{ pane: 'wiki' }],
    after: ['Cart State Management'],
    listed: true,
  },
  {
    label: 'notepad.md',
    group: 'knowledge',
    rel: NOTE,
    touches: [],
    visit: [{ pane: 'notepad' }],
    after: [/No notepad\.md yet|notepad/i],
    listed: false,
  },
  {
    label: 'project-memory.json',
    group: 'knowledge',
    rel: MEM,
    touches: [],
    visit: [{ pane: 'memory' }],
    after: [/No project memory yet|project memory/i],
    listed: false,
  },
];

export function raceCases(): HostileCase[] {
  const out: HostileCase[] = [];
  for (const t of raceTargets) {
    const base = { group: t.group, rel: t.rel, touches: t.touches, visit: t.visit, apply: () => undefined };
    // Gone is not an error (OMC deletes these files itself): no problem line, the rest stays.
    if (t.listed) {
      out.push({
        ...base,
        name: `${t.label} · vanishes between readdir and read`,
        intercept: (s) => vanishAfterListing(path.dirname(path.join(s.root, t.rel)), path.join(s.root, t.rel)),
        shown: t.after,
      });
    }
    out.push({
      ...base,
      name: `${t.label} · vanishes between stat and open`,
      intercept: (s) => vanishBeforeOpen(path.join(s.root, t.rel)),
      shown: t.after,
    });
    out.push({
      ...base,
      name: `${t.label} · permission denied`,
      // Rewritten by someone else (new mtime): the next poll re-reads it and open() is refused.
      apply: (s) => {
        const abs = path.join(s.root, t.rel);
        const later = new Date(fs.statSync(abs).mtimeMs + 5_000);
        fs.utimesSync(abs, later, later);
      },
      intercept: (s) => denyOpen(path.join(s.root, t.rel)),
      problem: { path: t.rel, message: /permission denied/ },
      ...(t.group === 'sessions' && t.visit.length > 0
        ? {
            keeps: {
              what: 'the last good value stays',
              check: (store: OmcStore) => store.sessions.getSnapshot().sessions.some((x) => x.id === t.touches[0]),
            },
          }
        : {}),
    });
  }
  out.push({
    name: 'a session directory vanishes between the listing of state/sessions and its own listing',
    group: 'sessions',
    rel: `state/sessions/${SESSION.stale}`,
    touches: [SESSION.stale],
    visit: [],
    apply: () => undefined,
    intercept: (s) =>
      vanishAfterListing(path.join(s.root, 'state/sessions'), path.join(s.root, 'state/sessions', SESSION.stale)),
    shown: [],
  });
  out.push({
    name: 'state/sessions · permission denied on the listing',
    group: 'sessions',
    rel: 'state/sessions',
    touches: ['*'],
    visit: [],
    apply: () => undefined,
    intercept: (s) => denyList(path.join(s.root, 'state/sessions')),
    problem: { path: 'state/sessions', message: /permission denied/ },
  });
  out.push({
    name: 'team tasks/ · permission denied on the listing',
    group: 'teams',
    rel: `${T}/tasks`,
    touches: [],
    visit: teamVisit,
    apply: () => undefined,
    intercept: (s) => denyList(path.join(s.root, T, 'tasks')),
    problem: { path: `${T}/tasks`, message: /permission denied/ },
  });
  out.push({
    name: 'wiki/ · permission denied on the listing',
    group: 'knowledge',
    rel: 'wiki',
    touches: [],
    visit: [{ pane: 'wiki' }],
    apply: () => undefined,
    intercept: (s) => denyList(path.join(s.root, 'wiki')),
    problem: { path: 'wiki', message: /permission denied/ },
  });
  return out;
}

// ---------------------------------------------------------------------------
// Round three: hostile inputs that are not OMC files (each driven by its own test).

/**
 * A child that will not end on SIGTERM (test/faults/stubborn-children.test.ts): a shell that records its
 * pid, ignores TERM and never exits by itself. Stands in for ssh, git and tmux.
 */
export const STUBBORN_CHILD = (pidFile: string): string =>
  `echo $$ > '${pidFile}'; trap '' TERM; while :; do sleep 1; done`;

/**
 * Forged Claude Code registry entries (test/hostile/forged-registry.test.ts): a `sessions/<pid>.json` that names a
 * process with the right start time, in the project, but that is not the Claude Code CLI of that session or was
 * written where others could write. Each must be refused with its reason and the process never signalled.
 * `accept` cases pin what must still pass (a group-writable file no one else can reach: Claude Code 2.1.332 under
 * umask 002 writes its entry 0664 inside a 0700 `sessions/`).
 */
export interface ForgedRegistryCase {
  name: string;
  /** What the entry's pid runs: any program (`sleep`), node without Claude's cli.js, or the CLI stand-in. */
  runs: 'sleep' | 'node -e' | 'stand-in';
  /** Modes and owners of the registry file and its directory (after the entry is written). */
  file?: { mode?: number; uid?: number };
  dir?: { mode?: number };
  /** Needs root (to give the file to another user). */
  root?: true;
  refused: RegExp | null;
}

export const FORGED_REGISTRY_CASES: readonly ForgedRegistryCase[] = [
  { name: 'names a sleep in the project', runs: 'sleep', refused: /runs "\S*\/sleep", which is not Claude Code/ },
  { name: 'names node running another script', runs: 'node -e', refused: /with no script, not Claude Code's cli\.js/ },
  {
    name: 'a group-writable file others can reach',
    runs: 'stand-in',
    file: { mode: 0o664 },
    dir: { mode: 0o755 },
    refused: /registry file sessions\/\d+\.json is writable by its group \(mode 664\)/,
  },
  {
    name: 'a world-writable file others can reach',
    runs: 'stand-in',
    file: { mode: 0o666 },
    dir: { mode: 0o711 },
    refused: /writable by anyone \(mode 666\)/,
  },
  {
    name: 'a directory others can write',
    runs: 'stand-in',
    dir: { mode: 0o777 },
    refused: /registry directory sessions is writable by others \(mode 777\)/,
  },
  {
    name: 'a file owned by another user',
    runs: 'stand-in',
    file: { uid: 65534 },
    root: true,
    refused: /owned by uid 65534, not by you/,
  },
  {
    name: 'accepted: group-writable in a directory only the user can enter (umask 002)',
    runs: 'stand-in',
    file: { mode: 0o664 },
    dir: { mode: 0o700 },
    refused: null,
  },
];
