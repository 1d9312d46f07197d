/**
 * "The team's session row in the sessions pane links here": when the user
 * selected a team session in the sessions pane and then opens this pane, the
 * session's team is preselected. Derived, not pushed: the sessions pane is not
 * touched. Both the view (first render) and the key map resolve the same
 * effective state from the current sessions selection and `anchorSession`.
 */
import type { SessionsPaneState } from '../sessions/reducer.js';
import { selectedIndex, visibleSessions } from '../sessions/reducer.js';
import type { OmcStore } from '../../store/store.js';
import type { TeamView, TeamsSnapshot } from '../../store/team/model.js';
import type { UiStore } from '../../ui/ui-store.js';
import type { TeamsPaneState } from './reducer.js';

/** The session row the sessions pane shows as selected (its fallback is the first visible row). */
export function sessionsSelection(ui: UiStore, store: OmcStore): string | null {
  const s = ui.state.panes.sessions as SessionsPaneState | undefined;
  const snap = store.sessions.getSnapshot();
  const rows = visibleSessions(snap, s?.filter ?? '');
  const i = selectedIndex(s ?? { selectedId: null, top: 0, filter: '', filterEditing: false, detail: null }, rows);
  return i < 0 ? null : (rows[i]?.id ?? null);
}

/** The team a session owns (a running one first). */
export function teamOfSession(snap: TeamsSnapshot, sessionId: string | null): TeamView | null {
  if (!sessionId) return null;
  const owned = snap.teams.filter((t) => t.owner?.sessionId === sessionId);
  return owned.find((t) => t.board === 'running') ?? owned[0] ?? null;
}

/**
 * The pane state after following the sessions selection: unchanged while the
 * sessions selection is the one we last synced with; otherwise the selected
 * session's team becomes the selection (list view), and the anchor moves.
 */
export function followSessions(state: TeamsPaneState, sessionId: string | null, snap: TeamsSnapshot): TeamsPaneState {
  if (state.anchorSession === sessionId) return state;
  const team = teamOfSession(snap, sessionId);
  if (!team) return { ...state, anchorSession: sessionId };
  const stay = state.detail?.key === team.key;
  return { ...state, anchorSession: sessionId, selectedKey: team.key, filter: stay ? state.filter : '', filterEditing: false, detail: stay ? state.detail : null };
}
