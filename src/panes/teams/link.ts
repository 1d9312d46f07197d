/**
 * "The team's session row in the sessions pane links here": when the user
 * selected a team session in the sessions pane and then opens this pane, the
 * session's team is preselected. Derived, not pushed: the sessions pane is not
 * touched. Both the view (first render) and the key map resolve the same
 * effective state from the current sessions selection and `anchorSession`.
 */
import type { SessionsPaneState } from '../sessions/reducer.js';
import { initSessionsPane, selectedIndex, visibleSessions } from '../sessions/reducer.js';
import type { OmcStore } from '../../store/store.js';
import type { TeamView, TeamsSnapshot } from '../../store/teams/model.js';
import type { UiStore } from '../../kit/ui-store.js';
import type { TeamsPaneState } from './reducer.js';

export interface SessionsSelection {
  /** What the user selected in the sessions pane (ui.state.panes.sessions.list.id). */
  explicit: string | null;
  /** The row the sessions pane shows as selected (the first visible row until the user moves). */
  shown: string | null;
}

export function sessionsSelection(ui: UiStore, store: OmcStore, now: number): SessionsSelection {
  const s = ui.state.panes.sessions as SessionsPaneState | undefined;
  const explicit = s?.list.id ?? null;
  // At the clock the sessions pane draws its rows with: a filter word of an age keeps the rows it keeps there.
  const rows = visibleSessions(store.sessions.getSnapshot(), s ?? initSessionsPane(), now);
  const i = selectedIndex(s ?? initSessionsPane(), rows);
  return { explicit, shown: i < 0 ? null : (rows[i]?.id ?? null) };
}

/** The team a session owns (a running one first). */
export function teamOfSession(snap: TeamsSnapshot, sessionId: string | null): TeamView | null {
  if (!sessionId) return null;
  const owned = snap.teams.filter((t) => t.owner?.sessionId === sessionId);
  return owned.find((t) => t.board === 'running') ?? owned[0] ?? null;
}

/**
 * The pane state after following the sessions selection. It follows only
 * what the user did there: the explicit selection, compared with the one we
 * last synced with (the implied first row moves whenever sessions re-sort,
 * which must not yank the user out of a team they opened). The very first
 * time, before any sync, the row the sessions pane shows as selected counts.
 */
export function followSessions(state: TeamsPaneState, sel: SessionsSelection, snap: TeamsSnapshot): TeamsPaneState {
  if (state.anchorSession !== undefined && state.anchorSession === sel.explicit) return state;
  const team = teamOfSession(snap, state.anchorSession === undefined ? (sel.explicit ?? sel.shown) : sel.explicit);
  if (!team) return { ...state, anchorSession: sel.explicit };
  const stay = state.detail?.key === team.key;
  return {
    ...state,
    anchorSession: sel.explicit,
    list: { ...state.list, id: team.key },
    filter: stay ? state.filter : '',
    filterEditing: false,
    detail: stay ? state.detail : null,
  };
}
