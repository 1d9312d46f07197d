/**
 * The one place keys are interpreted. Order: Ctrl-C; an open overlay (a
 * confirm dialog, the help, the problems, the message log) gets the key;
 * then the focused pane's bindings table; then the global keys (pane
 * switching, ?, q) — which are off while a pane has a text field open, so
 * typing "q" into a filter or the notepad never quits.
 */
import { notifySwitchText } from '../feeds/notify/switch-words.js';
import { shellCanResume } from '../io/job-shell.js';
import type { BindingContext } from '../kit/pane.js';
import { overlayShape, scrolledTextOverlay, textOverlayScroll, type OverlayInputs } from '../ui/overlay-lines.js';
import { scrollTo, type Move } from '../kit/list.js';
import { mode, navBindings, scrollDelta } from '../kit/nav.js';
import type { ConfirmOverlay, Overlay, TextOverlay } from '../kit/ui-store.js';
import { dispatch, matchKey, type Binding, type KeySpec } from '../kit/bindings.js';
import { isAnswerLine } from '../feeds/answers/items.js';
import { HELP_SECTIONS, routeAnswerKey } from './answer-keys.js';
import { inboxLayout } from '../ui/inbox-layout.js';
import { tooSmall } from '../ui/layout.js';
import { isCtrl, type InputEvent } from '../terminal/keys.js';
import { bodyOf, contextFor, inboxRowsOf, paneById, type RouterEnv } from './env.js';
import { paneOfProblem } from '../ui/problems-view.js';
import { INBOX_BINDINGS, routeInbox } from './inbox.js';
import { shownPath } from '../io/shown-path.js';
import { clickFooter, forPane } from './clicks.js';

export { bodyOf, paneById, type RouterEnv } from './env.js';

