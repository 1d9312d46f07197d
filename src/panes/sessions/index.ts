import { isChar, isCtrl, isKey, type InputEvent } from '../../input/keys.js';
import { ageTickMs } from '../../ui/format.js';
import type { KeyContext, PaneModule } from '../types.js';
import { detailLines } from './detail.js';
import {
  backspaceFilter,
  clearFilter,
  closeDetail,
  endFilter,
  initSessionsPane,
  moveBy,
  moveTo,
  openDetail,
  scrollDetail,
  selectDetailMode,
  selectId,
  selectedIndex,
  startFilter,
  typeFilter,
  visibleSessions,
  type SessionsPaneState,
} from './reducer.js';
import { trackerKey } from '../../store/cancel/tracker.js';
import { requestCancel } from './cancel-flow.js';
import { PAUSE_OVER_SHOW_MS, SETTLED_SHOW_MS } from './rows.js';
import { SessionsView } from './view.js';

/** Rows of the list area for the page keys; the view clamps precisely. */
const pageRows = (ctx: KeyContext<SessionsPaneState>) => Math.max(1, ctx.size.rows - 6);

function onKey(ev: InputEvent, ctx: KeyContext<SessionsPaneState>): boolean {
  const { state, set, store } = ctx;
  const snap = store.sessions.getSnapshot();

  if (state.filterEditing) {
    if (ev.kind === 'paste') {
      set((s) => typeFilter(s, ev.text.replace(/\s+/g, ' ')));
      return true;
    }
    if (isKey(ev, 'enter')) set(endFilter);
    else if (isKey(ev, 'escape')) set(clearFilter);
    else if (isKey(ev, 'backspace')) set(backspaceFilter);
    else if (ev.key.name === 'char' && !ev.key.ctrl && !ev.key.meta) set((s) => typeFilter(s, ev.key.ch));
    else if (isKey(ev, 'down') || isKey(ev, 'up')) {
      const rows = visibleSessions(snap, state.filter);
      set((s) => moveBy(s, rows, isKey(ev, 'down') ? 1 : -1));
    } else return false;
    return true;
  }
  if (ev.kind !== 'key') return false;

  if (state.detail) {
    const s = snap.sessions.find((x) => x.id === state.detail?.id);
    const tracked = s ? store.cancels.get(trackerKey(s.kind === 'legacy' ? null : s.id)) : undefined;
    const total = s ? detailLines(s, ctx.app.now(), ctx.size.columns - 1, tracked).length : 0;
    const max = Math.max(0, total - pageRows(ctx));
    if (isKey(ev, 'escape') || isKey(ev, 'backspace') || isKey(ev, 'left') || isChar(ev, 'h')) set(closeDetail);
    else if (isKey(ev, 'down') || isChar(ev, 'j')) set((st) => scrollDetail(st, 1, max));
    else if (isKey(ev, 'up') || isChar(ev, 'k')) set((st) => scrollDetail(st, -1, max));
    else if (isKey(ev, 'pagedown') || isChar(ev, ' ') || isCtrl(ev, 'd'))
      set((st) => scrollDetail(st, pageRows(ctx), max));
    else if (isKey(ev, 'pageup') || isCtrl(ev, 'u')) set((st) => scrollDetail(st, -pageRows(ctx), max));
    else if (isKey(ev, 'home') || isChar(ev, 'g')) set((st) => scrollDetail(st, -Infinity, max));
    else if (isKey(ev, 'end') || isChar(ev, 'G')) set((st) => scrollDetail(st, Infinity, max));
    else if (isKey(ev, 'tab')) set((st) => selectDetailMode(st, 1, s?.modes.length ?? 0));
    else if (isKey(ev, 'backtab')) set((st) => selectDetailMode(st, -1, s?.modes.length ?? 0));
    else if (isChar(ev, 'c') || isChar(ev, 'p')) {
      // With several modes, Tab picks the one to end; a lone mode means the whole session.
      if (s)
        requestCancel(
          ctx,
          s,
          s.modes.length > 1 ? (s.modes[state.detail.modeIndex]?.mode ?? null) : null,
          isChar(ev, 'p'),
        );
    } else return false;
    return true;
  }

  const rows = visibleSessions(snap, state.filter);
  const sel = rows[selectedIndex(state, rows)];
  if (isKey(ev, 'down') || isChar(ev, 'j')) set((s) => moveBy(s, rows, 1));
  else if (isKey(ev, 'up') || isChar(ev, 'k')) set((s) => moveBy(s, rows, -1));
  else if (isKey(ev, 'pagedown') || isCtrl(ev, 'd')) set((s) => moveBy(s, rows, pageRows(ctx)));
  else if (isKey(ev, 'pageup') || isCtrl(ev, 'u')) set((s) => moveBy(s, rows, -pageRows(ctx)));
  else if (isKey(ev, 'home') || isChar(ev, 'g')) set((s) => moveTo(s, rows, 0));
  else if (isKey(ev, 'end') || isChar(ev, 'G')) set((s) => moveTo(s, rows, rows.length - 1));
  else if (isChar(ev, '/')) set(startFilter);
  else if (isKey(ev, 'escape') && state.filter !== '') set(clearFilter);
  else if ((isKey(ev, 'enter') || isKey(ev, 'right') || isChar(ev, 'l')) && sel) set((s) => openDetail(s, sel.id));
  else if ((isChar(ev, 'c') || isChar(ev, 'p')) && sel) {
    // A cancelled session re-sorts (cancelling first, idle last): keep it selected so its countdown stays in view.
    set((s) => selectId(s, sel.id));
    requestCancel(ctx, sel, null, isChar(ev, 'p'));
  } else return false;
  return true;
}

