import React, { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { OmcStore } from '../../store/store.js';
import type { RunLine } from '../../store/runs/history.js';
import { clip, fit } from '../../ui/format.js';
import { EmptyLines } from '../../ui/empty-lines.js';
import { moreText, withNote } from '../../kit/list.js';
import { ScrollLines } from '../../ui/scroll-lines.js';
import { useTheme } from '../../ui/theme.js';
import type { ViewProps } from '../../kit/pane.js';
import { runDetailLines } from './detail.js';
import { filterSummary, historyLayout } from './layout.js';
import { runId, type HistoryPaneState } from './reducer.js';
import { historyHeader, historyRowText } from './rows.js';
import { runKey } from '../../store/cost/rollup.js';
import { costOf, runCosts, runSpends } from './costs.js';
import { incompleteLine, notKnownLine, ROOT_NAME, useRootUnreadWhy } from '../../ui/not-known.js';

export function detailInputs(store: OmcStore, r: RunLine) {
  return {
    claude: store.claude.getSnapshot(),
    facts: store.runs.nextSession().filter((f) => f.mode === r.mode && f.sessionId === r.sessionId),
    budget: store.runs.budgetFor(r.mode),
    spend: runSpends(store).get(runKey(r)) ?? null,
  };
}

/** Only reads: the runs domain's history, the Claude snapshot (tokens) and the pane state. */
export function HistoryView({ state, store, width, height }: ViewProps<HistoryPaneState>) {
  const theme = useTheme();
  const runs = useSyncExternalStore(store.runs.subscribe, store.runs.runs);
  // Tokens come from the transcripts: repaint when they move.
  useSyncExternalStore(store.claude.subscribe, store.claude.getSnapshot);
  const rootWhy = useRootUnreadWhy(store);
  const notRead = useSyncExternalStore(store.runs.subscribe, store.runs.notRead);

  if (state.detail) {
    const r = runs.find((x) => runId(x) === state.detail?.id);
    if (!r)
      return (
        <Box height={height} flexDirection="column">
          <Text color={theme.warn} wrap="truncate">
            {clip('This run is gone from the history (its ledger lines rotated away). Esc to go back.', width)}
          </Text>
        </Box>
      );
    return (
      <ScrollLines
        lines={runDetailLines(r, width - 1, detailInputs(store, r))}
        scroll={state.detail.scroll}
        width={width}
        height={height}
      />
    );
  }

  const costs = runCosts(store);
  const lay = historyLayout(state, runs, { columns: width, rows: height }, notRead, costs);
  const { rows, view } = lay;
  const shown = rows.slice(view.top, view.top + lay.height);
  const summary = filterSummary(state);
  return (
    <Box flexDirection="column" height={height}>
      {lay.showFilter ? (
        <Text wrap="truncate">
          <Text color={theme.accent}>/</Text>
          {clip(state.filter, Math.max(1, width - 40))}
          {state.filterEditing ? <Text inverse> </Text> : null}
          <Text color={theme.muted}>
            {clip(
              `  ${summary ? `${summary} · ` : ''}${rows.length} of ${runs.length} runs${state.filterEditing ? '  (Enter keeps, Esc clears)' : '  (Esc clears)'}`,
              Math.max(0, width - 2 - state.filter.length),
            )}
          </Text>
        </Text>
      ) : null}
      {lay.incomplete !== null ? (
        <Text color={theme.warn} wrap="truncate">
          {clip(incompleteLine('Runs', lay.incomplete, 'the ⚠ line says why'), width)}
        </Text>
      ) : null}
      <Text bold color={theme.muted} wrap="truncate">
        {lay.noteLine
          ? fit(historyHeader(width), width)
          : withNote(historyHeader(width), moreText(view, lay.height, rows.length), width, fit)}
      </Text>
      {rows.length === 0 ? (
        <EmptyLines
          text={
            runs.length === 0 && rootWhy !== null
              ? notKnownLine('Runs', ROOT_NAME, rootWhy)
              : runs.length === 0 && notRead !== null
                ? notKnownLine('Runs', notRead, 'the ⚠ line says why')
                : runs.length === 0
                  ? '  No runs yet: OMC 5.6 logs each ralph / autopilot / team / ultragoal run in state/runs/ledger.jsonl; ended sessions come from .omc/sessions/.'
                  : '  No run matches the filter (Esc clears).'
          }
          width={width}
          rows={lay.height}
        />
      ) : (
        shown.map((r, i) => {
          const selected = view.top + i === view.index;
          const cost = costOf(costs, r);
          const t = historyRowText(r, width, selected, cost.spend, cost.reading);
          const color =
            r.outcome === 'crashed' || r.outcome === 'failed' || r.outcome === 'unknown'
              ? theme.warn
              : r.outcome === 'running'
                ? theme.ok
                : r.outcome === 'ended'
                  ? theme.muted
                  : undefined;
          return (
            <Text key={runId(r)} wrap="truncate" inverse={selected} color={color}>
              {fit(t.marker + t.cells, width)}
            </Text>
          );
        })
      )}
      {lay.noteLine && rows.length > 0 ? (
        <Text color={theme.muted} wrap="truncate">
          {fit(`  ${moreText(view, lay.height, rows.length)}`, width)}
        </Text>
      ) : null}
    </Box>
  );
}
