/**
 * The root component: lays out header / pane / problems / message / footer
 * for the current terminal size and installs the one input router. It holds
 * no data of its own: everything comes from the OmcStore (disk) and the
 * UiStore (focus, overlays, each pane's state) through useSyncExternalStore.
 */
import React, { useEffect, useMemo, useReducer, useRef, useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import { claimedKeys, footerHints } from './kit/bindings.js';
import { GLOBAL_BINDINGS, paneById } from './input/router.js';
import { INBOX_BINDINGS, inboxContext, type InboxContext } from './input/inbox.js';
import { inboxRowsOf } from './input/env.js';
import { useInputRouter } from './input/use-router.js';
import type { RouterEnv } from './input/env.js';
import type { AppActions, AnyPaneModule, RootChoice } from './kit/pane.js';
import { describeWriteError } from './io/safe-fs/index.js';
import type { OmcStore, StoreStatus } from './store/store.js';
import { useTerminalSize } from './terminal/use-size.js';
import { Footer, FlashLine, Header, ProblemLines } from './ui/chrome.js';
import { frameLayout, shownProblems, tooSmall, tooSmallLine } from './ui/layout.js';
import { ConfirmView, TextOverlayView } from './ui/overlays.js';
import { InboxView } from './ui/problems-view.js';
import { ThemeContext, type Theme } from './ui/theme.js';
import { AttentionContext } from './ui/open-needs.js';
import type { UiState, UiStore } from './kit/ui-store.js';
import type { AttentionControl } from './feeds/attention/control.js';
import { EMPTY_VIEW } from './feeds/attention/view.js';
import { isAnswerLine } from './feeds/answers/items.js';
import { HELP_SECTIONS, answerHints } from './input/answer-keys.js';
import { inboxLayout } from './ui/inbox-layout.js';
import { quotaLine } from './store/cost/quota-words.js';
import { useRootUnreadWhy } from './ui/not-known.js';

export interface AppProps {
  store: OmcStore;
  ui: UiStore;
  panes: ReadonlyArray<AnyPaneModule>;
  rootExplain: string;
  theme: Theme;
  exit(): void;
  redraw(): void;
  suspend<T>(fn: () => Promise<T>): Promise<T>;
  /** The project's .omc roots and how to switch (`O`); absent where there is nothing to switch (tests, one root). */
  roots?: RootChoice;
  /** cli.tsx's attention layer: the header's "needs you" count, the problems view's items, the N toggle. */
  attention?: AttentionControl | null;
  /** Opened from the fleet view: Esc (when nothing else takes it) goes back to it. */
  back?(): void;
}

const NO_COUNT = { subscribe: () => () => undefined, getSnapshot: () => null };
const NO_VIEW = { subscribe: () => () => undefined, getSnapshot: () => EMPTY_VIEW };

/** Repaints for passing time land on this grid, so 50 rows crossing minute marks cost 12 frames a minute, not 50. */
const TICK_GRID_MS = 5_000;

/**
 * Re-renders when time-derived text (ages, countdowns, the header clock)
 * would change, and not otherwise. While a countdown is on screen ticks are
 * exact; otherwise they wait for the next 5 s mark, so an age label may lag
 * its true value by up to 5 s in exchange for an idle monitor that stays idle
 * however many rows are on screen.
 */
function useTicker(nextDelayMs: () => number, exact: () => boolean, clock: () => number): void {
  const [, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    let d = nextDelayMs();
    if (!Number.isFinite(d)) return;
    if (!exact()) {
      const t = clock();
      d = Math.ceil((t + d) / TICK_GRID_MS) * TICK_GRID_MS - t;
    }
    const timer = setTimeout(bump, Math.max(20, Math.min(d + 2, 60_000)));
    return () => clearTimeout(timer);
  });
}

/** Applies the pane's settle step to its current state (a key may have changed it since the frame: use that one). */
function settlePane(pane: AnyPaneModule, ui: UiStore, store: OmcStore, body: { columns: number; rows: number }): void {
  const settle = pane.settle;
  if (!settle) return;
  // The pane's state exists from its first frame: the row shown as selected is pinned before any key.
  ui.setPaneState(pane.id, (cur: unknown) => settle(cur, store, body, store.clock()), pane.init);
}

