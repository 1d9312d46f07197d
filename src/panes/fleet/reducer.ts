/**
 * The fleet view's UI state, outside React and reduced synchronously per key
 * (as UiStore does for the panes), so a burst of keys never reads a stale
 * state. Which root is open, the list selection (by line identity), a
 * confirmation being asked, the last message.
 */
import { fleetLines, lineId, type FleetLine, type FleetRow, type FleetSnapshot } from '../../fleet/model.js';
import { initList, listView, moveList, settleList, type ListState, type Move } from '../../ui/list.js';

export interface FleetConfirm {
  title: string;
  lines: string[];
  onYes(): void;
}

export interface FleetUiState {
  /** The local root whose panes are on screen; null = the fleet list. */
  open: string | null;
  list: ListState;
  confirm: FleetConfirm | null;
  flash: { text: string; kind: 'info' | 'error' } | null;
}

export class FleetUi {
  private state: FleetUiState = { open: null, list: initList(), confirm: null, flash: null };
  private listeners = new Set<() => void>();

  getSnapshot = () => this.state;
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  private set(next: Partial<FleetUiState>): void {
    this.state = { ...this.state, ...next };
    for (const l of [...this.listeners]) l();
  }

  open(rootId: string | null): void {
    this.set({ open: rootId });
  }
  confirm(c: FleetConfirm | null): void {
    this.set({ confirm: c });
  }
  flash(text: string, kind: 'info' | 'error' = 'info'): void {
    this.set({ flash: { text, kind } });
  }
  move(snap: FleetSnapshot, to: Move, height: number): void {
    this.set({ list: moveList(this.state.list, fleetLines(snap).map(lineId), to, height), flash: null });
  }
  /** Pins the selection to a line identity after a frame (rows that sort above it later do not take the cursor). */
  settle(snap: FleetSnapshot, height: number): void {
    const next = settleList(this.state.list, fleetLines(snap).map(lineId), height);
    if (next.id !== this.state.list.id || next.top !== this.state.list.top || next.index !== this.state.list.index)
      this.set({ list: next });
  }
}

/** The line under the cursor. */
export function selectedLine(snap: FleetSnapshot, list: ListState, height: number): FleetLine | null {
  const lines = fleetLines(snap);
  const v = listView(list, lines.map(lineId), height);
  return v.index >= 0 ? (lines[v.index] ?? null) : null;
}

/** The row a key acts on: the selected row, or a group's first row. */
export function selectedRow(line: FleetLine | null): FleetRow | null {
  if (!line) return null;
  return line.kind === 'row' ? line.row : (line.group.rows[0] ?? null);
}
