/**
 * The inbox's keys (`!`), as a bindings table like every pane's: the router
 * dispatches from it, and the footer and the `?` help are generated from it.
 * Acting on an item goes through the pane that shows it: Enter opens the
 * session (or the pane of a file), J and c open the session and press the
 * Sessions pane's own jump and cancel (the same checks and confirmation).
 */
import { dispatch, type Binding, type BindingContext } from '../kit/bindings.js';
import type { ListState, Move } from '../kit/list.js';
import { mode, navBindings } from '../kit/nav.js';
import type { InputEvent } from '../terminal/keys.js';
import { acknowledge } from '../feeds/attention/control.js';
import { isPermissionNeed, type NeedItem } from '../feeds/attention/needs.js';
import { isAnswerLine } from '../feeds/answers/items.js';
import { LEGACY_KEY } from '../store/sessions/model.js';
import { teamShutdownCommand } from '../store/teams/omc-team-rules.js';
import { paneReachable, reachAdvice } from '../store/claude/attention.js';
import { paneTakenText } from '../store/claude/join-words.js';
import { inboxLayout, moveInbox, type InboxLayout, type InboxRow } from '../ui/inbox-layout.js';
import { paneOfProblem } from '../ui/problems-view.js';
import type { TextOverlay } from '../kit/ui-store.js';
import { bodyOf, contextFor, inboxRowsOf, paneById, type RouterEnv } from './env.js';
import { forPane } from './clicks.js';

export interface InboxContext extends BindingContext<ListState | undefined> {
  env: RouterEnv;
  lay: InboxLayout;
}

type B = Binding<ListState | undefined, InboxContext>;

const rowOf = (ctx: InboxContext): InboxRow | null => ctx.lay.selected;
const needOf = (ctx: InboxContext): NeedItem | null => {
  const r = rowOf(ctx);
  return r?.kind === 'need' ? r.item : null;
};
/** What `a` acknowledges: a need's row, or the line to answer that stands for one (its permission prompt). */
const ackable = (ctx: InboxContext): { item: NeedItem; acked: boolean } | null => {
  const r = rowOf(ctx);
  return r?.kind === 'need' ? r : r?.kind === 'problem' ? (r.need ?? null) : null;
};
const sessionPath = (n: NeedItem) => n.path ?? `state/sessions/${n.session}/`;

/** Closes the inbox and opens what `path` belongs to (a session's file opens that session, its mode picked). */
function openPath(env: RouterEnv, path: string): boolean {
  const target = paneOfProblem(path);
  if (!target) {
    env.app.flash(`no pane shows ${path}`, 'info');
    return false;
  }
  env.ui.setOverlay(null);
  env.ui.setPane(target.pane);
  const pane = paneById(env.panes, target.pane);
  if (pane.reveal)
    env.ui.setPaneState(target.pane, (st: unknown) => pane.reveal?.(st, path, env.store) ?? st, pane.init);
  return true;
}

/**
 * Opens the item's session and presses `key` there: the Sessions pane's own binding does the work. A team's item is
 * about the team's directory; its cancel is the one of its session's team mode, so that mode's file is opened.
 */
function pressInSession(env: RouterEnv, n: NeedItem, key: string): void {
  const path = n.team !== null && n.mode !== null ? `state/sessions/${n.session}/${n.mode}-state.json` : sessionPath(n);
  if (!openPath(env, path)) return;
  const pane = paneById(env.panes, 'sessions');
  const ev: InputEvent = { kind: 'key', key: { name: 'char', ch: key, ctrl: false, meta: false, shift: false } };
  dispatch(pane.bindings, ev, contextFor(env, pane));
}

/** A permission prompt of a Claude with no OMC session row: nothing to open or jump to here; it is answered above. */
const ANSWER_ABOVE = 'a permission prompt: answer it under "To answer" (y allow · n deny), or in its terminal';

/** `c` on a line under "To answer": it is decided with its own keys; a loop's cancel is on its session's row. */
const NOT_CANCELLED_HERE =
  'a line to answer is decided, not cancelled: its keys are in the footer (a loop behind it is cancelled from its session)';

