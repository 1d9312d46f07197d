/**
 * The one place keys are interpreted. Order: Ctrl-C; an open overlay (a
 * confirm dialog, the help, the problems, the message log) gets the key;
 * then the focused pane's bindings table; then the global keys (pane
 * switching, ?, q) — which are off while a pane has a text field open, so
 * typing "q" into a filter or the notepad never quits.
 */
import type { AppActions, AnyPaneModule, KeyContext, Size } from '../kit/pane.js';
import type { OmcStore } from '../store/store.js';
import { frameLayout, shownProblems } from '../ui/layout.js';
import { overlayShape, type OverlayInputs } from '../ui/overlay-lines.js';
import { initList, moveList, scrollTo, type Move } from '../kit/list.js';
import { paneOfProblem, problemsLayout } from '../ui/problems-view.js';
import type { Overlay, PaneId, TextOverlay, UiStore } from '../kit/ui-store.js';
import { dispatch, matchKey, type KeySpec } from '../kit/bindings.js';
import { withNeeds } from '../feeds/attention/control.js';
import { answerInputOf, isAnswerLine, withAnswers, type AnswerLine } from '../feeds/answers/items.js';
import { HELP_SECTIONS, routeAnswerKey } from './answer-keys.js';
import { isCtrl, type InputEvent } from '../terminal/keys.js';

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
export function bodyOf(env: Pick<RouterEnv, 'store' | 'size'>): Size {
  const problems = shownProblems(env.store.status.getSnapshot(), env.store.problems.getSnapshot());
  return frameLayout(env.size(), problems.length).body;
}

