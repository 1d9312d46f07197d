/**
 * UI state (which pane, overlays, messages, each pane's own state) lives in a
 * plain external store, not in component state. Reductions happen
 * synchronously when a key arrives, so the next key — even in the same stdin
 * chunk — sees the state the previous key produced. That is what keeps a fast
 * burst or a paste from losing keys, the ink-text-input failure mode.
 */
import { SnapshotCell } from '../store/emitter.js';

export type PaneId = 'sessions' | 'notepad' | 'memory' | 'wiki' | 'teams';

export type FlashKind = 'info' | 'success' | 'error';
export interface Flash {
  text: string;
  kind: FlashKind;
  at: number;
}

export interface ConfirmOverlay {
  kind: 'confirm';
  title: string;
  lines: string[];
  /** Shown on the button line, e.g. "y: cancel the loop   n/Esc: keep it". */
  prompt: string;
  onConfirm(): void;
  onDecline?(): void;
}
export interface HelpOverlay {
  kind: 'help';
  scroll: number;
}
export interface ProblemsOverlay {
  kind: 'problems';
  scroll: number;
}
export type Overlay = ConfirmOverlay | HelpOverlay | ProblemsOverlay;

export interface UiState {
  pane: PaneId;
  overlay: Overlay | null;
  flash: Flash | null;
  panes: Record<string, unknown>;
  /** Bumped on Ctrl-L to force a full repaint. */
  redraw: number;
}

export class UiStore {
  private readonly cell: SnapshotCell<UiState>;
  private flashTimer: NodeJS.Timeout | null = null;

  constructor(initial: Partial<UiState> = {}) {
    this.cell = new SnapshotCell<UiState>({
      pane: 'sessions',
      overlay: null,
      flash: null,
      panes: {},
      redraw: 0,
      ...initial,
    });
  }

  subscribe = (l: () => void) => this.cell.subscribe(l);
  getSnapshot = () => this.cell.getSnapshot();
  get state(): UiState {
    return this.cell.getSnapshot();
  }

  update(fn: (s: UiState) => UiState): void {
    this.cell.set(fn(this.cell.getSnapshot()));
  }

  /** A pane's state, created on first use. */
  paneState<S>(id: string, init: () => S): S {
    const cur = this.state.panes[id];
    if (cur !== undefined) return cur as S;
    const s = init();
    this.update((st) => ({ ...st, panes: { ...st.panes, [id]: s } }));
    return s;
  }

  setPaneState<S>(id: string, next: S | ((s: S) => S), init: () => S): void {
    this.update((st) => {
      const cur = (st.panes[id] as S | undefined) ?? init();
      const value = typeof next === 'function' ? (next as (s: S) => S)(cur) : next;
      if (Object.is(value, cur)) return st;
      return { ...st, panes: { ...st.panes, [id]: value } };
    });
  }

  setPane(pane: PaneId): void {
    if (this.state.pane !== pane) this.update((s) => ({ ...s, pane }));
  }

  setOverlay(overlay: Overlay | null): void {
    this.update((s) => ({ ...s, overlay }));
  }

  /** Info and success messages fade after a few seconds; errors stay until the next one or Esc. */
  flash(text: string, kind: FlashKind = 'info', now = Date.now()): void {
    this.update((s) => ({ ...s, flash: { text, kind, at: now } }));
    if (this.flashTimer) clearTimeout(this.flashTimer);
    this.flashTimer = null;
    if (kind !== 'error') {
      this.flashTimer = setTimeout(() => {
        this.flashTimer = null;
        this.update((s) => (s.flash && s.flash.at === now ? { ...s, flash: null } : s));
      }, 6_000);
      this.flashTimer.unref?.();
    }
  }

  clearFlash(): void {
    if (this.state.flash) this.update((s) => ({ ...s, flash: null }));
  }

  dispose(): void {
    if (this.flashTimer) clearTimeout(this.flashTimer);
  }
}
