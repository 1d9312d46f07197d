import type { Move } from '../../kit/list.js';
import { recordedFlight } from '../../store/cancel/in-flight.js';
import type { Binding } from '../../kit/bindings.js';
import { ageTickMs } from '../../ui/format.js';
import { dayTurnMs, lifeOf } from '../../store/claude/life.js';
import { settleList, textWindow } from '../../kit/list.js';
import { filterBindings, filterStartBindings, mode, navBindings, scrollDelta, underTitles } from '../../kit/nav.js';
import type { KeyContext, PaneModule } from '../../kit/pane.js';
import { detailLayout, listLayout, scrollToMode } from './layout.js';
import {
  backspaceFilter,
  clearFilter,
  closeDetail,
  cycleSort,
  toggleHideDone,
  endFilter,
  initSessionsPane,
  LEGACY_ROW,
  moveSelection,
  openDetail,
  rowByKey,
  rowKey,
  rowsTheClockFilters,
  scrollDetail,
  selectDetailMode,
  selectId,
  startFilter,
  typeFilter,
  visibleSessions,
  warmFilter,
  type SessionsPaneState,
} from './reducer.js';
import { trackerKey } from '../../store/cancel/tracker.js';
import { sessionKey, signalUntilMs, type SessionView, type SessionsSnapshot } from '../../store/sessions/model.js';
import { requestCancel } from './cancel-flow.js';
import { unreadableCancelOf } from '../../store/cancel/unreadable.js';
import { rootlessCancelRefusal } from './rootless-cancel.js';
import { detailExtras } from './answer-lines.js';
import { backspaceNote, dropNoteOffer, endNote, restoreNote, startNote, typeNote } from './note-state.js';
import { OFFER_PENDING, offerBindings, offerFor, offerMode } from '../../kit/kept-drafts.js';
import { NOTE_LIMITS, noteFromKept, noteTarget, noteToKeep } from './note-kept.js';
import { sendNoteFlow } from './note-flow.js';
import { requestResume, resumeOffered, resumeUnavailable } from './resume-flow.js';
import { permissionBindings } from './permission-keys.js';
import type { PermissionRequestView } from '../../store/permissions/model.js';
import { PAUSE_OVER_SHOW_MS, SETTLED_SHOW_MS } from './rows.js';
import { SessionsView } from './view.js';
import { agentBindings } from './agent-keys.js';
import { acknowledge, openNeedsOf } from '../../feeds/attention/control.js';
import { watchForEscalation } from './escalation.js';

/** Whether a snapshot holds a session in OMC's cancel window: asked on every frame, answered once per snapshot. */
const anyCancelling = new WeakMap<SessionsSnapshot, boolean>();
function hasCancelling(snap: SessionsSnapshot): boolean {
  let c = anyCancelling.get(snap);
  if (c === undefined)
    anyCancelling.set(
      snap,
      (c = snap.cancelling !== undefined ? snap.cancelling > 0 : snap.sessions.some((s) => signalUntilMs(s) !== null)),
    );
  return c;
}

/**
 * Once `/` has drawn the filter line, and before the first letter arrives, every row's search text is built:
 * the first keystroke otherwise paid for all of them (34 ms at 2,000 sessions in one loaded run, the rest 2–12 ms).
 */
function warmFilterSoon(ctx: Ctx): void {
  setImmediate(() => warmFilter(ctx.store.sessions.getSnapshot()));
}

/** More rows than any terminal shows: the bound on the rows whose ages can be on screen. */
const MAX_SHOWN_ROWS = 400;

type Ctx = KeyContext<SessionsPaneState>;
type S = SessionsPaneState;

const noting = (s: S) => (s.note ?? null) !== null;
const FILTER = mode<S>('typing a filter', (s) => s.filterEditing);
const NOTE = mode<S>('typing a note', (s) => !s.filterEditing && noting(s));
const NOTE_OFFER = offerMode<S>(
  (s) => NOTE.test(s),
  (s) => s.noteOffer ?? null,
);
const LIST = mode<S>('list', (s) => !s.filterEditing && !noting(s) && s.detail === null && s.peek === null);
const DETAIL = mode<S>('session detail', (s) => !s.filterEditing && !noting(s) && s.detail !== null && s.peek === null);
const PEEK = mode<S>('peek', (s) => !s.filterEditing && !noting(s) && s.peek !== null);

