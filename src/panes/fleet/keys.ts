/**
 * The fleet view's keys (`omc-top --all`) as one bindings table, like every
 * pane's: the shell dispatches from it (src/input/bindings.ts), the footer
 * hints, the `?` help and the README key table are generated from it. The
 * navigation and filter keys are the shared ones (src/panes/nav.ts).
 */
import type { Binding, BindingContext } from '../../kit/bindings.js';
import { SIBLING_SLOWDOWN, type FleetRow, type FleetSnapshot, type RemoteActions } from '../../fleet/model.js';
import { listView, scrollTo, type Move } from '../../kit/list.js';
import { anchorOf, anchoredScroll, tableHelpLines, type OverlayLine } from '../../ui/overlay-lines.js';
import { wrapText } from '../../ui/format.js';
import { filterBindings, filterStartBindings, mode, navBindings, scrollDelta } from '../../kit/nav.js';
import type { Size } from '../../kit/pane.js';
import { listHeight, SIBLING_SLOWDOWN_WORDS } from './layout.js';
import { noLoopWords, rowLabel } from '../../feeds/row.js';
import { notifySwitchText, type NotifySwitch } from '../../feeds/notify/switch-words.js';
import { PANES } from '../registry.js';
import type { Problem } from '../../store/types.js';
import { shownPath } from '../../io/shown-path.js';
import {
  backspaceFilter,
  clearFilter,
  closeHelp,
  endFilter,
  filtering,
  moveFleet,
  openHelp,
  openProblems,
  selectedLine,
  shownIds,
  selectedRow,
  startFilter,
  type FleetUiState,
} from './reducer.js';

/** What a fleet key may read and do: the core every binding gets, plus the fleet's own effects. */
export interface FleetKeyContext extends BindingContext<FleetUiState> {
  snap: FleetSnapshot;
  /** The terminal. */
  size: Size;
  remote?: RemoteActions;
  exit(): void;
  redraw(): void;
  /** Shows a local root's panes; on a session line, at that session's detail. */
  openProject(row: FleetRow, atSession: boolean): void;
  /** Acknowledges what needs the user in the row's session (here, or on its host); resolves to the message. */
  ackRow(row: FleetRow): Promise<{ ok: boolean; text: string }>;
  /** The fleet's notifications (feeds/notify/fleet-terminal.ts); null where nothing rings (tests). */
  notifier?: NotifySwitch | null;
  /** Problems with omc-top's own files (its config file: fleet/config-problems.ts), as `!` lists them. */
  ownProblems?: readonly Problem[];
}

/**
 * The monitor's keys that act on one project (its panes, its inbox, its message log, its roots): the fleet has
 * none of those open, so they say where they work instead of doing nothing (the old message stays otherwise).
 */
const PROJECT_KEYS = ['tab', 'backtab', 'M', 'O', ...PANES.map((p) => p.hotkey)];
export const NOT_IN_FLEET = 'not in the fleet: Enter opens a project, where this key works (Esc comes back)';

function toggleNotify(ctx: Ctx): void {
  const n = ctx.notifier;
  if (!n) {
    ctx.app.flash('notifications are not running here', 'info');
    return;
  }
  const on = !n.isEnabled();
  n.setEnabled(on);
  ctx.app.flash(notifySwitchText(on, true), 'info');
}

type S = FleetUiState;
type Ctx = FleetKeyContext;
type FleetBinding = Binding<S, Ctx>;

/** The title of the fleet's section in the help and the README. */
export const FLEET_TITLE = 'Fleet (`--all`)';

const ANY = mode<S>('anywhere in the fleet', () => true);
const CONFIRM = mode<S>('asked to confirm', (s) => s.confirm !== null);
const HELP = mode<S>('reading the help or the problems', (s) => s.confirm === null && s.help !== null);
const FILTER = mode<S>('typing a filter', (s) => s.confirm === null && s.help === null && s.filterEditing);
const LIST = mode<S>('fleet list', (s) => s.confirm === null && s.help === null && !s.filterEditing);