function overlayInputs(env: RouterEnv): OverlayInputs {
  return {
    panes: env.panes,
    globals: GLOBAL_BINDINGS,
    sections: HELP_SECTIONS,
    problems: withAnswers(
      withNeeds(shownProblems(env.store.status.getSnapshot(), env.store.problems.getSnapshot()), env.app.attention),
      answerInputOf(env.store),
    ),
    log: env.ui.state.log,
    readonly: env.store.readonly,
  };
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

function cyclePane(env: RouterEnv, delta: number): void {
  const i = env.panes.findIndex((p) => p.id === env.ui.state.pane);
  const next = env.panes[(i + delta + env.panes.length) % env.panes.length];
  if (next) env.ui.setPane(next.id);
}

export interface GlobalBinding {
  keys: readonly KeySpec[];
  help: string;
  run(env: RouterEnv): void;
}

/** Keys that work from every pane whenever no text field is open (the pane hotkeys come from the registry). */
export const GLOBAL_BINDINGS: readonly GlobalBinding[] = [
  {
    keys: ['?', 'f1'],
    help: 'this help, with the legend of statuses and symbols (Esc closes)',
    run: (e) => open(e, 'help'),
  },
  {
    keys: ['q', 'ctrl+c'],
    help: 'quit (asks first if a draft would be lost; the terminal is restored)',
    run: requestExit,
  },
  { keys: ['tab'], help: 'next pane', run: (e) => cyclePane(e, 1) },
  { keys: ['backtab'], help: 'previous pane', run: (e) => cyclePane(e, -1) },
  {
    keys: ['!'],
    help: 'list what needs you (the header\'s "needs you" count) and every problem found in .omc',
    run: (e) => open(e, 'problems'),
  },
  { keys: ['N'], help: 'turn notifications (bell, desktop, tmux) off / on', run: toggleNotifications },
  {
    keys: ['M'],
    help: 'message log: every message shown, with its time and full text',
    run: (e) => open(e, 'messages'),
  },
  { keys: ['ctrl+l'], help: 'redraw the screen', run: (e) => e.redraw() },
  {
    keys: ['O'],
    help: 'watch the next .omc root of this project (hooks started in a subdirectory keep their own; asks first)',
    run: (e) => chooseRoot(e),
  },
];

/** O: the next (other) root of the project, after asking; the store restarts on it. */
function chooseRoot(env: RouterEnv): void {
  const choice = env.app.roots;
  const roots = choice?.roots ?? [];
  if (!choice || roots.length < 2) {
    env.app.flash('no other .omc root under this project (O switches between the ones OMC hooks made)', 'info');
    return;
  }
  // A draft belongs to the root it was started on: never carry it over to another root's files.
  const lost = unsavedWork(env);
  if (lost.length > 0) {
    env.app.flash(`save or discard first (${lost.join('; ')}): a draft stays with its own root`, 'error');
    return;
  }
  const here = roots.findIndex((r) => r.abs === env.store.root);
  const next = roots[(here + 1) % roots.length] as (typeof roots)[number];
  env.app.confirm({
    title: `Watch ${next.rel} instead?`,
    lines: [
      `${next.abs}: ${next.sessions} session${next.sessions === 1 ? '' : 's'}.`,
      'Every pane shows that root until you switch again (O cycles through all of them):',
      ...roots.map((r) => `  ${r.abs === env.store.root ? '▸' : ' '} ${r.rel}`),
    ],
    prompt: `y: watch ${next.rel}   n/Esc: stay`,
    onConfirm: () => choice.switchTo(next.abs),
  });
}

/** The notifier's switch; the header says "notify off" while it is off. */
function toggleNotifications(env: RouterEnv): void {
  const a = env.app.attention;
  if (!a) {
    env.ui.flash('notifications are not running here (they run in the full-screen monitor only)', 'info');
    return;
  }
  const on = !a.notifier.isEnabled();
  a.notifier.setEnabled(on);
  env.ui.flash(
    on
      ? 'notifications on: a loop that needs you rings the bell / notifies again (N turns them off)'
      : 'notifications off: nothing rings until N turns them on again (the header count still shows)',
    'info',
  );
}

function open(env: RouterEnv, kind: 'help' | 'problems' | 'messages'): void {
  env.ui.setOverlay({ kind, scroll: 0 });
}

/** Scroll keys shared by every overlay; returns the new offset or null when the key is not a scroll key. */
function overlayScroll(ev: InputEvent, offset: number, page: number): number | null {
  const is = (...keys: KeySpec[]) => keys.some((k) => matchKey(k, ev));
  if (is('j', 'down', 'wheeldown')) return offset + 1;
  if (is('k', 'up', 'wheelup')) return offset - 1;
  if (is('pagedown', ' ', 'ctrl+d')) return offset + page;
  if (is('pageup', 'ctrl+u')) return offset - page;
  if (is('g', 'home')) return -Infinity;
  if (is('G', 'end')) return Infinity;
  return null;
}

function routeOverlay(ev: InputEvent, overlay: Overlay, env: RouterEnv): void {
  const { ui } = env;
  const body = bodyOf(env);
  const shape = overlayShape(overlay, overlayInputs(env), body);
  const scroll = (to: number) => scrollTo(0, to, shape.total, shape.height);
  const page = Math.max(1, shape.height - 1);
  if (overlay.kind === 'confirm') {
    if (matchKey('y', ev) || matchKey('Y', ev)) {
      ui.setOverlay(null);
      overlay.onConfirm();
    } else if (matchKey('n', ev) || matchKey('N', ev) || matchKey('escape', ev)) {
      ui.setOverlay(null);
      overlay.onDecline?.();
    } else if (matchKey('q', ev)) requestExit(env);
    else {
      const to = overlayScroll(ev, overlay.scroll ?? 0, page);
      if (to !== null) ui.setOverlay({ ...overlay, scroll: scroll(to) });
    }
    return;
  }
  if (matchKey('q', ev)) return requestExit(env);
  if (overlay.kind === 'problems' && routeProblems(ev, overlay, env)) return;
  if (matchKey('escape', ev) || matchKey('enter', ev) || matchKey('?', ev) || matchKey('!', ev) || matchKey('M', ev)) {
    ui.setOverlay(null);
    return;
  }
  const to = overlayScroll(ev, overlay.scroll, page);
  if (to !== null) ui.setOverlay({ ...overlay, scroll: scroll(to) });
}

function contextFor(env: RouterEnv, pane: AnyPaneModule): KeyContext<unknown> {
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

/** The problems view: the move keys move the selection, Enter opens the pane (and session) that shows the file. */
function routeProblems(ev: InputEvent, overlay: TextOverlay, env: RouterEnv): boolean {
  const problems = overlayInputs(env).problems;
  const lay = problemsLayout(problems, overlay.list, bodyOf(env));
  const is = (...keys: KeySpec[]) => keys.some((k) => matchKey(k, ev));
  const list = overlay.list ?? initList();
  const move = (to: Move) => env.ui.setOverlay({ ...overlay, list: moveList(list, lay.ids, to, lay.height) });
  if (is('j', 'down', 'wheeldown')) move(1);
  else if (is('k', 'up', 'wheelup')) move(-1);
  else if (is('pagedown', ' ', 'ctrl+d')) move({ page: 1 });
  else if (is('pageup', 'ctrl+u')) move({ page: -1 });
  else if (is('g', 'home')) move('first');
  else if (is('G', 'end')) move('last');
  else if (isAnswerLine(problems[lay.view.index] ?? { path: '' }))
    return (
      routeAnswerKey(ev, problems[lay.view.index] as AnswerLine, {
        ...env,
        open: (path) => openPath(env, path),
        reopen: () => env.ui.setOverlay(overlay),
      }) || false
    );
  else if (is('enter', 'right', 'l')) {
    const p = problems[lay.view.index];
    if (!p) return false;
    openPath(env, p.path);
  } else return false;
  return true;
}

/** Closes the overlay and opens the pane (and item) that shows the file at `path`. */
function openPath(env: RouterEnv, path: string): void {
  const target = paneOfProblem(path);
  if (!target) {
    env.ui.flash(`no pane shows ${path}`, 'info');
    return;
  }
  env.ui.setOverlay(null);
  env.ui.setPane(target.pane);
  const pane = paneById(env.panes, target.pane);
  if (pane.reveal) env.ui.setPaneState(target.pane, (st: unknown) => pane.reveal?.(st, path) ?? st, pane.init);
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
  if (overlay) {
    routeOverlay(ev, overlay, env);
    return;
  }
  if (ui.state.flash?.kind === 'error') ui.clearFlash();

  const pane = paneById(env.panes, ui.state.pane);
  if (pane.beforeKey) pane.beforeKey(contextFor(env, pane));
  const ctx = contextFor(env, pane);
  if (dispatch(pane.bindings, ev, ctx)) return;
  // ESC and the next key in one read (fast typing) decode as Alt+key; with no
  // Alt binding, that was an Esc followed by the key, as the user meant.
  if (ev.kind === 'key' && ev.key.meta && ev.key.name === 'char' && !ev.key.ctrl) {
    routeInput({ kind: 'key', key: { ...ev.key, name: 'escape', ch: '', meta: false } }, env);
    routeInput({ kind: 'key', key: { ...ev.key, meta: false } }, env);
    return;
  }
  if (pane.typing?.active(ctx.state)) {
    // A text field is open: text goes in, every other key is swallowed.
    const text =
      ev.kind === 'paste' ? ev.text : ev.key.name === 'char' && !ev.key.ctrl && !ev.key.meta ? ev.key.ch : null;
    if (text !== null) pane.typing.type(ctx, text);
    return;
  }
  if (ev.kind !== 'key') return;
  if (env.back && matchKey('escape', ev)) {
    env.back();
    return;
  }
  for (const g of GLOBAL_BINDINGS) {
    if (g.keys.some((k) => matchKey(k, ev))) {
      g.run(env);
      return;
    }
  }
  for (const p of env.panes) {
    if (matchKey(p.hotkey, ev)) {
      ui.setPane(p.id);
      return;
    }
  }
}