function overlayInputs(env: RouterEnv): OverlayInputs {
  // The help's lines as drawn (app.tsx gives it the same key context): its scrolling counts the same lines.
  const here = contextFor(env, paneById(env.panes, env.ui.state.pane));
  return {
    panes: env.panes,
    globals: GLOBAL_BINDINGS,
    sections: HELP_SECTIONS,
    inbox: INBOX_BINDINGS,
    log: env.ui.state.log,
    readonly: env.store.readonly,
    current: env.ui.state.pane,
    currentState: here.state,
    currentContext: here,
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
  if (lost.length === 0 || (overlay?.kind === 'confirm' && overlay.id === 'quit')) {
    env.exit();
    return;
  }
  env.ui.setOverlay({
    kind: 'confirm',
    id: 'quit',
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

/** The context of the app's own keys (global keys, overlays): the state they act on, and the router's env. */
export interface RouterContext<S> extends BindingContext<S> {
  env: RouterEnv;
}

function routerContext<S>(env: RouterEnv, state: S, set: (next: S) => void): RouterContext<S> {
  return {
    state,
    set: (next) => set(typeof next === 'function' ? (next as (s: S) => S)(state) : next),
    app: env.app,
    env,
  };
}

/** Keys that work from every pane whenever no text field is open (the pane hotkeys come from the registry). */
export const GLOBAL_BINDINGS: readonly Binding<null, RouterContext<null>>[] = [
  {
    keys: ['?', 'f1'],
    help: 'this help, with the legend of statuses and symbols (Esc closes)',
    run: ({ env: e }) => open(e, 'help'),
  },
  {
    keys: ['q', 'ctrl+c'],
    help: 'quit (asks first if a draft would be lost; the terminal is restored)',
    run: ({ env }) => requestExit(env),
  },
  { keys: ['tab'], help: 'next pane', run: ({ env: e }) => cyclePane(e, 1) },
  { keys: ['backtab'], help: 'previous pane', run: ({ env: e }) => cyclePane(e, -1) },
  {
    keys: ['!'],
    help: "the inbox: what needs you (the header's count), oldest first, to open, jump to, cancel or acknowledge; then the problems with files",
    run: ({ env: e }) => open(e, 'problems'),
  },
  {
    keys: ['N'],
    help: 'turn notifications (bell, desktop, tmux) off / on',
    run: ({ env }) => toggleNotifications(env),
  },
  {
    keys: ['M'],
    help: 'message log: every message shown, with its time and full text',
    run: ({ env: e }) => open(e, 'messages'),
  },
  { keys: ['ctrl+l'], help: 'redraw the screen', run: ({ env: e }) => e.redraw() },
  {
    keys: ['click'],
    help: "on a pane's name in the footer: open that pane. In a list a click selects the row (the list's keys say so); where they do not (Cost, a detail, the help), only the wheel works",
    run: ({ env: e }, ev) => void clickFooter(ev, e),
  },
  {
    keys: ['O'],
    help: 'watch the next .omc root of this project (hooks started in a subdirectory keep their own; looked for again at each press; asks first)',
    run: ({ env: e }) => chooseRoot(e),
  },
];

/** O: the next (other) root of the project, after asking; the store restarts on it. */
function chooseRoot(env: RouterEnv): void {
  const choice = env.app.roots;
  // The project renamed under the monitor: found again from where it runs now, and followed (said in its words).
  if (choice?.lookAgain?.()) return;
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
    id: 'switch-root',
    title: `Watch ${shownPath(next.rel)} instead?`,
    lines: [
      `${shownPath(next.abs)}: ${next.sessions} session${next.sessions === 1 ? '' : 's'}.`,
      'Every pane shows that root until you switch again (O cycles through all of them):',
      ...roots.map((r) => `  ${r.abs === env.store.root ? '▸' : ' '} ${shownPath(r.rel)}`),
    ],
    prompt: `y: watch ${shownPath(next.rel)}   n/Esc: stay`,
    onConfirm: () => choice.switchTo(next.abs),
  });
}

/** The notifier's switch; the header says "notify off" while it is off. */
function toggleNotifications(env: RouterEnv): void {
  const a = env.app.attention?.notifier;
  if (!a) {
    env.ui.flash('notifications are not running here (they run in the full-screen monitor only)', 'info');
    return;
  }
  const on = !a.isEnabled();
  a.setEnabled(on);
  env.ui.flash(notifySwitchText(on, a.fleet === true), 'info');
}

function open(env: RouterEnv, kind: 'help' | 'problems' | 'messages'): void {
  if (kind !== 'messages') {
    env.ui.setOverlay({ kind, scroll: 0 });
    return;
  }
  // The log is newest last: it opens at its end, as a log does, so the message just cut off is in view.
  const body = bodyOf(env);
  const shape = overlayShape({ kind, scroll: 0 }, overlayInputs(env), body);
  const scroll = scrollTo(0, shape.total, shape.total, shape.height);
  env.ui.setOverlay({ kind, scroll, at: { columns: body.columns, end: true } });
}

/** An overlay's keys act on the overlay, scroll it by its own shape, and may quit. */
interface OverlayContext<O extends Overlay> extends RouterContext<O> {
  scroll(move: Move): void;
}

const ALWAYS = mode<Overlay>('', () => true);

/** Scrolling, the same keys as every list (kit/nav.ts), and Space for a page as in a pager. */
function scrollBindings<O extends Overlay>(): Binding<O, OverlayContext<O>>[] {
  return [
    ...navBindings<O, OverlayContext<O>>(ALWAYS, 'scroll', (c, move) => c.scroll(move), { hint: false }),
    { keys: [' '], help: 'scroll: a page down', run: (c) => c.scroll({ page: 1 }) },
  ];
}

const QUIT: Binding<Overlay, OverlayContext<Overlay>> = {
  keys: ['q'],
  help: 'quit (asks first if a draft would be lost)',
  run: (c) => requestExit(c.env),
};

/**
 * A confirm dialog: y does it; n, Esc or q does not (q as in the fleet's dialog: a q meant to quit what the dialog
 * came from must not quit omc-top instead); long dialogs scroll.
 */
export const CONFIRM_BINDINGS: readonly Binding<ConfirmOverlay, OverlayContext<ConfirmOverlay>>[] = [
  {
    keys: ['y', 'Y'],
    help: 'yes: do it',
    run: (c) => {
      c.env.ui.setOverlay(null);
      c.state.onConfirm();
    },
  },
  {
    keys: ['n', 'N', 'escape', 'q'],
    help: 'no: close it, nothing done',
    run: (c) => {
      c.env.ui.setOverlay(null);
      c.state.onDecline?.();
    },
  },
  ...scrollBindings<ConfirmOverlay>(),
];

/** The help and the message log: q quits, Esc (or the key that opened it) closes, the rest scrolls. */
export const TEXT_OVERLAY_BINDINGS: readonly Binding<TextOverlay, OverlayContext<TextOverlay>>[] = [
  QUIT as Binding<TextOverlay, OverlayContext<TextOverlay>>,
  {
    keys: ['escape', 'enter', '?', '!', 'M'],
    help: 'close',
    run: (c) => c.env.ui.setOverlay(null),
  },
  ...scrollBindings<TextOverlay>(),
];

function routeOverlay(ev: InputEvent, overlay: Overlay, env: RouterEnv): void {
  const { ui } = env;
  const inputs = overlayInputs(env);
  const body = bodyOf(env);
  const shape = overlayShape(overlay, inputs, body);
  const ctx = <O extends Overlay>(o: O): OverlayContext<O> => ({
    ...routerContext<O>(env, o, (next) => ui.setOverlay(next)),
    scroll: (move) => {
      // A text overlay's line numbers are those of the width it was last scrolled at: moved from where it is now.
      const from = o.kind === 'confirm' ? (o.scroll ?? 0) : textOverlayScroll(o as TextOverlay, inputs, body);
      const scroll = scrollTo(0, from + scrollDelta(move, shape.height), shape.total, shape.height);
      ui.setOverlay(
        o.kind === 'confirm' ? { ...o, scroll } : scrolledTextOverlay(o as TextOverlay, scroll, shape.total, body),
      );
    },
  });
  if (overlay.kind === 'confirm') dispatch(CONFIRM_BINDINGS, ev, ctx(overlay));
  // The inbox has its own keys (input/inbox.ts); q quits there too. A line that can be answered (a permission
  // request, an OMC gate) takes its own keys first.
  else if (overlay.kind === 'problems') {
    if (matchKey('q', ev)) requestExit(env);
    else if (!routeAnswerLine(ev, overlay, env) && !routeInbox(ev, overlay, env)) routeGlobalOver(ev, overlay, env);
  } else dispatch(TEXT_OVERLAY_BINDINGS, ev, ctx(overlay));
}

/**
 * A key the inbox has no use for is a global one, as its footer offers (`? help`, the pane letters): the inbox
 * holds no text field. A key that moves to another pane leaves the inbox behind.
 */
function routeGlobalOver(ev: InputEvent, overlay: Overlay, env: RouterEnv): void {
  if (ev.kind !== 'key') return;
  const pane = env.ui.state.pane;
  const leave = () => {
    if (env.ui.state.pane !== pane && env.ui.state.overlay === overlay) env.ui.setOverlay(null);
  };
  if (
    dispatch(
      GLOBAL_BINDINGS,
      ev,
      routerContext<null>(env, null, () => undefined),
    )
  ) {
    leave();
    return;
  }
  const target = env.panes.find((p) => matchKey(p.hotkey, ev));
  if (!target) return;
  env.ui.setOverlay(null);
  env.ui.setPane(target.id);
}

/** Keys that move through the inbox whatever line is selected; the rest go to an answer line first. */
const LIST_MOVES: readonly KeySpec[] = [
  'j',
  'down',
  'wheeldown',
  'k',
  'up',
  'wheelup',
  'pagedown',
  ' ',
  'ctrl+d',
  'pageup',
  'ctrl+u',
  'g',
  'home',
  'G',
  'end',
];

function routeAnswerLine(ev: InputEvent, overlay: TextOverlay, env: RouterEnv): boolean {
  if (LIST_MOVES.some((k) => matchKey(k, ev))) return false;
  const lay = inboxLayout(inboxRowsOf(env), overlay.list, bodyOf(env), env.app.now());
  const sel = lay.selected;
  if (sel?.kind !== 'problem' || !isAnswerLine(sel.problem)) return false;
  return routeAnswerKey(
    ev,
    sel.problem,
    { ...env, open: (path) => openPath(env, path), reopen: () => env.ui.setOverlay(overlay) },
    lay.subjectCut,
  );
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
  if (pane.reveal)
    env.ui.setPaneState(target.pane, (st: unknown) => pane.reveal?.(st, path, env.store) ?? st, pane.init);
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
    if (shellCanResume()) process.kill(process.pid, 'SIGTSTP');
    else
      env.app.flash(
        'Ctrl-Z: no shell with job control started omc-top here, so nothing could bring it back (q quits)',
        'info',
      );
    return;
  }
  // A terminal too small for the frame shows one line saying so: a key acting there would change what is not seen
  // (a pane switched, a dialog opened and answered blind). Only quitting is offered, as the line says.
  if (tooSmall(env.size())) {
    if (matchKey('q', ev)) requestExit(env);
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
  // A click goes to the pane only inside the pane's area, counted from its first row (input/clicks.ts).
  const paneEv = forPane(ev, env);
  if (paneEv && dispatch(pane.bindings, paneEv, ctx)) return;
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
  if (
    dispatch(
      GLOBAL_BINDINGS,
      ev,
      routerContext<null>(env, null, () => undefined),
    )
  )
    return;
  for (const p of env.panes) {
    if (matchKey(p.hotkey, ev)) {
      ui.setPane(p.id);
      return;
    }
  }
}
