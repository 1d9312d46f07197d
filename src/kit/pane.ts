/**
 * The contract every pane follows: a pure reducer (state transitions), a key
 * map that turns a key into transitions or effects, and a view that only reads.
 */
import type { ComponentType } from 'react';
import type { InputEvent } from '../terminal/keys.js';
import type { AttentionControl } from '../feeds/attention/control.js';
import type { OmcStore } from '../store/store.js';
import type { ConfirmOverlay, FlashKind, PaneId, UiStore } from './ui-store.js';
import type { Obj } from '../io/json.js';
import type { FieldLimits } from '../store/drafts/draft-file.js';

export interface Size {
  columns: number;
  rows: number;
}

/** What a pane's key map may do besides changing its own state. */
/** The .omc roots one project holds (OMC hooks started in a subdirectory keep their own) and a way to watch another. */
export interface RootChoice {
  /** Every root: the one resolved at start first, then the nested ones found under the project. */
  roots: ReadonlyArray<{ rel: string; abs: string; sessions: number }>;
  /** Restarts the store on `abs` (the screen, the watcher, the attention layer follow it). */
  switchTo(abs: string): void;
  /**
   * The project's own root looked for again where the monitor runs now (a renamed project: cli.tsx moveFollower);
   * true when the monitor moved to it (and said so): O then does nothing more.
   */
  lookAgain?(): boolean;
}

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
  /** Other .omc roots of this project, when the app can switch to them (the full-screen UI). */
  readonly roots?: RootChoice;
  /** The attention layer (needs-you count, notifier switch) when the full-screen app runs one. */
  readonly attention?: AttentionControl | null;
}

export interface KeyContext<S> {
  state: S;
  set(next: S | ((s: S) => S)): void;
  store: OmcStore;
  ui: UiStore;
  app: AppActions;
  /** The terminal. */
  size: Size;
  /** The pane's own area (what its view is given): key handlers page and clamp with this. */
  body: Size;
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
  /**
   * The pane's keys, as data: the router dispatches from this table and the
   * footer, the `?` help and the README key table are generated from it.
   */
  bindings: readonly Binding<S>[];
  /**
   * While a text field is open (an editor, a filter being typed) every key
   * goes to the pane: the bindings whose mode is a typing mode first, then
   * printable text and pastes to `type`. Global keys (q, hotkeys) are off.
   */
  typing?: { active(s: S): boolean; type(ctx: KeyContext<S>, text: string): void };
  /**
   * Pins list selections to what is on screen (a null selection becomes the
   * first row's identity, the scroll window follows its item). Called after
   * every frame; returns `state` itself when nothing changed.
   */
  /** Runs before each key reaches the bindings (the teams pane follows the sessions selection here). */
  beforeKey?(ctx: KeyContext<S>): void;
  /**
   * Shows what the file at `path` (relative to the root) belongs to: Enter on a problem line or an inbox item
   * opens its item (with the store, a session's mode file also picks that mode).
   */
  reveal?(state: S, path: string, store?: OmcStore): S;
  settle?(state: S, store: OmcStore, body: Size, now: number): S;
  /** What the pane's lists come from: `settle` runs again when one of these changes (not only on a frame of the app). */
  sources?(store: OmcStore): ReadonlyArray<(listener: () => void) => () => void>;
  View: ComponentType<ViewProps<S>>;
  /** A short description of work that quitting now would lose (an unsaved draft), or null. */
  unsaved?(state: S): string | null;
  /**
   * The unsaved draft to keep when the process is ended without asking (a hang-up, SIGTERM, a crash:
   * kit/kept-drafts.ts), or null. The same editor offers it back when it next opens on this root.
   */
  keptDraft?(state: S): DraftToKeep | null;
  /**
   * True while the view shows something that must tick on the second (a
   * cancel countdown). Otherwise time-driven repaints are batched on a 5 s grid.
   */
  liveCountdown?(state: S, store: OmcStore, now: number): boolean;
  /**
   * Next time the view's time-derived text changes (ages, countdowns), for the repaint ticker. `body` is the
   * pane's size in the frame just drawn (absent outside a frame): only what fits there can be on screen.
   */
  nextTick?(state: S, store: OmcStore, now: number, body?: Size): number;
}

/** What a pane hands over to keep: the text of its field(s), what the user had chosen, each field's own limit. */
export interface DraftToKeep {
  /** The field (store/drafts/kept-drafts.ts: one file per root, target and hang-up). */
  target: string;
  /** What it is, for the line printed at exit: "Working Memory draft". */
  label: string;
  /** Where it is offered back, for the same line: "a, i or e on Working Memory". */
  offeredAt: string;
  /** What the user had chosen (the entry, the directive, the session), in the pane's own words. */
  item: Obj;
  fields: Record<string, string>;
  limits: FieldLimits;
}

/** The registry holds panes whose state types differ; each pane's own code stays fully typed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPaneModule = PaneModule<any>;

/**
 * A key as written in a table: a single character ('j', 'G', '/', ' '), a
 * named key ('down', 'enter', 'escape', 'pagedown', 'backtab', 'f1'), or a
 * Ctrl combination ('ctrl+d').
 */
export type KeySpec = string;

/** A named state of a pane ("list", "detail") in which some bindings apply; the help groups by it. */
export interface Mode<S> {
  name: string;
  test(s: S): boolean;
}

/**
 * What a binding's run needs at least: the state, a way to change it, and the
 * app's message line and --readonly flag. Panes get a KeyContext; the fleet
 * view (panes/fleet/keys.ts) its own context with the same core.
 */
export interface BindingContext<S> {
  state: S;
  set(next: S | ((s: S) => S)): void;
  app: Pick<AppActions, 'flash' | 'readonly'>;
}

export interface Binding<S, C extends BindingContext<S> = KeyContext<S>> {
  keys: readonly KeySpec[];
  /** What it does, for the `?` help and the README. */
  help: string;
  /** Short footer label; absent = not in the footer. */
  hint?: string;
  /** How the footer writes the keys (default: the first key), e.g. '↑↓ jk'. */
  hintKeys?: string;
  /** How the help and the README write the keys, when listing each would widen the key column for one row. */
  helpKeys?: string;
  /** The state it applies in; absent = whenever the pane has no text field open. */
  when?: Mode<S>;
  /** It writes to .omc: disabled under --readonly (shown as such in the help, left out of the footer). */
  writes?: boolean;
  /** What pressing it under --readonly says (default: "--readonly: <hint> is disabled (nothing is written)"). */
  readonlyText?: string;
  /** Why it cannot run right now (e.g. "no entry selected"), or null. */
  disabled?(ctx: C): string | null;
  /**
   * Whether the key does something for what is on screen now; false keeps its hint out of the footer (y / n on a
   * session only while its Claude waits on a permission request). Absent = always offered.
   */
  offered?(ctx: C): boolean;
  run(ctx: C, ev: InputEvent): void;
}