const list = (ctx: Ctx) =>
  listLayout(
    ctx.state,
    ctx.store.sessions.getSnapshot(),
    ctx.body,
    ctx.app.now(),
    ctx.store.claude.getSnapshot().bySession,
  );
const selected = (ctx: Ctx): SessionView | undefined => {
  const l = list(ctx);
  return l.rows[l.view.index];
};
const detailSession = (ctx: Ctx) => rowByKey(ctx.store.sessions.getSnapshot().sessions, ctx.state.detail?.id);
const trackedOf = (ctx: Ctx, s: SessionView) => ctx.store.cancels.get(trackerKey(s.kind === 'legacy' ? null : s.id));
const detail = (ctx: Ctx) => {
  const s = detailSession(ctx);
  return s
    ? detailLayout(
        s,
        ctx.body,
        ctx.app.now(),
        trackedOf(ctx, s),
        ctx.store.claude.getSnapshot().bySession.get(s.id),
        detailExtras(ctx.store, s, ctx.body.columns - 1),
        ctx.store.cancelRecords.getSnapshot().records.get(sessionKey(s)),
      )
    : null;
};
/** The lines of a permission request's command that the detail's window does not show now (scrolled away). */
const subjectLinesHidden = (ctx: Ctx, r: PermissionRequestView): number => {
  const l = detail(ctx);
  if (!l) return 0;
  const w = textWindow(l.lines.length, ctx.state.detail?.scroll ?? 0, l.height);
  let hidden = 0;
  l.lines.forEach((x, i) => {
    if (x.subjectOf === r.id && (i < w.start || i >= w.end)) hidden += 1;
  });
  return hidden;
};
const nothingSelected = (ctx: Ctx) => (selected(ctx) ? null : 'no session selected');
/** A key that acts on the selected row is offered in the footer only while there is one (not on an empty list). */
const isSelected = (ctx: Ctx) => selected(ctx) !== undefined;

function pickMode(ctx: Ctx, delta: number): void {
  const s = detailSession(ctx);
  const l = detail(ctx);
  ctx.set((st) => {
    const next = selectDetailMode(st, delta, s?.modes.length ?? 0);
    if (!next.detail || !l) return next;
    return { ...next, detail: { ...next.detail, scroll: scrollToMode(l, next.detail.scroll, next.detail.modeIndex) } };
  });
}

/** c / p in the detail view: with several modes, [ ] picks the one to end; a lone mode means the whole session. */
function cancelFromDetail(ctx: Ctx, pauseOnly: boolean): void {
  const s = detailSession(ctx);
  const d = ctx.state.detail;
  if (s && !pauseOnly) watchForEscalation(ctx, s);
  // The verdict is shown at the top of the detail view: scroll there so it is seen.
  ctx.set((st) => (st.detail ? { ...st, detail: { ...st.detail, scroll: 0 } } : st));
  if (s && d) requestCancel(ctx, s, s.modes.length > 1 ? (s.modes[d.modeIndex]?.mode ?? null) : null, pauseOnly);
}

/** c / p on a row. A cancelled session re-sorts (cancelling first, idle last): keep it selected so its countdown stays in view. */
function cancelFromList(ctx: Ctx, pauseOnly: boolean): void {
  const sel = selected(ctx);
  if (!sel) return;
  ctx.set((s) => selectId(s, rowKey(sel)));
  if (!pauseOnly) watchForEscalation(ctx, sel);
  requestCancel(ctx, sel, null, pauseOnly);
}

/** a: what needs the user in this session leaves the count until it arises anew (as `a` in the inbox). */
function ackSession(ctx: Ctx, s: SessionView | undefined): void {
  if (!s) return;
  const app = ctx.app;
  void acknowledge(app.attention, openNeedsOf(app.attention, rowKey(s)), app.now()).then(
    (text) => app.flash(text, 'success'),
    (e: unknown) => app.flash(`acknowledge: ${(e as Error).message}`, 'error'),
  );
}
const ACK_HELP =
  'acknowledge what needs you in this session: it leaves the count (here, status --tmux, every omc-top) until it arises anew';
