/**
 * Sessions pane state and its pure transitions. Selection is kept by session
 * id, not by row index, so a row that moves (its status changed) stays
 * selected, and rows that did not change never jump.
 */
import type { ClaudeSessionView } from '../../store/claude/model.js';
import { processCell } from './agent-cell.js';
import { ageText, processSearchText } from './rows.js';
import { AGE_CHARS, sameAgeSpan } from '../../ui/format.js';
import { dayTurnMs, lifeOf } from '../../store/claude/life.js';
import type { DraftOffer } from '../../kit/kept-drafts.js';
import type { SessionView, SessionsDelta, SessionsSnapshot } from '../../store/sessions/model.js';
import { compareSessions } from '../../store/sessions/derive.js';
import { PATCH_MAX, patchSorted } from '../../store/sessions/sorted-views.js';
import { LEGACY_LABEL } from '../../store/sessions/summary.js';
import { initList, listView, moveList, scrollTo, type ListState, type Move } from '../../kit/list.js';

export interface SessionsPaneState {
  /** The selected session (by id) and the scroll window. */
  list: ListState;
  filter: string;
  filterEditing: boolean;
  /** Row order (S cycles it). */
  sort: SessionSort;
  /** Leave finished, idle and stale sessions out (H). */
  hideDone: boolean;
  detail: { id: string; scroll: number; modeIndex: number } | null;
  /** The peek at the Claude process behind one session (P), over the list or the detail. */
  peek: { id: string; scroll: number } | null;
  /** A note being typed for a session (m in the detail; note-state.ts); null when no note field is open. */
  note?: { id: string; text: string } | null;
  /** A note kept for that session when omc-top was last ended without asking (kit/kept-drafts.ts): r / d first. */
  noteOffer?: DraftOffer<{ id: string; text: string }> | null;
}

export const SORTS = ['attention', 'recent', 'progress', 'id'] as const;
export type SessionSort = (typeof SORTS)[number];

export const initSessionsPane = (): SessionsPaneState => ({
  list: initList(),
  sort: 'attention',
  hideDone: false,
  filter: '',
  filterEditing: false,
  detail: null,
  peek: null,
});

/**
 * Views are immutable and keep their identity while their session is unchanged, so each one's text is
 * built once: a `/` keystroke at 2,000 sessions rebuilt and lower-cased every row's text, most of its cost.
 */
const haystacks = new WeakMap<SessionView, string>();

function haystack(s: SessionView): string {
  let h = haystacks.get(s);
  if (h === undefined) haystacks.set(s, (h = buildHaystack(s)));
  return h;
}

/** Builds every row's search text ahead of the first keystroke (those already built cost a lookup). */
export function warmFilter(snap: SessionsSnapshot): void {
  hayOf(snap.sessions);
}

function buildHaystack(s: SessionView): string {
  const parts = [s.id, s.status, s.kind];
  for (const m of s.modes) parts.push(m.mode, m.status, m.phase ?? '', m.prompt ?? '', ...m.extras);
  if (s.cancel) parts.push('cancel', 'cancelling');
  if (s.problems.length > 0) parts.push('problem');
  return parts.join(' ').toLowerCase();
}

/** A session that needs no watching: nothing running, or left running too long ago to be enforced. */
export const isDone = (s: SessionView) => s.status === 'finished' || s.status === 'idle' || s.status === 'stale';

/** How far along a session's first running mode is (0…1), -1 without a count. */
function progressOf(s: SessionView): number {
  const m =
    s.modes.find((x) => x.active && x.iteration !== null && x.max) ??
    s.modes.find((x) => x.iteration !== null && x.max);
  return m && m.iteration !== null && m.max ? m.iteration / m.max : -1;
}

