/**
 * UI state (which pane, overlays, messages, each pane's own state) lives in a
 * plain external store, not in component state. Reductions happen
 * synchronously when a key arrives, so the next key — even in the same stdin
 * chunk — sees the state the previous key produced. That is what keeps a fast
 * burst or a paste from losing keys, the ink-text-input failure mode.
 */
import { SnapshotCell } from '../io/snapshot-cell.js';
import type { ListState } from './list.js';

export type PaneId = 'sessions' | 'notepad' | 'memory' | 'wiki' | 'teams' | 'history' | 'cost';

export type FlashKind = 'info' | 'success' | 'error';
export interface Flash {
  text: string;
  kind: FlashKind;
  at: number;
}

export interface ConfirmOverlay {
  kind: 'confirm';
  /** Which dialog this is ('quit', 'cancel', …): what code recognises it by, never its title. */
  id: string;
  title: string;
  lines: string[];
  /** Shown on the button line, e.g. "y: cancel the loop   n/Esc: keep it". */
  prompt: string;
  onConfirm(): void;
  onDecline?(): void;
  /** First body line shown: long dialogs (a prune of 164 entries) scroll. */
  scroll?: number;
}
/** A full-screen list of text (the help, the problems, the message log) that scrolls and closes on Esc. */
export interface TextOverlay {
  kind: 'help' | 'problems' | 'messages';
  /** The first line shown, counted at the width `at` says (ui/overlay-lines.ts textOverlayScroll). */
  scroll: number;
  /** The width `scroll` was set at, and whether that was the end: a resize keeps the entry at the top, or the end. */
  at?: { columns: number; end: boolean };
  /** The problems view is a list: the selected problem (by path and message) and its window. */
  list?: ListState;
}
export type HelpOverlay = TextOverlay;
export type Overlay = ConfirmOverlay | TextOverlay;

/** How many messages the log (one key away) keeps. */
export const MESSAGE_LOG_SIZE = 200;

export interface UiState {
  pane: PaneId;
  overlay: Overlay | null;
  flash: Flash | null;
  /** Every message shown, oldest first, with its full text (the message line may cut it). */
  log: readonly Flash[];
  panes: Record<string, unknown>;
}

export class UiStore {
  private readonly cell: SnapshotCell<UiState>;
  private flashTimer: NodeJS.Timeout | null = null;

  constructor(initial: Partial<UiState> = {}) {
    this.cell = new SnapshotCell<UiState>({
      pane: 'sessions',
      overlay: null,
      flash: null,
      log: [],
      panes: {},
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

  /** Switching panes clears an old info or success message (it was about the pane left); errors stay. */
  setPane(pane: PaneId): void {
    if (this.state.pane !== pane)
      this.update((s) => ({ ...s, pane, flash: s.flash && s.flash.kind !== 'error' ? null : s.flash }));
  }

  setOverlay(overlay: Overlay | null): void {
    this.update((s) => ({ ...s, overlay }));
  }

  /** Info and success messages fade after a few seconds; errors stay until the next one or Esc. */
  flash(text: string, kind: FlashKind = 'info', now = Date.now()): void {
    const flash = { text, kind, at: now };
    this.update((s) => ({ ...s, flash, log: [...s.log.slice(-(MESSAGE_LOG_SIZE - 1)), flash] }));
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
