/**
 * The contract every pane follows: a pure reducer (state transitions), a key
 * map that turns a key into transitions or effects, and a view that only reads.
 */
import type { ComponentType } from 'react';
import type { InputEvent } from '../input/keys.js';
import type { OmcStore } from '../store/store.js';
import type { ConfirmOverlay, FlashKind, PaneId, UiStore } from '../ui/ui-store.js';

export interface Size {
  columns: number;
  rows: number;
}

/** What a pane's key map may do besides changing its own state. */
export interface AppActions {
  flash(text: string, kind?: FlashKind): void;
  confirm(c: Omit<ConfirmOverlay, 'kind'>): void;
  /** Runs an async effect (a write, a cancel); a rejection becomes an error message, never a crash. */
  run(label: string, effect: () => Promise<void> | void): void;
  openPane(id: PaneId): void;
  /** Leaves the alternate screen, runs `fn` with the terminal in cooked mode (e.g. $EDITOR), then comes back. */
  suspend<T>(fn: () => Promise<T>): Promise<T>;
  readonly readonly: boolean;
  now(): number;
}

export interface KeyContext<S> {
  state: S;
  set(next: S | ((s: S) => S)): void;
  store: OmcStore;
  ui: UiStore;
  app: AppActions;
  size: Size;
}

export interface ViewProps<S> {
  state: S;
  store: OmcStore;
  width: number;
  height: number;
  now: number;
  /** Read-only access to other panes' state (the teams pane follows the sessions selection). */
  ui?: UiStore;
}

export interface PaneModule<S> {
  id: PaneId;
  title: string;
  /** Global key that opens this pane (shown in the footer). */
  hotkey: string;
  init(): S;
  /** Returns true when the key was used. */
  onKey(ev: InputEvent, ctx: KeyContext<S>): boolean;
  /** While true, printable keys go to the pane (typing), not to global shortcuts. */
  capturesText(state: S): boolean;
  /** Footer hints for the current state: [keys, what]. */
  hints(state: S): Array<[string, string]>;
  /** Lines for the ? overlay. */
  help: Array<[string, string]>;
  View: ComponentType<ViewProps<S>>;
  /** A short description of work that quitting now would lose (an unsaved draft), or null. */
  unsaved?(state: S): string | null;
  /**
   * True while the view shows something that must tick on the second (a
   * cancel countdown). Otherwise time-driven repaints are batched on a 5 s grid.
   */
  liveCountdown?(state: S, store: OmcStore, now: number): boolean;
  /** Next time the view's time-derived text changes (ages, countdowns), for the repaint ticker. */
  nextTick?(state: S, store: OmcStore, now: number): number;
}

/** The registry holds panes whose state types differ; each pane's own code stays fully typed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPaneModule = PaneModule<any>;