const ackBinding = (when: typeof LIST, which: (ctx: Ctx) => SessionView | undefined, hint?: string): Binding<S> => ({
  keys: ['a'],
  help: ACK_HELP,
  hint,
  when,
  // omc-top's own state directory, not .omc: still a write, and --readonly writes nothing.
  writes: true,
  readonlyText: '--readonly: nothing is written, so nothing can be acknowledged',
  disabled: (ctx) => {
    const s = which(ctx);
    if (!s) return 'no session selected';
    return openNeedsOf(ctx.app.attention, rowKey(s)).length === 0 ? 'nothing in this session needs you' : null;
  },
  run: (ctx) => ackSession(ctx, which(ctx)),
});

/**
 * c / p on a session one of whose mode files (or its directory) omc-top may not read: refused before any plan, in
 * the plan's own words (store/cancel/unreadable.ts says why neither is safe), and left out of the footer.
 */
const refusedUnread = (s: SessionView | undefined, verb: 'cancel' | 'pause'): string | null => {
  const why = s ? unreadableCancelOf(s) : null;
  return why === null ? null : `${verb}: ${why}`;
};
/** No session on screen and no `.omc` to read (rootless-cancel.ts): the reason, else null. */
const rootless = (ctx: Ctx, which: (ctx: Ctx) => SessionView | undefined, verb: 'cancel' | 'pause') =>
  which(ctx) ? null : rootlessCancelRefusal(ctx.store, verb);
const cancelKeys = (
  keys: 'c' | 'p',
  when: typeof LIST,
  which: (ctx: Ctx) => SessionView | undefined,
  run: (ctx: Ctx, pauseOnly: boolean) => void,
  noneSelected?: (ctx: Ctx) => string | null,
): Binding<S> => {
  const verb = keys === 'c' ? 'cancel' : 'pause';
  return {
    keys: [keys],
    help: keys === 'c' ? CANCEL_HELP : PAUSE_HELP,
    hint: verb,
    when,
    writes: true,
    disabled: (ctx) => rootless(ctx, which, verb) ?? noneSelected?.(ctx) ?? refusedUnread(which(ctx), verb),
    // Offered only on a session it can act on: not on an empty list (or a filter that matches nothing).
    offered: (ctx) => {
      const s = which(ctx);
      return s !== undefined && refusedUnread(s, verb) === null;
    },
    run: (ctx) => run(ctx, keys === 'p'),
  };
};

const CANCEL_HELP =
  "cancel the session's loop like OMC's /cancel: shows the exact files first, then a 30 s countdown and whether it took";
const PAUSE_HELP =
  "pause: OMC's cancel signal only (30 s); the agent may stop at its next Stop event, the loop keeps its state";

/** One move for the list's keys and the filter field's ↑↓. */
const moveRows = (ctx: Ctx, to: Move) => {
  const l = list(ctx);
  ctx.set((s) => moveSelection(s, l.rows, to, l.height));
};

const NOTE_HELP =
  "a note to the session's Claude, through its own inbox socket: it arrives between tool calls, or starts a turn when idle";
const RESUME_HELP =
  'resume a loop whose Claude process is gone: says what OMC would do, then claude --resume in a new tmux window';
const legacyOnly = (s: SessionView | undefined) =>
  !s ? 'no session selected' : s.kind === 'legacy' ? 'the session-less (legacy) state has no Claude session' : null;

const resumeBinding = (when: typeof LIST, which: (ctx: Ctx) => SessionView | undefined): Binding<S> => ({
  keys: ['r'],
  help: RESUME_HELP,
  hint: 'resume',
  when,
  // Not a write to .omc, but it starts a process: --readonly leaves everything alone.
  writes: true,
  readonlyText: '--readonly: resume is disabled (nothing is started)',
  disabled: (ctx) => {
    const s = which(ctx);
    return legacyOnly(s) ?? (s ? resumeUnavailable(ctx.store, s) : null);
  },
  offered: (ctx) => {
    const s = which(ctx);
    return !!s && resumeOffered(ctx.store, s);
  },
  run: (ctx) => {
    const s = which(ctx);
    if (s) requestResume(ctx.store, ctx.app, s);
  },
});

