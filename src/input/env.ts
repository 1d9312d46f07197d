/**
 * What the router works with (the stores, the panes, the app's actions, the
 * terminal size) and the helpers both the router and the inbox keys use.
 */
import type { AppActions, AnyPaneModule, KeyContext, Size } from '../kit/pane.js';
import type { OmcStore } from '../store/store.js';
import type { PaneId, UiStore } from '../kit/ui-store.js';
import type { Problem } from '../store/types.js';
import { frameLayout, shownProblems } from '../ui/layout.js';
import { inboxRows, type InboxRow } from '../ui/inbox-layout.js';
import { answerInputOf, withAnswers } from '../feeds/answers/items.js';

export interface RouterEnv {
  ui: UiStore;
  store: OmcStore;
  panes: ReadonlyArray<AnyPaneModule>;
  app: AppActions;
  size(): Size;
  exit(): void;
  redraw(): void;
  /** Opened from the fleet (`--all`): an Esc nothing else wanted goes back to it. */
  back?(): void;
}

export function paneById(panes: ReadonlyArray<AnyPaneModule>, id: PaneId): AnyPaneModule {
  return panes.find((p) => p.id === id) ?? (panes[0] as AnyPaneModule);
}

/** The pane's own area right now, as the app lays it out. */
export function bodyOf(env: Pick<RouterEnv, 'store' | 'size' | 'ui'>): Size {
  const problems = shownProblems(env.store.status.getSnapshot(), env.store.problems.getSnapshot());
  return frameLayout(env.size(), problems.length, env.ui.getSnapshot().flash).body;
}

export function contextFor(env: RouterEnv, pane: AnyPaneModule): KeyContext<unknown> {
  const { ui } = env;
  return {
    state: ui.paneState(pane.id, pane.init),
    set: (next: unknown) => ui.setPaneState(pane.id, next as never, pane.init),
    store: env.store,
    ui,
    app: env.app,
    size: env.size(),
    body: bodyOf(env),
  };
}

/**
 * The problems with files the inbox lists: the store's, the watch state's, a bad acknowledgements file and a bad
 * record of omc-top's cancels (omc-top's own state).
 */
export function inboxProblems(
  store: OmcStore,
  attention: AppActions['attention'],
): ReadonlyArray<Pick<Problem, 'path' | 'message' | 'severity'>> {
  const shown = shownProblems(store.status.getSnapshot(), store.problems.getSnapshot());
  const own = [attention?.monitor.acks?.problem, store.cancelRecords.getSnapshot().problem].flatMap((message) =>
    message ? [{ path: 'omc-top state', message, severity: 'warning' as const }] : [],
  );
  return own.length > 0 ? [...shown, ...own] : shown;
}

/** The inbox's rows as the app draws them now. */
export function inboxRowsOf(env: Pick<RouterEnv, 'store' | 'app'>): InboxRow[] {
  const attention = env.app.attention;
  // What can be answered (the hook's permission requests, OMC's gates) sits in the inbox with its own keys.
  return inboxRows(
    attention ? attention.monitor.view.getSnapshot() : null,
    withAnswers(inboxProblems(env.store, attention), answerInputOf(env.store), { readonly: env.app.readonly }),
  );
}