export function App(props: AppProps) {
  const { store, ui, panes, theme } = props;
  const size = useTerminalSize();
  const sizeRef = useRef(size);
  sizeRef.current = size;
  const uiState = useSyncExternalStore(ui.subscribe, ui.getSnapshot);
  const { sessions, problems, needs, quota, rootUnread } = useStoreFacts(store, props.attention ?? null);
  const attention = props.attention ?? null;
  const pane = paneById(panes, uiState.pane);
  const paneState = useMemo(() => uiState.panes[pane.id] ?? pane.init(), [uiState.panes, pane]);
  // The keys the pane takes in this state (the footer leaves those hotkeys out): once per state, not per frame.
  const claimed = useMemo(() => claimedKeys(pane.bindings, paneState), [pane, paneState]);
  const now = store.clock();
  const { width, height, problemRows, body: bodySize } = frameLayout(size, problems.length, uiState.flash);

  useTicker(
    () => {
      const t = store.clock();
      const clockTick = 60_000 - (t % 60_000);
      return Math.min(clockTick, pane.nextTick?.(paneState, store, t, bodySize) ?? Infinity);
    },
    () => pane.liveCountdown?.(paneState, store, store.clock()) ?? false,
    store.clock,
  );

  const actions = useAppActions(props, attention);
  const routerEnv: RouterEnv = {
    ui,
    store,
    panes,
    app: actions,
    size: () => sizeRef.current,
    exit: props.exit,
    redraw: props.redraw,
    back: props.back,
  };
  useInputRouter(routerEnv);

  const paneHeight = bodySize.rows;
  const overlay = uiState.overlay;
  useSettledPane(pane, ui, store, bodySize);
  // The inbox's rows, and the keys of its selected line when that can be answered (a permission request, a gate).
  const inboxRows = overlay?.kind === 'problems' ? inboxRowsOf({ store, app: actions }) : [];
  const inboxLay = overlay?.kind === 'problems' ? inboxLayout(inboxRows, overlay.list, bodySize, now) : null;
  const inboxSel = inboxLay?.selected ?? null;
  const answerable = inboxSel?.kind === 'problem' && isAnswerLine(inboxSel.problem) ? inboxSel.problem : null;

  // The footer's and the help's view of a key context: enough to ask which keys are offered now, and why not.
  const keyView = { state: paneState, set: () => undefined, store, ui, app: actions, size, body: bodySize };
  let body: React.ReactNode;
  if (overlay?.kind === 'confirm') body = <ConfirmView overlay={overlay} width={width} height={paneHeight} />;
  else if (overlay?.kind === 'problems')
    body = <InboxView rows={inboxRows} list={overlay.list} width={width} height={paneHeight} now={now} />;
  else if (overlay)
    body = (
      <TextOverlayView
        overlay={overlay}
        inputs={{
          panes,
          globals: GLOBAL_BINDINGS,
          inbox: INBOX_BINDINGS,
          log: uiState.log,
          readonly: store.readonly,
          current: pane.id,
          currentState: paneState,
          currentContext: keyView,
          sections: HELP_SECTIONS,
        }}
        width={width}
        height={paneHeight}
      />
    );
  else body = <pane.View state={paneState} store={store} width={width} height={paneHeight} now={now} ui={ui} />;

  // Hooks above run in every frame; only what is drawn differs.
  if (tooSmall(size)) return <Text>{tooSmallLine(size.columns)}</Text>;

  return (
    <ThemeContext.Provider value={theme}>
      <AttentionContext.Provider value={attention}>
        <Box flexDirection="column" width={width} height={height}>
          <Header
            root={store.root}
            rule={props.rootExplain}
            sessions={sessions}
            width={width}
            now={now}
            readonly={store.readonly}
            omc={store.omc}
            needs={needs}
            notifyOff={attention?.notifier ? !attention.notifier.isEnabled() : false}
            quota={quotaLine(quota, now)?.text ?? null}
            quotaShort={quotaLine(quota, now)?.short ?? null}
            rootUnread={rootUnread}
          />
          {/* No overflow="hidden": Ink would re-slice every line of every frame to
            clip it (the biggest cost of a 200x60 frame). Views render exactly the
            rows that fit and cut each line to the width instead. */}
          <Box flexDirection="column" height={paneHeight}>
            {body}
          </Box>
          <ProblemLines problems={problems} width={width} max={problemRows} />
          <FlashLine flash={uiState.flash} width={width} height={height} />
          <StatusFooter
            store={store}
            panes={panes}
            current={pane.id}
            hints={footerFor(
              overlay,
              pane,
              paneState,
              store.readonly,
              // y and A are offered only where they allow: not for a command the detail cannot show whole.
              overlay?.kind === 'problems' ? answerHints(answerable, store, actions, inboxLay?.subjectCut ?? null) : [],
              // The inbox's keys are offered for its selected item as its router sees it (J only with a pane).
              overlay?.kind === 'problems' ? inboxContext(routerEnv, overlay) : keyView,
            )}
            width={width}
            typing={!overlay && (pane.typing?.active(paneState) ?? false)}
            claimed={overlay ? undefined : claimed}
          />
        </Box>
      </AttentionContext.Provider>
    </ThemeContext.Provider>
  );
}