export const sessionsPane: PaneModule<SessionsPaneState> = {
  id: 'sessions',
  title: 'Sessions',
  hotkey: 's',
  init: initSessionsPane,
  onKey,
  capturesText: (s) => s.filterEditing,
  hints: (s) =>
    s.filterEditing
      ? [
          ['type', 'filter'],
          ['⏎', 'keep'],
          ['Esc', 'clear'],
        ]
      : s.detail
        ? [
            ['↑↓', 'scroll'],
            ['Tab', 'mode'],
            ['c', 'cancel'],
            ['p', 'pause'],
            ['Esc', 'back'],
          ]
        : [
            ['↑↓ jk', 'move'],
            ['⏎', 'detail'],
            ['/', 'filter'],
            ['c', 'cancel'],
            ['p', 'pause'],
          ],
  help: [
    ['j / k, ↑ / ↓', 'move the selection'],
    ['g / G, Home / End', 'first / last session'],
    ['PgUp / PgDn, Ctrl-U / Ctrl-D', 'page up / down'],
    ['Enter, →, l', 'open the session: every mode, every field, the files'],
    ['/', 'filter rows (every word must match id, mode, status, phase or prompt)'],
    ['Esc', 'clear the filter / back from the detail view'],
    [
      'c',
      "cancel the session's loop like OMC's /cancel: shows the exact files first, then a 30 s countdown and whether it took",
    ],
    [
      'p',
      "pause: OMC's cancel signal only (30 s); the agent may stop at its next Stop event, the loop keeps its state",
    ],
    ['Tab (detail)', 'pick one mode (and its linked modes) to cancel or pause instead of the whole session'],
  ],
  View: SessionsView,
  liveCountdown(_state, store, now) {
    if (store.sessions.getSnapshot().sessions.some((s) => s.status === 'cancelling')) return true;
    for (const t of store.cancels.getSnapshot().entries.values()) if (!t.final && t.expiresMs > now) return true;
    return false;
  },
  nextTick(state, store, now) {
    const snap = store.sessions.getSnapshot();
    let next = Infinity;
    for (const s of snap.sessions) {
      next = Math.min(next, ageTickMs(s.updatedMs, now));
      if (s.status === 'cancelling') next = Math.min(next, 1000 - (now % 1000));
    }
    // omc-top's own cancels: the per-second countdown, then the moment a settled verdict leaves the row.
    for (const t of store.cancels.getSnapshot().entries.values()) {
      if (!t.final && t.expiresMs > now) next = Math.min(next, (t.expiresMs - now) % 1000 || 1000);
      else if (t.settledMs !== null) {
        const hideAt = t.settledMs + (t.phase === 'pause-over' ? PAUSE_OVER_SHOW_MS : SETTLED_SHOW_MS);
        if (hideAt > now) next = Math.min(next, hideAt - now);
      }
    }
    return next;
  },
};