/** A team item no session's active team mode runs: nothing of omc-top's to cancel; OMC's command cleans it up. */
const teamWithoutMode = (n: NeedItem) =>
  `no session runs team ${n.team} (no active team mode to cancel): \`${teamShutdownCommand(n.team ?? '')}\` shuts its workers down and removes ${n.path ?? 'its directory'}/`;

const noSession = (ctx: InboxContext) => {
  const n = needOf(ctx);
  return !n
    ? 'select an item that needs you'
    : isPermissionNeed(n)
      ? ANSWER_ABOVE
      : !n.session || n.session === LEGACY_KEY
        ? 'this item has no session'
        : null;
};

/** The Claude process of the item's session, as the Sessions pane's J finds it (the claude snapshot's join). */
const processOfNeed = (ctx: InboxContext, n: NeedItem) =>
  n.session ? (ctx.env.store.claude.getSnapshot().bySession.get(n.session)?.process ?? null) : null;

/**
 * J is offered only where the registry names the tmux pane of the item's Claude: reachAdvice's rule
 * (store/claude/attention.ts), by which the Sessions pane's detail and the notifications mention J.
 */
const paneKnown = (ctx: InboxContext): boolean => {
  const n = needOf(ctx);
  return !!n && noSession(ctx) === null && paneReachable(processOfNeed(ctx, n));
};

/**
 * Why J cannot reach the item's Claude, or null. No process, or one that ended with no pane named: planJump has
 * nothing to go to. A live process with no pane named is left to J (it may still match its terminal to a pane).
 */
const noPane = (ctx: InboxContext): string | null => {
  const n = needOf(ctx);
  if (!n) return null;
  const p = processOfNeed(ctx, n);
  // Its pane runs another Claude now (the item's own advice): J would land in that Claude's prompt.
  const taken = p && (p.status === 'gone' || p.status === 'exited') ? paneTakenText(p) : null;
  if (taken) return `jump: ${taken}`;
  if (p?.tmux || (p && p.status !== 'gone' && p.status !== 'exited')) return null;
  const advice =
    n.kind === 'orphaned'
      ? `Enter opens its session: ${reachAdvice('orphaned-loop', false, true)}`
      : n.kind === 'waiting' || n.kind === 'idle-loop'
        ? reachAdvice('waiting-for-you', false, true)
        : 'Enter opens what it is about';
  return `jump: no tmux pane is known for this item's Claude (${p ? `pid ${p.pid} ${p.status === 'gone' ? 'is gone' : 'exited'} and the registry names no pane` : 'no Claude process is registered for its session'}): ${advice}`;
};

const ALWAYS = mode<ListState | undefined>('', () => true);
const move = (to: Move) => (ctx: InboxContext) => ctx.set(moveInbox(ctx.lay, ctx.state, to));

