/**
 * `omc-top --all` on screen: the fleet list, or — after Enter on a local row —
 * the normal app on that row's root (its running store, its own UiStore kept
 * for the next visit), with Esc back to the fleet. The fleet's keys are read
 * through the same decoder as the app's (useKeyEvents); only one of the two
 * is mounted at a time, so a key is never seen twice.
 */
import React, { useEffect, useMemo, useReducer, useSyncExternalStore } from 'react';
import { App } from '../../app.js';
import type { LocalFleet } from '../../fleet/local.js';
import type { FleetRow } from '../../fleet/model.js';
import { matchKey, type KeySpec } from '../../input/bindings.js';
import type { InputEvent } from '../../input/keys.js';
import { useKeyEvents } from '../../input/use-router.js';
import { openDetail, type SessionsPaneState } from '../sessions/reducer.js';
import { PANES } from '../registry.js';
import { useTerminalSize } from '../../terminal/use-size.js';
import { ThemeContext, type Theme } from '../../ui/theme.js';
import { UiStore } from '../../ui/ui-store.js';
import { listHeight } from './layout.js';
import { FleetUi, selectedLine, selectedRow } from './reducer.js';
import { FleetView } from './view.js';

/** What the fleet can do with a remote row (src/fleet/remote.ts); absent without --host. */
export interface RemoteActions {
  hosts(): number;
  /** Hosts whose stream is up (the `ready` line came). */
  hostsLive(): number;
  /** The words of the confirmation: what will run where. */
  describeCancel(row: FleetRow, pause: boolean): string[];
  /** Runs `omc-top cancel` on the row's host; resolves to the message to show. */
  cancel(row: FleetRow, pause: boolean): Promise<{ ok: boolean; text: string }>;
  reconnect(host: string): void;
}

export interface FleetShellProps {
  fleet: LocalFleet;
  fleetUi: FleetUi;
  remote?: RemoteActions;
  theme: Theme;
  exit(): void;
  redraw(): void;
  suspend<T>(fn: () => Promise<T>): Promise<T>;
}

/** Time-derived text (ages, a cancel countdown) moves on this grid; nothing else re-renders an idle fleet. */
const FLEET_TICK_MS = 5_000;

export function FleetShell(props: FleetShellProps) {
  const { fleet, fleetUi } = props;
  const ui = useSyncExternalStore(fleetUi.subscribe, fleetUi.getSnapshot);
  const uiStores = useMemo(() => new Map<string, UiStore>(), []);
  useEffect(() => () => uiStores.forEach((u) => u.dispose()), [uiStores]);
  const open = ui.open ? fleet.root(ui.open) : undefined;
  if (open) {
    let u = uiStores.get(ui.open as string);
    if (!u) {
      u = new UiStore({ pane: 'sessions' });
      uiStores.set(ui.open as string, u);
    }
    return (
      <App
        store={open.store}
        ui={u}
        panes={PANES}
        rootExplain={`${open.info.explain} (--all: Esc back to the fleet)`}
        theme={props.theme}
        exit={props.exit}
        redraw={props.redraw}
        suspend={props.suspend}
        back={() => fleetUi.open(null)}
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
  const size = useTerminalSize();
  const height = listHeight(size.rows);
  const [, tick] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const t = setTimeout(tick, FLEET_TICK_MS - (Date.now() % FLEET_TICK_MS) + 2);
    return () => clearTimeout(t);
  });
  useEffect(() => fleetUi.settle(snap, height));

  const onKey = (ev: InputEvent) => {
    const is = (...keys: KeySpec[]) => keys.some((k) => matchKey(k, ev));
    const state = fleetUi.getSnapshot();
    const cur = fleet.getSnapshot();
    if (state.confirm) {
      if (is('y', 'Y')) {
        const c = state.confirm;
        fleetUi.confirm(null);
        c.onYes();
      } else if (is('n', 'N', 'escape', 'q')) fleetUi.confirm(null);
      return;
    }
    if (is('q', 'ctrl+c')) return props.exit();
    if (is('j', 'down', 'wheeldown')) return fleetUi.move(cur, 1, height);
    if (is('k', 'up', 'wheelup')) return fleetUi.move(cur, -1, height);
    if (is('pagedown', ' ', 'ctrl+d')) return fleetUi.move(cur, { page: 1 }, height);
    if (is('pageup', 'ctrl+u')) return fleetUi.move(cur, { page: -1 }, height);
    if (is('g', 'home')) return fleetUi.move(cur, 'first', height);
    if (is('G', 'end')) return fleetUi.move(cur, 'last', height);
    if (is('ctrl+l')) return props.redraw();
    const line = selectedLine(cur, state.list, height);
    const row = selectedRow(line);
    if (is('enter', 'right', 'l')) {
      if (!row) {
        if (line?.kind === 'group' && line.group.host !== null)
          fleetUi.flash(`@${line.group.host}: no sessions to open`, 'info');
        return;
      }
      if (row.host !== null) {
        fleetUi.flash(
          `${row.session.slice(0, 8)} runs on ${row.host}: c cancels, p pauses it there (its panes: ssh ${row.host} omc-top)`,
        );
        return;
      }
      if (line?.kind === 'row') {
        // Straight to the session's detail, as if it had been picked in the project's own list.
        let u = props.uiStores.get(row.rootId);
        if (!u) {
          u = new UiStore({ pane: 'sessions' });
          props.uiStores.set(row.rootId, u);
        }
        const init = PANES.find((p) => p.id === 'sessions')!.init as () => SessionsPaneState;
        u.setPane('sessions');
        u.setPaneState('sessions', (st: SessionsPaneState) => openDetail(st, row.session), init);
      }
      fleetUi.open(row.rootId);
      return;
    }
    if (is('c', 'p')) {
      const pause = is('p');
      if (!row) return;
      if (row.host === null || !remote) {
        fleetUi.flash('Enter opens this project: cancel and pause it from its sessions list', 'info');
        return;
      }
      fleetUi.confirm({
        title: `${pause ? 'Pause' : 'Cancel'} ${row.session} on ${row.host}?`,
        lines: remote.describeCancel(row, pause),
        onYes: () => {
          fleetUi.flash(`${pause ? 'pausing' : 'cancelling'} ${row.session.slice(0, 8)} on ${row.host}…`);
          void remote.cancel(row, pause).then((r) => fleetUi.flash(r.text, r.ok ? 'info' : 'error'));
        },
      });
      return;
    }
    if (is('r') && remote && row?.host) {
      remote.reconnect(row.host);
      fleetUi.flash(`reconnecting to ${row.host}…`);
      return;
    }
    if (is('r') && remote && line?.kind === 'group' && line.group.host) {
      remote.reconnect(line.group.host);
      fleetUi.flash(`reconnecting to ${line.group.host}…`);
    }
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
    />
  );
}
