import React, { useSyncExternalStore } from 'react';
import type { ViewProps } from '../../kit/pane.js';
import { configuredPrices } from '../../store/claude/price-config.js';
import { ScrollLines } from '../../ui/scroll-lines.js';
import { costPaneLines } from './lines.js';
import type { CostPaneState } from './state.js';
import { useRootUnreadWhy } from '../../ui/not-known.js';

/** Only reads: sessions, Claude, runs, quota, background jobs and omc-top's cancels, each subscribed so the page follows them. */
export function CostView({ state, store, width, height, now }: ViewProps<CostPaneState>) {
  useSyncExternalStore(store.sessions.subscribe, store.sessions.getSnapshot);
  useSyncExternalStore(store.claude.subscribe, store.claude.getSnapshot);
  useSyncExternalStore(store.runs.subscribe, store.runs.runs);
  useSyncExternalStore(store.quota.subscribe, store.quota.getSnapshot);
  useSyncExternalStore(store.bgJobs.subscribe, store.bgJobs.getSnapshot);
  // omc-top's cancels (its own, and every omc-top's record) word an OMC loop's state as the Sessions pane does.
  useSyncExternalStore(store.cancels.subscribe, store.cancels.getSnapshot);
  useSyncExternalStore(store.cancelRecords.subscribe, store.cancelRecords.getSnapshot);
  // A root that cannot be read makes the loops "not known", not "none".
  useRootUnreadWhy(store);
  const lines = costPaneLines(store, configuredPrices(), now, width);
  return <ScrollLines lines={lines} scroll={state.scroll} width={width} height={height} />;
}