const noteBindings: Binding<S>[] = [
  {
    keys: ['m'],
    help: NOTE_HELP,
    hint: 'note',
    when: DETAIL,
    writes: true,
    readonlyText: '--readonly: notes are disabled (nothing is sent)',
    disabled: (ctx) => legacyOnly(detailSession(ctx)),
    run: (ctx) => {
      const s = detailSession(ctx);
      if (!s) return;
      // A note kept for this session at the last hang-up is offered before anything is typed.
      const offer = offerFor(ctx.store.drafts, noteTarget(s.id), NOTE_LIMITS, (d) => noteFromKept(d, s.id));
      ctx.set((st) => startNote(st, s.id, offer));
    },
  },
  ...offerBindings(NOTE_OFFER, (s) => s.noteOffer ?? null, { restore: (c) => c.set(restoreNote), drop: dropNoteOffer }),
  {
    keys: ['enter'],
    help: 'send the note',
    hint: 'send',
    when: NOTE,
    run: (ctx) => {
      if (ctx.state.noteOffer) {
        ctx.app.flash(OFFER_PENDING, 'info');
        return;
      }
      const text = ctx.state.note?.text ?? '';
      const s = detailSession(ctx);
      ctx.set(endNote);
      if (s) sendNoteFlow(ctx.store, ctx.app, s, text);
    },
  },
  {
    keys: ['escape'],
    help: 'drop the note (nothing is sent)',
    hint: 'cancel',
    when: NOTE,
    run: (ctx) => ctx.set(endNote),
  },
  { keys: ['backspace'], help: 'delete the last character', when: NOTE, run: (ctx) => ctx.set(backspaceNote) },
];

const bindings: Binding<S>[] = [
  ...noteBindings,
  // First in the detail's footer while a request waits: the session is blocked on it.
  ...permissionBindings(DETAIL, detailSession, subjectLinesHidden),
  ...filterBindings(FILTER, {
    keep: endFilter,
    clear: clearFilter,
    backspace: backspaceFilter,
    move: moveRows,
  }),
  ...navBindings(LIST, 'selection', moveRows, { place: (ctx) => underTitles(list(ctx)) }),
  {
    keys: ['enter', 'right', 'l'],
    help: 'open the session: every mode, every field, the files',
    hint: 'detail',
    when: LIST,
    disabled: nothingSelected,
    offered: isSelected,
    run: (ctx) => {
      const sel = selected(ctx);
      if (sel) ctx.set((s) => openDetail(s, rowKey(sel)));
    },
  },
  ...filterStartBindings(
    LIST,
    'filter rows: every word must be in the row, hidden columns included (CLAUDE and waits: too)',
    {
      start: startFilter,
      clear: clearFilter,
      filtered: (s) => s.filter !== '',
    },
  ).map((b) =>
    b.keys.includes('/')
      ? { ...b, run: (ctx: Ctx, ev: Parameters<typeof b.run>[1]) => (b.run(ctx, ev), warmFilterSoon(ctx)) }
      : b,
  ),
  cancelKeys('c', LIST, selected, cancelFromList, nothingSelected),
  cancelKeys('p', LIST, selected, cancelFromList, nothingSelected),
  // Before sort and hide: while a loop's Claude is gone, its resume hint is what the footer should still fit.
  resumeBinding(LIST, selected),
  {
    keys: ['S'],
    help: 'sort rows: attention (what needs you first) → most recently updated → furthest along → id',
    hint: 'sort',
    when: LIST,
    run: (ctx) => ctx.set(cycleSort),
  },
  {
    keys: ['H'],
    help: 'hide / show finished, idle and stale sessions',
    hint: 'hide done/stale',
    when: LIST,
    run: (ctx) => ctx.set(toggleHideDone),
  },
  ...agentBindings({ LIST, DETAIL, PEEK }, (ctx) => (ctx.state.detail ? detailSession(ctx) : selected(ctx))),
  resumeBinding(DETAIL, detailSession),
  ackBinding(LIST, selected),
  ackBinding(DETAIL, detailSession),
  ...navBindings(
    DETAIL,
    'scroll',
    (ctx, to) => {
      const l = detail(ctx);
      if (l) ctx.set((s) => scrollDetail(s, scrollDelta(to, l.height), l.lines.length, l.height));
    },
    { hint: false },
  ),
  {
    keys: [' '],
    help: 'scroll a page down',
    when: DETAIL,
    run: (ctx) => {
      const l = detail(ctx);
      if (l) ctx.set((s) => scrollDetail(s, scrollDelta({ page: 1 }, l.height), l.lines.length, l.height));
    },
  },
  {
    keys: [']'],
    help: 'pick the next mode (and its linked modes) to cancel or pause instead of the whole session',
    hint: 'mode',
    hintKeys: '[ ]',
    when: DETAIL,
    run: (ctx) => pickMode(ctx, 1),
  },
  { keys: ['['], help: 'pick the previous mode', when: DETAIL, run: (ctx) => pickMode(ctx, -1) },
  cancelKeys('c', DETAIL, detailSession, cancelFromDetail),
  cancelKeys('p', DETAIL, detailSession, cancelFromDetail),
  {
    keys: ['escape', 'backspace', 'left', 'h'],
    help: 'back to the list',
    hint: 'back',
    when: DETAIL,
    run: (ctx) => ctx.set(closeDetail),
  },
];