export const INBOX_BINDINGS: readonly B[] = [
  // The same move keys as every list (kit/nav.ts), and Space for a page as in a pager.
  // A click selects the line clicked, as in every list: the rows start under the inbox's title line (a click on a
  // heading selects the item the move lands on, the first under it).
  ...navBindings<ListState | undefined, InboxContext>(ALWAYS, 'selection', (ctx, to) => move(to)(ctx), {
    hint: false,
    place: (ctx) => ({ firstRow: 1, view: ctx.lay.view, height: ctx.lay.height, total: ctx.lay.rows.length }),
  }),
  { keys: [' '], help: 'selection: a page down', run: move({ page: 1 }) },
  // The footer shows the hints in this order, as many as fit: the ones that act on the item first.
  {
    keys: ['a'],
    help: 'acknowledge: the item leaves the count (here, in status --tmux and every omc-top) until it arises anew',
    hint: 'ack',
    // Not offered on a problem with a file: it is not acknowledged, it clears when the file is put right.
    offered: (ctx) => ackable(ctx) !== null,
    // Not a write to .omc, but to omc-top's own state directory: --readonly writes nothing at all.
    writes: true,
    readonlyText: '--readonly: nothing is written, so nothing can be acknowledged',
    disabled: (ctx) => {
      const r = ackable(ctx);
      if (!r) return 'select an item that needs you (problems with files clear when the file is fixed)';
      return r.acked ? 'already acknowledged' : null;
    },
    run: (ctx) => {
      const n = ackable(ctx)?.item;
      if (!n) return;
      const app = ctx.env.app;
      void acknowledge(app.attention, [n], app.now()).then(
        (text) => app.flash(text, 'success'),
        (e: unknown) => app.flash(`acknowledge: ${(e as Error).message}`, 'error'),
      );
    },
  },
  {
    keys: ['J'],
    help: "jump: switch tmux to the pane of the item's Claude session (as J in the Sessions pane)",
    hint: 'jump',
    offered: paneKnown,
    disabled: (ctx) => noSession(ctx) ?? noPane(ctx),
    run: (ctx) => {
      const n = needOf(ctx);
      if (n) pressInSession(ctx.env, n, 'J');
    },
  },
  {
    keys: ['c'],
    help: "cancel the item's loop (cleans up an orphaned one; a team's: its session's team mode): the Sessions pane's cancel, with its confirmation",
    hint: 'cancel',
    writes: true,
    // Offered on a need's row only: a line to answer (a permission prompt, an OMC gate) is decided, not cancelled.
    offered: (ctx) => needOf(ctx) !== null,
    disabled: (ctx) => {
      const r = rowOf(ctx);
      if (r?.kind === 'problem' && isAnswerLine(r.problem)) return NOT_CANCELLED_HERE;
      const n = needOf(ctx);
      if (n && !isPermissionNeed(n) && n.team !== null && n.mode === null) return teamWithoutMode(n);
      return noSession(ctx) ?? (n?.mode ? null : 'no loop to cancel for this item');
    },
    run: (ctx) => {
      const n = needOf(ctx);
      if (n) pressInSession(ctx.env, n, 'c');
    },
  },
  {
    keys: ['enter', 'right', 'l'],
    help: 'open what the item is about: its session (the mode it names picked), its team, the pane of the file',
    hint: 'open',
    // A problem about what no pane shows (the .omc root itself, a setting): nothing to open, so not offered.
    offered: (ctx) => {
      const r = rowOf(ctx);
      return r?.kind !== 'problem' || paneOfProblem(r.problem.path) !== null;
    },
    disabled: (ctx) => {
      const r = rowOf(ctx);
      if (r?.kind === 'problem' && isAnswerLine(r.problem))
        return 'a line to answer is decided here, with its keys in the footer: there is nothing to open';
      if (r?.kind === 'problem' && paneOfProblem(r.problem.path) === null)
        return `no pane shows ${r.problem.path}: the line clears once that is put right`;
      return !r ? 'nothing selected' : r.kind === 'need' && isPermissionNeed(r.item) ? ANSWER_ABOVE : null;
    },
    run: (ctx) => {
      const r = rowOf(ctx);
      if (r?.kind === 'need') openPath(ctx.env, r.item.team ? `state/team/${r.item.team}/` : sessionPath(r.item));
      else if (r?.kind === 'problem') openPath(ctx.env, r.problem.path);
    },
  },
  // No hint: the inbox's title line says "Esc closes".
  { keys: ['escape', '!'], help: 'close the inbox', run: (ctx) => ctx.env.ui.setOverlay(null) },
];

/** The inbox's context for a key (or for the footer: the same layout the view draws). */
export function inboxContext(env: RouterEnv, overlay: TextOverlay): InboxContext {
  const lay = inboxLayout(inboxRowsOf(env), overlay.list, bodyOf(env), env.app.now());
  return {
    env,
    lay,
    state: overlay.list,
    set: (next) => {
      const cur = env.ui.state.overlay;
      if (cur?.kind !== 'problems') return;
      const list = typeof next === 'function' ? next(cur.list) : next;
      env.ui.setOverlay({ ...cur, list });
    },
    app: env.app,
  };
}

export function routeInbox(ev: InputEvent, overlay: TextOverlay, env: RouterEnv): boolean {
  // The inbox is drawn where the pane is: a click is counted from its first row, and one outside it is not its own.
  const own = forPane(ev, env);
  return own !== null && dispatch(INBOX_BINDINGS, own, inboxContext(env, overlay));
}
