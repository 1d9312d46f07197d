/**
 * `omc-top --all` on screen: the fleet list, or — after Enter on a local row —
 * the normal app on that row's root (its running store, its own UiStore kept
 * for the next visit), with Esc back to the fleet. The fleet's keys are read
 * through the same decoder as the app's (useKeyEvents) and dispatched from
 * its bindings table (keys.ts) by the same `dispatch` the panes use; only one
 * of the two is mounted at a time, so a key is never seen twice.
 */
import React, { useEffect, useMemo, useReducer, useSyncExternalStore } from 'react';
import { App } from './app.js';
import type { LocalFleet } from './fleet/local.js';
import { ackLocalRow } from './fleet/ack.js';
import type { FleetRow, RemoteActions } from './fleet/model.js';
import { rowIdentity } from './feeds/row.js';
import { dispatch } from './kit/bindings.js';
import type { InputEvent } from './terminal/keys.js';
import { useKeyEvents } from './input/use-router.js';
import { openDetail, type SessionsPaneState } from './panes/sessions/reducer.js';
import { PANES } from './panes/registry.js';
import { useTerminalSize } from './terminal/use-size.js';
import { ThemeContext, type Theme } from './ui/theme.js';
import { UiStore } from './kit/ui-store.js';
import { FLEET_BINDINGS, heightOf, type FleetKeyContext } from './panes/fleet/keys.js';
import type { NotifySwitch } from './feeds/notify/switch-words.js';
import { FleetUi, typeFilter } from './panes/fleet/reducer.js';
import { FleetView, nextClockChangeMs } from './panes/fleet/view.js';
import type { Problem, Subscribable } from './store/types.js';

export interface FleetShellProps {
  fleet: LocalFleet;
  fleetUi: FleetUi;
  remote?: RemoteActions;
  theme: Theme;
  /** --readonly: remote cancel and pause are refused (the panes of an opened project follow their store). */
  readonly?: boolean;
  exit(): void;
  redraw(): void;
  suspend<T>(fn: () => Promise<T>): Promise<T>;
  /** The fleet's notifications (fleet-terminal.ts): `N` switches them, in the list and in an opened project. */
  notifier?: NotifySwitch | null;
  /** Each opened project's UiStore by root id (the caller's, so a hang-up can keep their drafts); made here if absent. */
  uiStores?: Map<string, UiStore>;
  /** Problems with omc-top's own files (its config file, looked at again while the fleet runs: config-problems.ts). */
  ownProblems?: Subscribable<readonly Problem[]>;
}

/** None (tests, serve): one array, so that React sees the same snapshot every time it asks. */
const NONE: readonly Problem[] = [];
const NO_PROBLEMS: Subscribable<readonly Problem[]> = { subscribe: () => () => undefined, getSnapshot: () => NONE };

export function FleetShell(props: FleetShellProps) {
  const { fleet, fleetUi } = props;
  const ui = useSyncExternalStore(fleetUi.subscribe, fleetUi.getSnapshot);
  const uiStores = useMemo(() => props.uiStores ?? new Map<string, UiStore>(), [props.uiStores]);
  // Stores the caller holds outlive a remount (Ctrl-L, fg) and are disposed by it at the end.
  const ownStores = props.uiStores === undefined;
  useEffect(() => () => (ownStores ? uiStores.forEach((u) => u.dispose()) : undefined), [uiStores, ownStores]);
  // The open root as the fleet has it now: a new object when its directory was renamed (opened again there), none
  // once it is gone. Only that answer re-renders the shell, not every change of the fleet's rows.
  const openId = ui.open;
  const open = useSyncExternalStore(fleet.subscribe, () => (openId ? fleet.root(openId) : undefined));
  const lost = openId !== null && open === undefined ? openId : null;
  const lastLabel = useMemo(() => new Map<string, string>(), []);
  if (open) lastLabel.set(open.info.id, open.info.label);
  useEffect(() => {
    if (lost === null) return;
    // Its panes read a closed store: back to the fleet, whose list says the project is gone.
    fleetUi.open(null);
    fleetUi.flash(`${lastLabel.get(lost) ?? 'that project'} is gone: its directory was removed or renamed`, 'error');
  }, [lost, fleetUi, lastLabel]);
  if (open) {
    let u = uiStores.get(ui.open as string);
    if (!u) {
      u = new UiStore({ pane: 'sessions' });
      uiStores.set(ui.open as string, u);
    }
    return (
      <App
        // A root opened again (renamed) is a new store: the panes start over on it, with the same UiStore.
        key={open.store.root}
        store={open.store}
        ui={u}
        panes={PANES}
        rootExplain={`${open.info.explain} (--all: Esc back to the fleet)`}
        theme={props.theme}
        exit={props.exit}
        redraw={props.redraw}
        suspend={props.suspend}
        back={() => fleetUi.open(null)}
        // The root's count and inbox; the fleet's one notifier rings for it (N switches it here too).
        attention={{ monitor: open.monitor, notifier: props.notifier ?? null }}
      />
    );
  }
  return (
    <ThemeContext.Provider value={props.theme}>
      <FleetList {...props} uiStores={uiStores} />
    </ThemeContext.Provider>
  );
}

