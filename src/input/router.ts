/**
 * The one place keys are interpreted. Order: an open overlay (confirm, help)
 * gets the key first; then Ctrl-C; then the focused pane's key map; then the
 * global keys (pane switching, ?, q) — which are off while a pane is taking
 * typed text, so typing "q" into a filter or the notepad never quits.
 */
import type { AppActions, AnyPaneModule, Size } from '../panes/types.js';
import type { OmcStore } from '../store/store.js';
import type { PaneId, UiStore } from '../ui/ui-store.js';
import { isChar, isCtrl, isKey, type InputEvent } from './keys.js';

export interface RouterEnv {
  ui: UiStore;
  store: OmcStore;
  panes: ReadonlyArray<AnyPaneModule>;
  app: AppActions;
  size(): Size;
  exit(): void;
  redraw(): void;
}

export function paneById(panes: ReadonlyArray<AnyPaneModule>, id: PaneId): AnyPaneModule {
  return panes.find((p) => p.id === id) ?? (panes[0] as AnyPaneModule);
}

/** What quitting now would throw away, across every pane (e.g. an unsaved notepad draft). */
function unsavedWork(env: RouterEnv): string[] {
  const out: string[] = [];
  for (const p of env.panes) {
    const st = env.ui.state.panes[p.id];
    const what = st !== undefined ? p.unsaved?.(st) : null;
    if (what) out.push(`${p.title}: ${what}`);
  }
  return out;
}

/** Quit, but ask first when a draft would be lost; asking again (Ctrl-C twice) quits. */
function requestExit(env: RouterEnv): void {
  const lost = unsavedWork(env);
  const overlay = env.ui.state.overlay;
  if (lost.length === 0 || (overlay?.kind === 'confirm' && overlay.title.startsWith('Quit'))) {
    env.exit();
    return;
  }
  env.ui.setOverlay({
    kind: 'confirm',
    title: 'Quit and discard unsaved work?',
    lines: [...lost, '', 'Nothing has been written for these. Press n or Esc to go back and save (Ctrl-S).'],
    prompt: 'y / Ctrl-C: quit and discard    n / Esc: go back',
    onConfirm: () => env.exit(),
  });
}

export function routeInput(ev: InputEvent, env: RouterEnv): void {
  const { ui } = env;
  if (isCtrl(ev, 'c')) {
    requestExit(env);
    return;
  }
  // Raw mode turns Ctrl-Z into a byte: make it the signal the shell meant (src/terminal/job-control.ts).
  // Only where the full-screen CLI handles it: unhandled, SIGTSTP would stop a host process (a test runner).
  if (isCtrl(ev, 'z') && process.listenerCount('SIGTSTP') > 0) {
    process.kill(process.pid, 'SIGTSTP');
    return;
  }
  const overlay = ui.state.overlay;
  if (overlay?.kind === 'confirm') {
    if (isChar(ev, 'y') || isChar(ev, 'Y')) {
      ui.setOverlay(null);
      overlay.onConfirm();
    } else if (isChar(ev, 'n') || isChar(ev, 'N') || isKey(ev, 'escape') || isChar(ev, 'q')) {
      ui.setOverlay(null);
      overlay.onDecline?.();
    }
    return;
  }
  if (overlay?.kind === 'help' || overlay?.kind === 'problems') {
    if (isKey(ev, 'escape') || isChar(ev, '?') || isChar(ev, 'q') || isChar(ev, '!') || isKey(ev, 'enter'))
      ui.setOverlay(null);
    else if (isKey(ev, 'down') || isChar(ev, 'j')) ui.setOverlay({ ...overlay, scroll: overlay.scroll + 1 });
    else if (isKey(ev, 'up') || isChar(ev, 'k')) ui.setOverlay({ ...overlay, scroll: Math.max(0, overlay.scroll - 1) });
    else if (isKey(ev, 'pagedown') || isChar(ev, ' '))
      ui.setOverlay({ ...overlay, scroll: overlay.scroll + Math.max(1, env.size().rows - 6) });
    else if (isKey(ev, 'pageup'))
      ui.setOverlay({ ...overlay, scroll: Math.max(0, overlay.scroll - Math.max(1, env.size().rows - 6)) });
    return;
  }
  if (ui.state.flash?.kind === 'error') ui.clearFlash();

  const pane = paneById(env.panes, ui.state.pane);
  const init = pane.init;
  const state = ui.paneState(pane.id, init);
  const handled = pane.onKey(ev, {
    state,
    set: (next: unknown) => ui.setPaneState(pane.id, next as never, init),
    store: env.store,
    ui,
    app: env.app,
    size: env.size(),
  });
  if (handled) return;
  if (pane.capturesText(ui.paneState(pane.id, init))) return;

  if (isChar(ev, 'q')) {
    requestExit(env);
    return;
  }
  if (isChar(ev, '?') || isKey(ev, 'f1')) {
    ui.setOverlay({ kind: 'help', scroll: 0 });
    return;
  }
  if (isChar(ev, '!')) {
    ui.setOverlay({ kind: 'problems', scroll: 0 });
    return;
  }
  if (isCtrl(ev, 'l')) {
    env.redraw();
    return;
  }
  for (const p of env.panes) {
    if (isChar(ev, p.hotkey)) {
      ui.setPane(p.id);
      return;
    }
  }
}