const ORDER: Record<SessionSort, ((a: SessionView, b: SessionView) => number) | null> = {
  // The store's order: cancelling, pending, active, stale, finished, idle; newest first within each.
  attention: null,
  recent: (a, b) => (b.updatedMs ?? -Infinity) - (a.updatedMs ?? -Infinity),
  progress: (a, b) => progressOf(b) - progressOf(a),
  id: (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
};

export interface RowQuery {
  filter: string;
  sort?: SessionSort;
  hideDone?: boolean;
}

/** One query's rows, with each row's search text beside it (a longer query filters these, not every session). */
interface Filtered {
  rows: SessionView[];
  /**
   * Each row's search text, for a longer query typed next (it filters these without a lookup per row); null on
   * rows patched by a change, which then look each one up (haystack) if a longer query is typed on them.
   */
  hay: string[] | null;
  /** `rows[i]`'s key (rowKey): the selection finds its row among them without a pass that makes them again. */
  keys: string[];
}

const memo = new WeakMap<SessionsSnapshot, Map<string, Filtered>>();

/** Every session's search text, in the snapshot's order: built once per list, then read without a lookup per row. */
const hayOfLists = new WeakMap<readonly SessionView[], string[]>();
function hayOf(sessions: readonly SessionView[]): string[] {
  let hay = hayOfLists.get(sessions);
  if (!hay) hayOfLists.set(sessions, (hay = sessions.map(haystack)));
  return hay;
}

/**
 * The cached rows of the longest shorter query that `f` extends (same sort and hiding), or null. Every row `f`
 * keeps is among them: each of its terms holds a term of the shorter query (the last one lengthened, or a
 * word added), so filtering those rows gives what filtering every session would, in the same order (a
 * stable sort of a subset keeps the subset's order).
 */
function narrowestCached(byQuery: Map<string, Filtered>, head: string, f: string): Filtered | null {
  for (let k = f.length - 1; k > 0; k--) {
    const shorter = f.slice(0, k).trimEnd();
    if (shorter === '') break;
    const hit = byQuery.get(head + shorter);
    if (hit) return hit;
  }
  return null;
}

/**
 * Rows shown: every whitespace-separated filter term must appear somewhere in
 * the row, its AGE as drawn at `now` included; finished and stale rows left out
 * when hidden; in the chosen order (a stable sort, so ties keep the store's
 * attention order).
 */
export function visibleSessions(
  snap: SessionsSnapshot,
  q: RowQuery | string,
  /** The frame's clock: the ages the rows show, and so the rows a word of an age ("3m") keeps. */
  now: number,
  /** The Claude join (claude snapshot's bySession): the row's CLAUDE cell and `waits:` text are searched too. */
  claude?: ReadonlyMap<string, ClaudeSessionView>,
): SessionView[] {
  const query = typeof q === 'string' ? { filter: q } : q;
  const f = query.filter.trim().toLowerCase();
  const terms = f === '' ? [] : f.split(/\s+/);
  const clocked = terms.filter(mayBeInAge);
  if (clocked.length === 0) return wordRows(snap, query, f, terms, now, claude);
  // The other words keep their rows per snapshot; those are narrowed by the words an age may hold, per `now`.
  // The carried verdicts are for the rows the whole query gave (its other words, hiding, order): its key names all.
  const whole = `${query.sort ?? ''}\u0000${query.hideDone === true}\u0000${f}`;
  return agedRows(snap, rowsTheClockFilters(snap, query, now, claude), whole, clocked, now, claude);
}

/**
 * The rows whose age turning over may bring them into the list or take them out of it: those the filter's other
 * words keep, when it has a word an age may hold; none otherwise (the list then moves with the disk only).
 */
export function rowsTheClockFilters(
  snap: SessionsSnapshot,
  q: RowQuery,
  now: number,
  claude?: ReadonlyMap<string, ClaudeSessionView>,
): readonly SessionView[] {
  const f = q.filter.trim().toLowerCase();
  const terms = f === '' ? [] : f.split(/\s+/);
  if (!terms.some(mayBeInAge)) return [];
  const rest = terms.filter((t) => !mayBeInAge(t));
  return wordRows(snap, { ...q, filter: rest.join(' ') }, rest.join(' '), rest, now, claude);
}

/** A word made only of characters an age is written with (ui/format.ts AGE_CHARS) may be in a row's AGE cell. */
function mayBeInAge(word: string): boolean {
  for (const ch of word) if (!AGE_CHARS.includes(ch)) return false;
  return true;
}

/** The rows whose words hold every term (no age looked at): the store's words, then the CLAUDE cell's. */
function wordRows(
  snap: SessionsSnapshot,
  query: RowQuery,
  f: string,
  terms: readonly string[],
  now: number,
  claude: ReadonlyMap<string, ClaudeSessionView> | undefined,
): SessionView[] {
  const rows = sessionRows(snap, query);
  if (!claude || claude.size === 0) return rows;
  return f === '' ? rows : withProcessWords(snap, query, rows, claude, terms, now);
}

/**
 * `base` narrowed to the rows whose shown text at `now` (its words, its CLAUDE cell, its AGE cell: rows.ts ageText,
 * the text the row draws) holds every term. The last answer per `base` is kept for the same query and join, for
 * every clock reading at which each of those rows shows the same ages (format.ts sameAgeSpan): a frame, its footer,
 * its settle step and its next-tick look each read the clock, a few ms apart, and with the answer kept for one
 * reading only, 10,000 rows were filtered six times a second (3.9 against 1.1 % of a core at rest).
 *
 * A new snapshot brings new rows. When the last pass was over the snapshot just before it (its delta's `from`, same
 * domain), a session not in the delta kept its SessionView and the last pass's verdict on it holds inside that pass's
 * stretch (same query and join): only the sessions the change wrote are looked at. The verdicts are kept as the set of
 * rows kept (a filter keeps few), so a pass allocates no table of all the rows.
 */
const aged = new WeakMap<
  readonly SessionView[],
  { key: string; from: number; to: number; claude: object | undefined; rows: SessionView[] }
>();
let lastPass: {
  key: string;
  from: number;
  to: number;
  claude: object | undefined;
  lineage: object | undefined;
  version: number;
  kept: Set<SessionView>;
} | null = null;
function agedRows(
  snap: SessionsSnapshot,
  base: readonly SessionView[],
  /**
   * The whole query: a pass over the snapshot before, with other words or hiding, judged other rows (a key and a
   * store change may land in one frame), so its verdicts are carried only to the same query.
   */
  key: string,
  terms: readonly string[],
  now: number,
  claude: ReadonlyMap<string, ClaudeSessionView> | undefined,
): SessionView[] {
  const hit = aged.get(base);
  if (hit && hit.key === key && hit.claude === claude && hit.from <= now && now <= hit.to) return hit.rows;
  const last = lastPass;
  const delta = snap.delta;
  const earlier =
    last &&
    delta &&
    snap.lineage !== undefined &&
    last.lineage === snap.lineage &&
    last.version === delta.from &&
    last.key === key &&
    last.claude === claude &&
    last.from <= now &&
    now <= last.to
      ? last
      : null;
  const written = earlier && delta ? new Set(delta.changed) : null;
  // The verdicts carried over hold inside the earlier stretch: this pass's stretch lies within it.
  let from = earlier ? earlier.from : -Infinity;
  let to = earlier ? earlier.to : Infinity;
  const kept = new Set<SessionView>();
  const holds = (ms: number | null) => {
    const span = sameAgeSpan(ms, now);
    if (span.from > from) from = span.from;
    if (span.to < to) to = span.to;
  };
  // Each term is looked for in each cell's text on its own: a term holds no space, so it is in the row's text
  // (the cells joined by spaces) exactly when it is in one cell. Joining them copied every row's text once per row
  // per frame (10,000 rows: p50 2.0 -> 1.5 ms, p95 4.5 -> 2.7 ms a frame, bench/filter-age.mts).
  const rows = base.filter((s) => {
    if (earlier && written && !written.has(s)) {
      if (!earlier.kept.has(s)) return false;
      kept.add(s);
      return true;
    }
    const c = claude?.get(s.id);
    holds(s.updatedMs);
    // The CLAUDE cell reads the clock only through the age of its process's state and the day of its exit
    // (agent-cell.ts processCell).
    if (c) {
      const life = lifeOf(c);
      holds(life.sinceMs);
      // "exited 23:10" reads "exited yesterday 23:10" from midnight (UTC) on (agent-cell.ts).
      if (life.status === 'exited' && to > now + dayTurnMs(now) - 1) to = now + dayTurnMs(now) - 1;
    }
    const keep = matchesEach(
      haystack(s),
      c ? processSearchText(processCell(s, c, now)) : '',
      ageText(s, now).toLowerCase(),
      terms,
    );
    if (keep) kept.add(s);
    return keep;
  });
  aged.set(base, { key, from, to, claude, rows });
  lastPass = { key, from, to, claude, lineage: snap.lineage, version: snap.version, kept };
  return rows;
}

/**
 * The rows a filter keeps once each joined session's process words are read too (what its CLAUDE cell and
 * `waits:` say, rows.ts processSearchText): `rows` itself when they add none. Once per rows and Claude snapshot.
 */
const withProcess = new WeakMap<readonly SessionView[], { claude: object; rows: SessionView[] }>();
function withProcessWords(
  snap: SessionsSnapshot,
  q: RowQuery,
  rows: SessionView[],
  claude: ReadonlyMap<string, ClaudeSessionView>,
  terms: readonly string[],
  now: number,
): SessionView[] {
  const hit = withProcess.get(rows);
  if (hit && hit.claude === claude) return hit.rows;
  const kept = new Set(rows);
  let added = false;
  const all = sessionRows(snap, { filter: '', sort: q.sort, hideDone: q.hideDone });
  const out = all.filter((s) => {
    if (kept.has(s)) return true;
    const c = claude.get(s.id);
    if (!c || !matches(`${haystack(s)} ${processSearchText(processCell(s, c, now))}`, terms)) return false;
    return (added = true);
  });
  const result = added ? out : rows;
  withProcess.set(rows, { claude, rows: result });
  return result;
}

function sessionRows(snap: SessionsSnapshot, q: RowQuery | string): SessionView[] {
  const { filter, sort = 'attention', hideDone = false } = typeof q === 'string' ? { filter: q } : q;
  const f = filter.trim().toLowerCase();
  if (f === '' && sort === 'attention' && !hideDone) {
    // The store's own rows: their keys come with them (built as sessions change, not a pass per snapshot).
    if (snap.keys && !idsMemo.has(snap.sessions)) idsMemo.set(snap.sessions, snap.keys);
    return snap.sessions as SessionView[];
  }
  let byQuery = memo.get(snap);
  if (!byQuery) memo.set(snap, (byQuery = new Map()));
  const head = `${sort}\u0000${hideDone}\u0000`;
  const hit = byQuery.get(head + f);
  if (hit) return hit.rows;
  const terms = f === '' ? [] : f.split(/\s+/);
  const keep = (s: SessionView) => !(hideDone && isDone(s)) && matches(haystack(s), terms);
  // The rows this query had at the snapshot before this one, patched by what changed: a filter left on all day
  // costs a change what that change touched, not a pass over every session (10,000 sessions: ~5 ms a change).
  const last = snap.lineage ? lastRowsOf(snap.lineage) : null;
  const earlier = last?.get(head + f);
  const patched = earlier ? patch(earlier, snap, keep, rowOrder(sort)) : null;
  const result = patched ?? filterAll(snap, byQuery, head, f, terms, hideDone, sort);
  byQuery.set(head + f, result);
  if (last) rememberRows(last, head + f, snap.version, result);
  if (!idsMemo.has(result.rows)) idsMemo.set(result.rows, result.keys);
  return result.rows;
}

/** `matches` over three texts as if joined by spaces (no term holds a space), without joining them. */
function matchesEach(a: string, b: string, c: string, terms: readonly string[]): boolean {
  for (let k = 0; k < terms.length; k++) {
    const t = terms[k] as string;
    if (!a.includes(t) && !b.includes(t) && !c.includes(t)) return false;
  }
  return true;
}

function matches(h: string, terms: readonly string[]): boolean {
  // Indexed, not for-of: this runs for every row on every keystroke, and until V8 optimises it a for-of
  // allocates an iterator and a result per row (a third of a `/` keystroke's garbage at 2,000 sessions).
  for (let k = 0; k < terms.length; k++) if (!h.includes(terms[k] as string)) return false;
  return true;
}

/** Every session (or the rows of a shorter query this one extends) filtered, in the chosen order. */
function filterAll(
  snap: SessionsSnapshot,
  byQuery: Map<string, Filtered>,
  head: string,
  f: string,
  terms: readonly string[],
  hideDone: boolean,
  sort: SessionSort,
): Filtered {
  // A longer query narrows the rows of the query it extends (typing `/` letter by letter); else every session.
  const from = f === '' ? null : narrowestCached(byQuery, head, f);
  const srcRows = from ? from.rows : snap.sessions;
  const srcHay = from ? from.hay : hayOf(snap.sessions);
  const hayAt = (i: number) => (srcHay ? (srcHay[i] as string) : haystack(srcRows[i] as SessionView));
  const rows: SessionView[] = [];
  const hay: string[] = [];
  const keys: string[] = [];
  for (let i = 0; i < srcRows.length; i++) {
    const s = srcRows[i] as SessionView;
    if (hideDone && !from && isDone(s)) continue;
    const h = hayAt(i);
    if (!matches(h, terms)) continue;
    rows.push(s);
    hay.push(h);
    keys.push(from ? (from.keys[i] as string) : rowKey(s));
  }
  const order = ORDER[sort];
  // The narrowed rows are in order already (see narrowestCached); a sort moves the haystacks and keys with their rows.
  if (order && !from) sortTogether(rows, hay, keys, order);
  return { rows, hay, keys };
}

/** What each query's rows were at the last snapshot it was asked of, and that snapshot's version. */
type LastRows = Map<string, { version: number; filtered: Filtered }>;

/**
 * Per sessions domain (its snapshots' lineage: versions count per domain): a few queries each, since typing adds
 * one per letter and only the one on screen is asked again at the next change.
 */
const lastRowsByLineage = new WeakMap<object, LastRows>();
const LAST_ROWS_MAX = 8;

function lastRowsOf(lineage: object): LastRows {
  let last = lastRowsByLineage.get(lineage);
  if (!last) lastRowsByLineage.set(lineage, (last = new Map()));
  return last;
}

function rememberRows(last: LastRows, key: string, version: number, filtered: Filtered): void {
  last.delete(key);
  last.set(key, { version, filtered });
  if (last.size > LAST_ROWS_MAX) last.delete(last.keys().next().value as string);
}

/**
 * `earlier`'s rows with the views `snap` dropped taken out and its new ones that `keep` put in, each found by binary
 * search in `order`: equal to filtering and sorting every session of `snap` again (the rows are in `order`, a total
 * order). Null when `snap` does not follow `earlier`'s snapshot directly, or changed too much to patch.
 */
function patch(
  earlier: { version: number; filtered: Filtered },
  snap: SessionsSnapshot,
  keep: (s: SessionView) => boolean,
  order: (a: SessionView, b: SessionView) => number,
): Filtered | null {
  const delta: SessionsDelta | null | undefined = snap.delta;
  if (!delta || delta.from !== earlier.version || !delta.gone) return null;
  if (delta.gone.length + delta.changed.length > PATCH_MAX) return null;
  const prev = earlier.filtered;
  const next = patchSorted(prev.rows, prev.keys, delta.gone, delta.changed, (v) => (keep(v) ? rowKey(v) : null), order);
  if (!next) return prev;
  // The usual change (a loop's next iteration) puts a session's new view where its last one was: the keys are the
  // same, and the earlier array is kept (the copy dies young instead of being carried into the old generation).
  const sameKeys = next.values.length === prev.keys.length && next.values.every((k, i) => k === prev.keys[i]);
  return { rows: next.items, hay: null, keys: sameKeys ? prev.keys : next.values };
}

/**
 * A sort's order as a total order: its own comparison, ties in the store's order (compareSessions), which is where
 * the stable sort of the store's rows leaves them.
 */
const rowOrders = new Map<SessionSort, (a: SessionView, b: SessionView) => number>();
function rowOrder(sort: SessionSort): (a: SessionView, b: SessionView) => number {
  let cmp = rowOrders.get(sort);
  if (!cmp) {
    const own = ORDER[sort];
    cmp = own ? (a, b) => own(a, b) || compareSessions(a, b) : compareSessions;
    rowOrders.set(sort, cmp);
  }
  return cmp;
}

/** Sorts `rows` (stably) and keeps `hay[i]` and `keys[i]` beside `rows[i]`. */
function sortTogether(
  rows: SessionView[],
  hay: string[],
  keys: string[],
  order: (a: SessionView, b: SessionView) => number,
): void {
  const at = rows.map((_, i) => i).sort((a, b) => order(rows[a] as SessionView, rows[b] as SessionView) || a - b);
  const r = at.map((i) => rows[i] as SessionView);
  const h = at.map((i) => hay[i] as string);
  const k = at.map((i) => keys[i] as string);
  for (let i = 0; i < r.length; i++) {
    rows[i] = r[i] as SessionView;
    hay[i] = h[i] as string;
    keys[i] = k[i] as string;
  }
}

export function cycleSort(state: SessionsPaneState): SessionsPaneState {
  return { ...state, sort: SORTS[(SORTS.indexOf(state.sort) + 1) % SORTS.length] as SessionSort };
}
export const toggleHideDone = (state: SessionsPaneState): SessionsPaneState => ({
  ...state,
  hideDone: !state.hideDone,
});

/**
 * A row's identity in the list. The session-less state is shown as "legacy", but a session directory may
 * also be named `legacy` (a valid OMC session id): the two rows must never share a selection or a detail
 * view. ":" cannot occur in a session id, so this key never collides.
 */
export const LEGACY_ROW = ':legacy';
export const rowKey = (s: SessionView): string => (s.kind === 'legacy' ? LEGACY_ROW : s.id);
export const rowByKey = (rows: readonly SessionView[], key: string | undefined): SessionView | undefined =>
  key === undefined ? undefined : rows.find((r) => rowKey(r) === key);
/** The id a user reads for a row key ("(legacy)" for the session-less state). */
export const keyLabel = (key: string): string => (key === LEGACY_ROW ? LEGACY_LABEL : key);

const idsMemo = new WeakMap<readonly SessionView[], readonly string[]>();
export function idsOf(rows: readonly SessionView[]): readonly string[] {
  let ids = idsMemo.get(rows);
  if (!ids) idsMemo.set(rows, (ids = rows.map(rowKey)));
  return ids;
}

/** Index of the selected row (its identity, else its nearest neighbour); -1 for an empty list. */
export function selectedIndex(state: SessionsPaneState, rows: readonly SessionView[]): number {
  return listView(state.list, idsOf(rows), Number.MAX_SAFE_INTEGER).index;
}

export function moveSelection(
  state: SessionsPaneState,
  rows: readonly SessionView[],
  to: Move,
  height: number,
): SessionsPaneState {
  const list = moveList(state.list, idsOf(rows), to, height);
  return list === state.list ? state : { ...state, list };
}

/** Pins the selection to a session, e.g. the one being cancelled, so it stays selected when its row moves. */
export function selectId(state: SessionsPaneState, id: string): SessionsPaneState {
  return state.list.id === id ? state : { ...state, list: { ...state.list, id } };
}

export function startFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filterEditing: true };
}
export function typeFilter(state: SessionsPaneState, text: string): SessionsPaneState {
  return { ...state, filter: state.filter + text };
}
export function backspaceFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filter: Array.from(state.filter).slice(0, -1).join('') };
}
export function endFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filterEditing: false };
}
export function clearFilter(state: SessionsPaneState): SessionsPaneState {
  return { ...state, filter: '', filterEditing: false };
}

export function openDetail(state: SessionsPaneState, id: string): SessionsPaneState {
  return { ...state, list: { ...state.list, id }, detail: { id, scroll: 0, modeIndex: 0 } };
}
export function closeDetail(state: SessionsPaneState): SessionsPaneState {
  return { ...state, detail: null };
}
export function scrollDetail(
  state: SessionsPaneState,
  delta: number,
  total: number,
  height: number,
): SessionsPaneState {
  if (!state.detail) return state;
  const scroll = scrollTo(state.detail.scroll, delta, total, height);
  return scroll === state.detail.scroll ? state : { ...state, detail: { ...state.detail, scroll } };
}
export function selectDetailMode(state: SessionsPaneState, delta: number, modeCount: number): SessionsPaneState {
  if (!state.detail || modeCount === 0) return state;
  const modeIndex = (state.detail.modeIndex + delta + modeCount) % modeCount;
  return { ...state, detail: { ...state.detail, modeIndex } };
}