function FleetList(props: FleetShellProps & { uiStores: Map<string, UiStore> }) {
  const { fleet, fleetUi, remote } = props;
  const snap = useSyncExternalStore(fleet.subscribe, fleet.getSnapshot);
  const ui = useSyncExternalStore(fleetUi.subscribe, fleetUi.getSnapshot);
  const ownStore = props.ownProblems ?? NO_PROBLEMS;
  const ownProblems = useSyncExternalStore(ownStore.subscribe, ownStore.getSnapshot);
  const size = useTerminalSize();
  const height = heightOf({ size, state: ui });
  const [, tick] = useReducer((n: number) => n + 1, 0);
  // Time-derived text (ages, a cancel countdown) is redrawn when a row on screen would read differently, and only
  // then: nothing else re-renders an idle fleet.
  useEffect(() => {
    const wait = nextClockChangeMs(snap, ui, size.rows, Date.now());
    if (!Number.isFinite(wait)) return;
    const t = setTimeout(tick, wait + 2);
    return () => clearTimeout(t);
  });
  useEffect(() => fleetUi.settle(snap, height));

  /** Straight to the session's detail, as if it had been picked in the project's own list. */
  const openProject = (row: FleetRow, atSession: boolean) => {
    if (atSession) {
      let u = props.uiStores.get(row.rootId);
      if (!u) {
        u = new UiStore({ pane: 'sessions' });
        props.uiStores.set(row.rootId, u);
      }
      const init = PANES.find((p) => p.id === 'sessions')!.init as () => SessionsPaneState;
      u.setPane('sessions');
      u.setPaneState('sessions', (st: SessionsPaneState) => openDetail(st, rowIdentity(row)), init);
    }
    fleetUi.open(row.rootId);
  };

  // Read when the key comes, never from a render closure: a burst of keys sees every earlier key's state.
  const contextNow = (): FleetKeyContext => ({
    state: fleetUi.getSnapshot(),
    set: (next) => fleetUi.update(next),
    app: {
      readonly: props.readonly ?? false,
      flash: (text, kind) => fleetUi.flash(text, kind === 'error' ? 'error' : 'info'),
    },
    snap: fleet.getSnapshot(),
    size,
    remote,
    exit: props.exit,
    redraw: props.redraw,
    openProject,
    notifier: props.notifier ?? null,
    ownProblems: ownStore.getSnapshot(),
    ackRow: (row) =>
      row.host
        ? (remote?.ack(row) ?? Promise.resolve({ ok: false, text: 'no hosts' }))
        : ackLocalRow(fleet.root(row.rootId), row, Date.now()),
  });

  const onKey = (ev: InputEvent): void => {
    const ctx = contextNow();
    if (dispatch(FLEET_BINDINGS, ev, ctx)) return;
    // ESC and the next key in one read (fast typing) decode as Alt+key: that was an Esc, then the key.
    if (ev.kind === 'key' && ev.key.meta && ev.key.name === 'char' && !ev.key.ctrl) {
      onKey({ kind: 'key', key: { ...ev.key, name: 'escape', ch: '', meta: false } });
      onKey({ kind: 'key', key: { ...ev.key, meta: false } });
      return;
    }
    const s = ctx.state;
    if (!s.filterEditing || s.confirm || s.help) return;
    // The filter field is open: text goes in, every other key is swallowed.
    const text =
      ev.kind === 'paste' ? ev.text : ev.key.name === 'char' && !ev.key.ctrl && !ev.key.meta ? ev.key.ch : null;
    if (text !== null) fleetUi.update((st) => typeFilter(st, text));
  };
  useKeyEvents(onKey);

  return (
    <FleetView
      snap={snap}
      ui={ui}
      hosts={remote?.hosts() ?? 0}
      hostsLive={remote?.hostsLive() ?? 0}
      width={Math.max(20, size.columns)}
      rows={size.rows}
      now={Date.now()}
      readonly={props.readonly ?? false}
      notifyOff={props.notifier ? !props.notifier.isEnabled() : false}
      ownProblems={ownProblems}
      remote={remote}
    />
  );
}