/** List rows at this terminal size in this state: the same number the view draws. */
export const heightOf = (ctx: Pick<Ctx, 'size' | 'state'>) => listHeight(ctx.size.rows, filtering(ctx.state));
const move = (ctx: Ctx, to: Move) => ctx.set((s) => moveFleet(s, ctx.snap, to, heightOf(ctx)));
const lineOf = (ctx: Pick<Ctx, 'snap' | 'size' | 'state'>) => selectedLine(ctx.snap, ctx.state, heightOf(ctx));

/**
 * The keys' state for the help: the list under it, as it was when `?` opened it (the help's own state would make
 * every list key "not applying"), so a key that acts on a session says `(not now: no session selected)` there.
 */
function underHelp(ctx: Ctx): { state: S; ctx: Ctx } {
  const state = { ...ctx.state, help: null };
  return { state, ctx: { ...ctx, state } };
}

/**
 * The help text at this width (what the view draws and the scroll keys count); given the key context (`here`), each
 * list key disabled now says why.
 */
export const fleetHelpLines = (width: number, readonly: boolean, here?: Ctx): OverlayLine[] => [
  ...tableHelpLines(
    FLEET_TITLE.replace(/`/g, ''),
    FLEET_BINDINGS,
    readonly,
    Math.max(20, width),
    here && underHelp(here),
  ),
  { text: '' },
  { text: 'The header', tone: 'title' },
  // A wrapped part's further lines are `cont`: a resize keeps the part at the top in view (anchoredScroll).
  ...HEADER_HELP.flatMap((t) =>
    wrapText(t, Math.max(20, width)).map((text, i): OverlayLine => (i > 0 ? { text, cont: true } : { text })),
  ),
];

/**
 * The `!` list at this width: the problems with omc-top's own files (the config file, for as long as it is bad),
 * then what the fleet's own look at the machine could not do (the message line's), then where a project's are.
 */
export function fleetProblemLines(width: number, own: readonly Problem[], fleet: readonly string[]): OverlayLine[] {
  const w = Math.max(20, width);
  const out: OverlayLine[] = [{ text: 'Problems  ·  Esc closes, q quits', tone: 'title' }];
  const entry = (text: string, tone?: OverlayLine['tone']) =>
    wrapText(text, w).forEach((line, i) =>
      out.push({ text: line, ...(tone ? { tone } : {}), ...(i > 0 ? { cont: true } : {}) }),
    );
  out.push(
    { text: '' },
    { text: own.length ? `Problems with files (${own.length})` : 'Problems with files: none', tone: 'title' },
  );
  for (const p of own) entry(`${shownPath(p.path)}: ${p.message}`, p.severity === 'error' ? 'error' : 'warning');
  if (fleet.length > 0) {
    out.push({ text: '' }, { text: `Finding the projects (${fleet.length})`, tone: 'title' });
    for (const f of fleet) entry(f, 'warning');
  }
  out.push({ text: '' });
  entry("A project's own problems are on its line in the list: Enter opens it, where ! lists them.", 'muted');
  return out;
}

/** What the open text shows at this width: the help, or the problems list. */
export const fleetTextLines = (
  help: FleetUiState['help'] & object,
  width: number,
  readonly: boolean,
  own: readonly Problem[],
  fleet: readonly string[],
  here?: Ctx,
): OverlayLine[] =>
  help.what === 'problems' ? fleetProblemLines(width, own, fleet) : fleetHelpLines(width, readonly, here);

/** Where the help is drawn at this terminal size: the list's place and its column-title row. */
export const fleetHelpBody = (size: Size): Size => ({
  columns: Math.max(20, size.columns),
  rows: listHeight(size.rows) + 1,
});

/**
 * The help's first line at this terminal size: its scroll counts the lines of the width it was scrolled at, so
 * after a resize the part that was at the top stays there, and a help read to its end stays at its end.
 */
export const fleetHelpScroll = (
  help: FleetUiState['help'] & object,
  size: Size,
  readonly: boolean,
  own: readonly Problem[] = [],
  fleet: readonly string[] = [],
  here?: Ctx,
): number =>
  anchoredScroll(help.scroll, help.at, (w) => fleetTextLines(help, w, readonly, own, fleet, here), fleetHelpBody(size));

/** What the header's parts say, whole: a narrow header shortens or leaves out the counts first (layout.ts). */
const HEADER_HELP = [
  'needs you: N — what each project’s own monitor counts, added up',
  `N Claude sessions on this machine — over ${SIBLING_SLOWDOWN} (“over ${SIBLING_SLOWDOWN}”): ${SIBLING_SLOWDOWN_WORDS}`,
  'N roots, N hosts (N not live) — the .omc roots here, the --host machines and those whose stream is not live',
  'then this machine’s plan quota, as the monitor’s header says it; a narrow header gives up the counts first, then the quota',
];

function scrollHelp(ctx: Ctx, to: Move): void {
  const body = fleetHelpBody(ctx.size);
  const own = ctx.ownProblems ?? [];
  ctx.set((s) => {
    if (!s.help) return s;
    const here = { ...ctx, state: s };
    const total = fleetTextLines(s.help, body.columns, ctx.app.readonly, own, ctx.snap.problems, here).length;
    // Moved from where it is drawn now (its line numbers may be of another width), and remembered at this one.
    const from = fleetHelpScroll(s.help, ctx.size, ctx.app.readonly, own, ctx.snap.problems, here);
    const scroll = scrollTo(from, scrollDelta(to, body.rows), total, body.rows);
    return { ...s, help: { ...s.help, scroll, at: anchorOf(scroll, total, body) } };
  });
}

/** Why Enter opens nothing: a --host header with no rows yet says which host has none. */
function nothingToOpen(ctx: Ctx): string {
  const line = lineOf(ctx);
  return line?.kind === 'group' && line.group.host !== null
    ? `@${line.group.host}: no sessions to open`
    : 'no session selected';
}

function openSelected(ctx: Ctx): void {
  const line = lineOf(ctx);
  const row = selectedRow(line);
  if (!row) return; // not reached: Enter is disabled then (nothingToOpen says why)
  if (row.host !== null) {
    ctx.app.flash(
      row.noLoop === true
        ? noLoopWords(row.host)
        : `${rowLabel(row).slice(0, 8)} runs on ${row.host}: c cancels, p pauses it there (its panes: ssh ${row.host} omc-top)`,
      'info',
    );
    return;
  }
  ctx.openProject(row, line?.kind === 'row');
}

function askCancel(ctx: Ctx, pause: boolean): void {
  const row = selectedRow(lineOf(ctx));
  const remote = ctx.remote;
  if (!row) return;
  if (row.host === null || !remote) {
    ctx.app.flash('Enter opens this project: cancel and pause it from its sessions list', 'info');
    return;
  }
  // No OMC loop there (nothing to cancel), or one ssh per row at a time: a hung one would otherwise stack up.
  const refused = remote.cancelRefusal(row, pause);
  if (refused !== null) {
    ctx.app.flash(refused, row.noLoop === true ? 'info' : 'error');
    return;
  }
  ctx.set((s) => ({
    ...s,
    confirm: {
      title: `${pause ? 'Pause' : 'Cancel'} ${rowLabel(row)} on ${row.host}?`,
      lines: remote.describeCancel(row, pause),
      onYes: () => {
        ctx.app.flash(`${pause ? 'pausing' : 'cancelling'} ${rowLabel(row).slice(0, 8)} on ${row.host}…`, 'info');
        void remote.cancel(row, pause).then((r) => ctx.app.flash(r.text, r.ok ? 'info' : 'error'));
      },
    },
  }));
}

/** The host the selected line belongs to (a group header's own host when it has no rows yet). */
function hostOf(ctx: Ctx): string | null {
  const line = lineOf(ctx);
  return selectedRow(line)?.host ?? (line?.kind === 'group' ? line.group.host : null);
}

/** The footer hints of keys that act only on a remote (`--host`) session: not offered on a local row. */
export const REMOTE_ONLY_HINTS: ReadonlySet<string> = new Set(['cancel', 'pause', 'reconnect']);

const noSession = (ctx: Ctx) => (selectedRow(lineOf(ctx)) ? null : 'no session selected');
/**
 * Keys that act on the selected session are offered in the footer only while there is one: not on an empty list, a
 * filter that matches nothing, or a host's header with no rows yet. Pressed anyway, each says why (noSession).
 */
const sessionSelected = (ctx: Ctx) => selectedRow(lineOf(ctx)) !== null;

/**
 * A key context for asking which keys the footer offers and which the help says are not usable now (FleetView): the
 * list as it is drawn, the --host actions when there are any, effects that do nothing (the footer and the help only
 * ask, as the monitor's do with its own key view).
 */
export function footerContext(
  snap: FleetSnapshot,
  state: S,
  size: Size,
  readonly: boolean,
  remote?: RemoteActions,
): Ctx {
  const none = () => undefined;
  return {
    state,
    snap,
    size,
    ...(remote ? { remote } : {}),
    set: none,
    app: { readonly, flash: none },
    exit: none,
    redraw: none,
    openProject: none,
    ackRow: () => Promise.resolve({ ok: false, text: '' }),
  };
}
const CANCEL_READONLY = '--readonly: remote cancel and pause are disabled (nothing is written)';

export const FLEET_BINDINGS: readonly FleetBinding[] = [
  // Declaration order is the help's and the README's order: the list first, then the other modes.
  ...navBindings<S, Ctx>(LIST, 'rows', move, {
    // Screen rows here (the fleet has no pane frame): the header, the filter line when shown, the column titles.
    place: (ctx) => {
      const height = heightOf(ctx);
      const ids = shownIds(ctx.snap, ctx.state.filter);
      const view = listView(ctx.state.list, ids, height);
      return { firstRow: 2 + (filtering(ctx.state) ? 1 : 0), view, height, total: ids.length };
    },
  }),
  { keys: [' '], help: 'rows: a page down (as PgDn)', when: LIST, run: (ctx) => move(ctx, { page: 1 }) },
  {
    keys: ['enter', 'right', 'l'],
    help: "open the project's panes, exactly as omc-top there shows them (on a session: its detail); Esc comes back",
    hint: 'open',
    when: LIST,
    // Nothing on screen to open (no project yet, a filter that matches nothing, a --host header with no rows yet):
    // said when pressed and in the help, and not offered.
    disabled: (ctx) => (sessionSelected(ctx) ? null : nothingToOpen(ctx)),
    offered: sessionSelected,
    run: openSelected,
  },
  // Help and quit before the rest: a narrow footer drops hints from the end, and these two must stay.
  {
    keys: ['?', 'f1'],
    help: 'this help, with the legend of statuses and symbols (Esc closes)',
    hint: 'help',
    when: LIST,
    run: (ctx) => ctx.set(openHelp),
  },
  { keys: ['q'], help: 'quit (the terminal is restored)', hint: 'quit', when: LIST, run: (ctx) => ctx.exit() },
  ...filterStartBindings<S, Ctx>(
    LIST,
    'filter rows: every word must be in the row, hidden columns included (CLAUDE and needs you too)',
    { start: startFilter, clear: clearFilter, filtered: (s) => s.filter !== '' },
  ),
  {
    keys: ['a'],
    help: "acknowledge what needs you in the selected session: it leaves the count until it arises anew (a --host row's on that machine, through omc-top ack there)",
    hint: 'ack',
    when: LIST,
    // Not a write to .omc, but to omc-top's own state directory (or the host's): --readonly writes nothing at all.
    writes: true,
    readonlyText: '--readonly: nothing is written, so nothing can be acknowledged',
    disabled: (ctx) =>
      noSession(ctx) ?? (selectedRow(lineOf(ctx))?.needs === null ? 'nothing in this session needs you' : null),
    offered: sessionSelected,
    run: (ctx) => {
      const row = selectedRow(lineOf(ctx));
      if (!row) return;
      if (row.host) ctx.app.flash(`acknowledging on ${row.host}…`, 'info');
      void ctx.ackRow(row).then(
        (r) => ctx.app.flash(r.text, r.ok ? 'success' : 'error'),
        (e: unknown) => ctx.app.flash(`acknowledge: ${(e as Error).message}`, 'error'),
      );
    },
  },
  {
    keys: ['c'],
    help: 'cancel the remote session (--host): runs omc-top cancel on its host, after asking',
    hint: 'cancel',
    when: LIST,
    writes: true,
    readonlyText: CANCEL_READONLY,
    disabled: noSession,
    offered: sessionSelected,
    run: (ctx) => askCancel(ctx, false),
  },
  {
    keys: ['p'],
    help: 'pause the remote session (--host): runs omc-top cancel --signal-only on its host (the loop carries on when the signal expires), after asking',
    hint: 'pause',
    when: LIST,
    writes: true,
    readonlyText: CANCEL_READONLY,
    disabled: noSession,
    offered: sessionSelected,
    run: (ctx) => askCancel(ctx, true),
  },
  {
    keys: ['r'],
    help: "reconnect to the selected row's host now (--host), without waiting for the back-off",
    hint: 'reconnect',
    when: LIST,
    disabled: (ctx) =>
      !ctx.remote || ctx.remote.hosts() === 0
        ? "no hosts (--host or the config file's hosts): nothing to reconnect"
        : hostOf(ctx)
          ? null
          : 'this row is on this machine',
    run: (ctx) => {
      const host = hostOf(ctx);
      if (!host) return;
      ctx.remote?.reconnect(host);
      ctx.app.flash(`reconnecting to ${host}…`, 'info');
    },
  },
  {
    keys: ['N'],
    help: 'turn notifications (bell, desktop, tmux) off / on: every project here rings as its monitor would',
    when: LIST,
    run: toggleNotify,
  },
  {
    keys: ['!'],
    help: "the fleet's problems: omc-top's config file while it is bad, and what finding the projects could not do",
    when: LIST,
    run: (ctx) => ctx.set(openProblems),
  },
  {
    keys: PROJECT_KEYS.filter((k) => !['c', 'p', 'a', 'r', 'q'].includes(k)),
    help: "a project's keys (Tab, Shift-Tab, M, O, the pane letters): Enter a project first; here they say so",
    helpKeys: 'Tab M O s t…',
    when: LIST,
    run: (ctx) => ctx.app.flash(NOT_IN_FLEET, 'info'),
  },
  ...filterBindings<S, Ctx>(FILTER, {
    keep: endFilter,
    clear: clearFilter,
    backspace: backspaceFilter,
    move: (ctx, by) => move(ctx, by),
  }),
  ...navBindings<S, Ctx>(HELP, 'scroll the help', scrollHelp, { hint: false }),
  {
    keys: ['escape', '?', 'f1', 'enter', '!'],
    help: 'close the help (or the problems)',
    hint: 'close',
    when: HELP,
    run: (ctx) => ctx.set(closeHelp),
  },
  { keys: ['q'], help: 'quit', hint: 'quit', when: HELP, run: (ctx) => ctx.exit() },
  {
    keys: ['y', 'Y'],
    help: 'yes: run it',
    hint: 'yes',
    when: CONFIRM,
    run: (ctx) => {
      const c = ctx.state.confirm;
      ctx.set((s) => ({ ...s, confirm: null }));
      c?.onYes();
    },
  },
  {
    keys: ['n', 'N', 'escape', 'q'],
    help: 'no: leave it running',
    hint: 'no',
    hintKeys: 'n/Esc',
    when: CONFIRM,
    run: (ctx) => ctx.set((s) => ({ ...s, confirm: null })),
  },
  {
    keys: ['ctrl+c'],
    help: 'quit (the terminal is restored)',
    when: ANY,
    run: (ctx) => ctx.exit(),
  },
  { keys: ['ctrl+l'], help: 'redraw the screen', when: ANY, run: (ctx) => ctx.redraw() },
];