/** What the frame shows from the store: the sessions (header), watch status, problem lines, the "needs you" count. */
function useStoreFacts(store: OmcStore, attention: AttentionControl | null) {
  const sessions = useSyncExternalStore(store.sessions.subscribe, store.sessions.getSnapshot);
  const fileProblems = useSyncExternalStore(store.problems.subscribe, store.problems.getSnapshot);
  // The watch state only: "reading n/N" changes with every slice of the first read, and it is the footer's alone
  // (StatusFooter), so a slice re-renders the footer, not the header and the pane with it.
  const watchOf = useMemo(() => watchStateOf(store), [store]);
  const status = useSyncExternalStore(store.status.subscribe, watchOf);
  const quota = useSyncExternalStore(store.quota.subscribe, store.quota.getSnapshot);
  // The root unreadable (a symlink loop, a file): the header claims no count, as the panes claim no empty list.
  const rootUnread = useRootUnreadWhy(store);
  // What can be answered from the `!` list: the hook's permission requests and OMC's gates.
  useSyncExternalStore(store.permissions.subscribe, store.permissions.getSnapshot);
  useSyncExternalStore(store.graph.subscribe, store.graph.getSnapshot);
  const problems = useMemo(() => shownProblems(status, fileProblems), [status, fileProblems]);
  const needCell = attention?.monitor.count ?? NO_COUNT;
  const needs = useSyncExternalStore(needCell.subscribe, needCell.getSnapshot);
  // The inbox redraws when what needs you changes (an item acknowledged, a condition over).
  const viewCell = attention?.monitor.view ?? NO_VIEW;
  useSyncExternalStore(viewCell.subscribe, viewCell.getSnapshot);
  return { sessions, problems, needs, quota, rootUnread };
}

/** What the problem lines need of the watch (shownProblems): the mode, its words, whether --poll chose it, the root. */
type WatchState = Pick<StoreStatus, 'watchMode' | 'watchDetail' | 'pollChosen' | 'rootAbsence'>;

/** A getSnapshot for the store's watch state without its `reading` progress: the same object until that changes. */
function watchStateOf(store: OmcStore): () => WatchState {
  let last: WatchState | null = null;
  return () => {
    const s = store.status.getSnapshot();
    if (
      last === null ||
      last.watchMode !== s.watchMode ||
      last.watchDetail !== s.watchDetail ||
      last.pollChosen !== s.pollChosen ||
      last.rootAbsence !== s.rootAbsence
    )
      last = {
        watchMode: s.watchMode,
        watchDetail: s.watchDetail,
        pollChosen: s.pollChosen,
        rootAbsence: s.rootAbsence,
      };
    return last;
  };
}

/** The footer, following the store's status itself: the first read's progress re-renders it and nothing else. */
function StatusFooter({ store, ...props }: Omit<React.ComponentProps<typeof Footer>, 'status'> & { store: OmcStore }) {
  const status = useSyncExternalStore(store.status.subscribe, store.status.getSnapshot);
  return <Footer {...props} status={status} />;
}

/** What panes may ask of the app: messages, dialogs, effects, switching panes, suspending for $EDITOR. */
function useAppActions(props: AppProps, attention: AttentionControl | null): AppActions {
  const { ui, store } = props;
  return useMemo(
    () => ({
      flash: (text, kind) => ui.flash(text, kind),
      confirm: (c) => ui.setOverlay({ kind: 'confirm', ...c }),
      run: (label, effect) => {
        Promise.resolve()
          .then(effect)
          .catch((e: unknown) => ui.flash(`${label}: ${describeWriteError(e)}`, 'error'));
      },
      openPane: (id) => ui.setPane(id),
      suspend: (fn) => props.suspend(fn),
      readonly: store.readonly,
      now: () => store.clock(),
      roots: props.roots,
      attention,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [ui, store],
  );
}

/**
 * Pins list selections to what is on screen (identity, scroll window) after each frame and whenever the pane's
 * data changes (a re-sort, an append).
 */
function useSettledPane(
  pane: AnyPaneModule,
  ui: UiStore,
  store: OmcStore,
  bodySize: { columns: number; rows: number },
): void {
  const bodyRef = useRef(bodySize);
  bodyRef.current = bodySize;
  useEffect(() => settlePane(pane, ui, store, bodyRef.current));
  useEffect(() => {
    const unsubs = (pane.sources?.(store) ?? []).map((sub) => sub(() => settlePane(pane, ui, store, bodyRef.current)));
    return () => unsubs.forEach((u) => u());
  }, [pane, ui, store]);
}

/** The footer's key hints: the overlay's own (the inbox's from its bindings), else the pane's (generated from its bindings). */
function footerFor(
  overlay: UiState['overlay'],
  pane: AnyPaneModule,
  paneState: unknown,
  readonly: boolean,
  answerHintsNow: Array<[string, string]>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ctx: any,
): Array<[string, string]> {
  if (overlay?.kind === 'confirm')
    return [
      ['y', 'yes'],
      ['n/Esc/q', 'no'],
      ['↑↓', 'scroll'],
    ];
  if (overlay?.kind === 'problems') {
    // The selected item's own key comes first (Enter on a permission request opens its session): the inbox's hint
    // for the same key is left out, so no key is offered twice.
    const taken = new Set(answerHintsNow.map(([k]) => k));
    const inbox = footerHints(INBOX_BINDINGS, overlay.list, readonly, ctx as InboxContext);
    return [...answerHintsNow, ...inbox.filter(([k]) => !taken.has(k))];
  }
  if (overlay)
    return [
      ['Esc', 'close'],
      ['↑↓', 'scroll'],
    ];
  return footerHints(pane.bindings, paneState, readonly, ctx);
}
