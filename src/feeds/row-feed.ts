/**
 * `watch --json --rows`: every session's fleet row, once at start and again
 * whenever it changes (a session that goes gets `row: null`), and the row of
 * a Claude with no OMC session that waits on a prompt omc-top can answer. Rows are
 * compared by their JSON, so a rebuilt snapshot with nothing new prints
 * nothing. Rebuilt once per turn of the loop however many cells changed.
 * A reader that falls behind is never sent a pile of stale rows: the feed
 * waits for room and then sends each row as it is by then. A settled cancel's
 * word leaves its row when its minutes are over (one timer, at the nearest
 * such end, only while a row has one): the row is sent again without it; so
 * does a rate limit's badge when its reset comes.
 */
import { rowLine } from './json-line.js';
import type { OmcStore } from '../store/store.js';
import type { AttentionMonitor } from './attention/monitor.js';
import { needsBySession, rowIdentity, rowOf, settledUntilMs, waitingClaudeRows, type RowModel } from './row.js';
import { LEGACY_KEY, sessionKey } from '../store/sessions/model.js';

export function startRowFeed(
  store: OmcStore,
  project: string,
  out: (line: string) => void,
  now: () => number,
  /** Back-pressure: while the reader is behind, rows wait (never dropped) and go out as they are by then. */
  room: { has(): boolean; on(cb: () => void): void } = { has: () => true, on: (cb) => cb() },
  monitor?: AttentionMonitor,
): (gone?: 'rows gone') => void {
  const last = new Map<string, string>();
  let stopped = false;
  /** Back-pressure: stop where the reader fell behind; the next emit carries on from the state then. */
  let first = true;
  const full = (): boolean => {
    // The first rows go out whole: "ready" follows them and promises every session's row.
    if (first || room.has()) return false;
    scheduled = true;
    room.on(() => {
      scheduled = false;
      emit();
    });
    return true;
  };
  const emit = () => {
    if (stopped) return;
    const at = now();
    const claude = store.claude.getSnapshot().bySession;
    const open = monitor?.view.getSnapshot().open ?? [];
    const needs = needsBySession(open);
    const records = store.cancelRecords.getSnapshot().records;
    const quota = store.quota.getSnapshot();
    // Keyed by the row's identity: the session-less state and a directory named legacy are two rows.
    const seen = new Set<string>();
    /** Writes `row` when it changed since last sent; false when the stream is full (the emit stops there). */
    const send = (row: RowModel, id: string, sessionless: boolean): boolean => {
      const key = rowIdentity(row);
      seen.add(key);
      const json = JSON.stringify(row);
      if (last.get(key) === json) return true;
      if (full()) return false;
      last.set(key, json);
      out(rowLine(project, id, sessionless, row, at) + '\n');
      return true;
    };
    let wordEnds = Infinity;
    const sessions = store.sessions.getSnapshot().sessions;
    for (const s of sessions) {
      const row = rowOf(s, claude.get(s.id), at, needs.get(sessionKey(s)), records.get(sessionKey(s)), quota);
      // A rate limit's reset changes the row with nothing new on disk: it is built again then too.
      wordEnds = Math.min(wordEnds, settledUntilMs(row) ?? Infinity, row.rateLimitedUntilMs ?? Infinity);
      if (!send(row, s.id, row.sessionless === true)) return clearWordEnd();
    }
    // A Claude the model counts with no session row (a plain `claude` waiting on a permission prompt): the row the
    // local fleet builds for it, so a `--host` fleet reading this stream shows it as a local project's; `row: null`
    // once its prompt is answered or it exits.
    for (const row of waitingClaudeRows(open, sessions, claude)) {
      if (!send(row, row.session, false)) return clearWordEnd();
    }
    for (const key of [...last.keys()]) {
      if (seen.has(key)) continue;
      if (full()) return clearWordEnd();
      last.delete(key);
      const sessionless = key === LEGACY_KEY;
      out(rowLine(project, sessionless ? 'legacy' : key, sessionless, null, at) + '\n');
    }
    first = false;
    armWordEnd(wordEnds, at);
  };
  /** The nearest moment a settled word leaves a row: the rows are built again then (nothing changes on disk). */
  let wordEnd: NodeJS.Timeout | null = null;
  const clearWordEnd = () => {
    if (wordEnd) clearTimeout(wordEnd);
    wordEnd = null;
  };
  const armWordEnd = (until: number, at: number) => {
    clearWordEnd();
    if (until === Infinity || stopped) return;
    wordEnd = setTimeout(
      () => {
        wordEnd = null;
        schedule();
      },
      Math.min(Math.max(0, until - at) + 5, 2 ** 31 - 1),
    );
    wordEnd.unref?.();
  };
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      emit();
    });
  };
  emit();
  // The cancel records too: another omc-top's cancel in flight is a row's word (store/cancel/in-flight.ts).
  const unsubs = [
    store.sessions.subscribe(schedule),
    store.claude.subscribe(schedule),
    store.cancelRecords.subscribe(schedule),
    // OMC's quota files: a loop the plan's limit holds says so in its row.
    store.quota.subscribe(schedule),
  ];
  if (monitor) unsubs.push(monitor.view.subscribe(schedule));
  /** `gone`: the feed moves to another root (an OMC upgrade moved it): every row it sent is said gone first. */
  return (gone?: 'rows gone') => {
    stopped = true;
    clearWordEnd();
    unsubs.forEach((u) => u());
    if (gone === undefined) return;
    const at = now();
    for (const key of last.keys()) {
      const sessionless = key === LEGACY_KEY;
      out(rowLine(project, sessionless ? 'legacy' : key, sessionless, null, at) + '\n');
    }
    last.clear();
  };
}
