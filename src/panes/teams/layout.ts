/**
 * The teams list's layout, shared by the view and the key handlers: each team
 * takes three rows, so the window counts teams.
 */
import type { TeamView, TeamsSnapshot } from '../../store/teams/model.js';
import { listView, type ListView } from '../../kit/list.js';
import type { Size } from '../../kit/pane.js';
import { teamKeys, visibleTeams, type TeamsPaneState } from './reducer.js';

export const ROWS_PER_TEAM = 3;

export interface TeamsListLayout {
  rows: TeamView[];
  showFilter: boolean;
  /** Teams that fit. */
  height: number;
  view: ListView;
}

export function teamsListLayout(state: TeamsPaneState, snap: TeamsSnapshot, body: Size, now: number): TeamsListLayout {
  const rows = visibleTeams(snap, state.filter, now);
  const showFilter = state.filterEditing || state.filter !== '';
  const listHeight = Math.max(1, body.rows - 1 - (showFilter ? 1 : 0));
  const height = Math.max(1, Math.floor(listHeight / ROWS_PER_TEAM));
  return { rows, showFilter, height, view: listView(state.list, teamKeys(rows), height) };
}