export const sessionsPane: PaneModule<SessionsPaneState> = {
  id: 'sessions',
  title: 'Sessions',
  hotkey: 's',
  init: initSessionsPane,
  bindings,
  typing: {
    active: (s) => s.filterEditing || noting(s),
    type: (ctx, text) => {
      if (noting(ctx.state) && !ctx.state.filterEditing && ctx.state.noteOffer) ctx.app.flash(OFFER_PENDING, 'info');
      else
        ctx.set((s) =>
          noting(s) && !s.filterEditing
            ? typeNote(s, text.replace(/[\r\n]+/g, ' '))
            : typeFilter(s, text.replace(/\s+/g, ' ')),
        );
    },
  },
  sources: (store) => [store.sessions.subscribe],
  unsaved: (s) => (s.note && s.note.text.trim() !== '' ? 'a note being typed (not sent)' : null),
  keptDraft: (s) => (s.note ? noteToKeep(s.note) : null),
  reveal(state, path, store) {
    // A session's file opens that session; a session-less state file opens the "legacy" row (its own key,
    // never a directory that happens to be named legacy). A mode's own file picks that mode (c then cancels it).
    const m = /^state\/sessions\/([^/]+)\//.exec(path);
    if (m?.[1]) {
      const next = openDetail(state, m[1]);
      const s = store?.sessions.getSnapshot().sessions.find((x) => x.kind === 'session' && x.id === m[1]);
      const i = s ? s.modes.findIndex((x) => x.path === path) : -1;
      return i > 0 && next.detail ? { ...next, detail: { ...next.detail, modeIndex: i } } : next;
    }
    if (/^state\/[^/]+-state\.json$/.test(path)) return openDetail(state, LEGACY_ROW);
    return state;
  },
  settle(state, store, body, now) {
    if (state.detail) return state;
    const snap = store.sessions.getSnapshot();
    // During the sliced first read rows keep arriving, and many sort above those of the first frame. Until
    // the user picks a row, the cursor stays on the top row instead of following the first frame's top row
    // down the list; once the user moves, the selection is an identity as always.
    if (state.list.id === null && snap.scanning) return state;
    const l = listLayout(state, snap, body, now, store.claude.getSnapshot().bySession);
    const next = settleList(state.list, l.ids, l.height);
    return next === state.list ? state : { ...state, list: next };
  },
  View: SessionsView,
  liveCountdown(_state, store, now) {
    if (hasCancelling(store.sessions.getSnapshot())) return true;
    for (const t of store.cancels.getSnapshot().entries.values())
      if (!t.final && (t.expiresMs > now || t.phase === 'ended')) return true;
    // Another omc-top's cancel (its record): its window, and a "stopping" counted in seconds after it.
    for (const r of store.cancelRecords.getSnapshot().records.values())
      if (r.expiresMs > now || (now >= r.requestedMs && now - r.requestedMs < 120_000)) return true;
    return false;
  },
  nextTick(state, store, now, body) {
    const snap = store.sessions.getSnapshot();
    let next = Infinity;
    // Only rows that can be on screen repaint for passing time: the list window drawn (without the frame's
    // size, no terminal is taller than MAX_SHOWN_ROWS), or the one session the detail shows. A pass over
    // 10,000 sessions per frame, and repaints for ages nobody can see, cost idle CPU for nothing.
    let shown: readonly SessionView[];
    if (state.detail) shown = snap.sessions.filter((s) => rowKey(s) === state.detail?.id);
    else if (body) {
      const l = listLayout(state, snap, body, now, store.claude.getSnapshot().bySession);
      shown = l.rows.slice(l.view.top, l.view.top + l.height);
    } else {
      const rows = visibleSessions(snap, state, now, store.claude.getSnapshot().bySession);
      // The window is clamped to the list's end when drawn: start where it can start at the latest.
      const from = Math.max(0, Math.min(state.list.top, rows.length - MAX_SHOWN_ROWS));
      shown = rows.slice(from, from + MAX_SHOWN_ROWS);
    }
    const claude = store.claude.getSnapshot().bySession;
    // A filter word an age may hold ("5h"): a row the filter leaves out now may read it at the next turn of its age
    // (or of its process cell's), and one shown may stop reading it.
    for (const s of rowsTheClockFilters(snap, state, now, claude)) {
      next = Math.min(next, ageTickMs(s.updatedMs, now));
      const proc = claude.get(s.id)?.process;
      if (proc) next = Math.min(next, ageTickMs(proc.since, now));
    }
    const records = store.cancelRecords.getSnapshot().records;
    for (const s of shown) {
      next = Math.min(next, ageTickMs(s.updatedMs, now));
      if (signalUntilMs(s) !== null) next = Math.min(next, 1000 - (now % 1000));
      // A cancel in flight another omc-top made (its record): "ended 23s" down, "stopping 47s" up.
      const rec = records.get(sessionKey(s));
      const w = rec ? recordedFlight(rec, s, claude.get(s.id), now) : null;
      if (w?.untilMs != null) next = Math.min(next, (w.untilMs - now) % 1000 || 1000);
      else if (w?.sinceMs != null) {
        const since = now - w.sinceMs;
        next = Math.min(next, since < 120_000 ? 1000 - (since % 1000) : 60_000 - (since % 60_000));
      }
      // Another omc-top's settled verdict (its record) leaves the row after its minutes, as this monitor's own does.
      const hideAt = rec?.settled ? rec.settled.atMs + SETTLED_SHOW_MS : null;
      if (hideAt !== null && hideAt > now) next = Math.min(next, hideAt - now);
      // The process cell's age ("busy 3m"): on the same batched grid as the rows' ages.
      const proc = claude.get(s.id)?.process;
      if (proc) next = Math.min(next, ageTickMs(proc.since, now));
      // "exited 23:10" turns to "exited yesterday 23:10" at midnight (UTC).
      if (lifeOf(claude.get(s.id)).status === 'exited') next = Math.min(next, dayTurnMs(now));
    }
    // omc-top's own cancels: the per-second countdown, then the moment a settled verdict leaves the row.
    for (const t of store.cancels.getSnapshot().entries.values()) {
      if (!t.final && t.expiresMs > now) next = Math.min(next, (t.expiresMs - now) % 1000 || 1000);
      // "stopping 46s" counts up from the cancel until Claude is seen to stop: seconds, then minutes.
      else if (!t.final && t.phase === 'ended') {
        const since = now - t.requestedMs;
        next = Math.min(next, since < 120_000 ? 1000 - (since % 1000) : 60_000 - (since % 60_000));
      } else if (t.settledMs !== null) {
        const hideAt = t.settledMs + (t.phase === 'pause-over' ? PAUSE_OVER_SHOW_MS : SETTLED_SHOW_MS);
        if (hideAt > now) next = Math.min(next, hideAt - now);
      }
    }
    return next;
  },
};
