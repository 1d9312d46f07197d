/**
 * The fleet list: header, one line per group and per session (under a filter
 * line while one is typed or kept), a message line and the footer, whose
 * hints come from the bindings table. `?` shows the help in the list's place.
 * Reads only.
 */
import React from 'react';
import { Box, Text } from 'ink';
import { lineId, type FleetSnapshot, type RemoteActions } from '../../fleet/model.js';
import { rowSignal, settledUntilMs } from '../../feeds/row.js';
import { footerHints } from '../../kit/bindings.js';
import { hintsThatFit } from '../../ui/chrome.js';
import { FilterLine } from '../../ui/filter-line.js';
import { ageTickMs, fit } from '../../ui/format.js';
import { EmptyLines } from '../../ui/empty-lines.js';
import { quotaWordsChangeInMs } from '../../store/cost/quota-words.js';
import { listView, moreAbove, moreBelow } from '../../kit/list.js';
import { ScrollLines } from '../../ui/scroll-lines.js';
import { useTheme } from '../../ui/theme.js';
import { FLEET_BINDINGS, REMOTE_ONLY_HINTS, fleetHelpScroll, fleetTextLines, footerContext } from './keys.js';
import type { Problem } from '../../store/types.js';
import { shownPath } from '../../io/shown-path.js';
import { columnsHeader, groupLine, headerText, listHeight, rowLine } from './layout.js';
import { filtering, rowCounts, selectedRow, shownIds, shownLines, type FleetUiState } from './reducer.js';

/**
 * Milliseconds until the text of a row on screen moves with the clock alone (an age turns over, a cancel counts
 * down a second); Infinity when none will (the help, a confirmation, no rows). An idle fleet of old sessions
 * redraws on the ages' minute grid instead of every few seconds, as the sessions pane does.
 */
const YOUNG_GRID_MS = 5_000;

export function nextClockChangeMs(snap: FleetSnapshot, ui: FleetUiState, rows: number, now: number): number {
  if (ui.help || ui.confirm) return Infinity;
  // The header's plan quota: its countdowns and age move by the minute.
  let next = snap.local !== false ? quotaWordsChangeInMs(snap.quota ?? null, now) : Infinity;
  const height = listHeight(rows, filtering(ui));
  const lines = shownLines(snap, ui.filter);
  const view = listView(ui.list, shownIds(snap, ui.filter), height);
  for (let i = view.top; i < Math.min(lines.length, view.top + height); i++) {
    const l = lines.at(i);
    if (l?.kind !== 'row') continue;
    const age = l.row.updatedMs === null ? null : now - l.row.updatedMs;
    // Seconds-old rows turn over together on the wall clock's 5 s grid (one frame for all), older ones on the
    // minute grids ageTickMs keeps. A row of a host that is not live draws no age (AGE_NOT_KNOWN).
    if (l.row.asOfMs === undefined)
      next = Math.min(
        next,
        age !== null && age < 60_000 ? YOUNG_GRID_MS - (now % YOUNG_GRID_MS) : ageTickMs(l.row.updatedMs, now),
      );
    const until = rowSignal(l.row)?.untilMs ?? l.row.cancelFlight?.untilMs ?? null;
    if (until !== null && until > now) next = Math.min(next, (until - now) % 1000 || 1000);
    // A settled cancel's word leaves the row after its minutes (store/cancel/settled.ts).
    const hideAt = settledUntilMs(l.row);
    if (hideAt !== null && hideAt > now) next = Math.min(next, hideAt - now);
    // "stopping 47s" counts up from the cancel: seconds, then minutes.
    const since = l.row.cancelFlight?.sinceMs ?? null;
    if (since !== null) {
      const t = Math.max(0, now - since);
      next = Math.min(next, t < 120_000 ? 1000 - (t % 1000) : 60_000 - (t % 60_000));
    }
  }
  return next;
}

export function FleetView({
  snap,
  ui,
  hosts,
  hostsLive,
  width,
  rows,
  now,
  readonly = false,
  notifyOff = false,
  ownProblems = [],
  remote,
}: {
  snap: FleetSnapshot;
  ui: FleetUiState;
  hosts: number;
  hostsLive: number;
  width: number;
  rows: number;
  now: number;
  readonly?: boolean;
  /** `N` turned the fleet's notifications off: the header says so, as the monitor's does. */
  notifyOff?: boolean;
  /** Problems with omc-top's own files (its config file): the message line keeps the first, `!` lists them. */
  ownProblems?: readonly Problem[];
  /** The --host actions, when there are any: the help says of r reconnect what pressing it would. */
  remote?: RemoteActions | undefined;
}) {
  const theme = useTheme();
  const withFilter = filtering(ui);
  const height = listHeight(rows, withFilter);
  const lines = shownLines(snap, ui.filter);
  const view = listView(ui.list, shownIds(snap, ui.filter), height);
  const above = moreAbove(view);
  const below = moreBelow(view, height, lines.length);
  // c, p and r act on a remote session; on a local row (Enter opens its panes) the footer does not offer them.
  // The keys that act on a session are offered only while one is selected (keys.ts, sessionSelected).
  const line = lines.at(view.index) ?? null;
  const host = selectedRow(line)?.host ?? (line?.kind === 'group' ? line.group.host : null);
  const onRemote = hosts > 0 && host !== null;
  const keys = footerContext(snap, ui, { columns: width, rows }, readonly, remote);
  const hints = footerHints(FLEET_BINDINGS, ui, readonly, keys).filter(
    ([, what]) => onRemote || !REMOTE_ONLY_HINTS.has(what),
  );
  const more =
    above + below > 0
      ? `  ${above ? `↑${above}` : ''}${above && below ? ' ' : ''}${below ? `↓${below}` : ''} more`
      : '';
  // A bad config file stays said under the list while it is bad (a message replaces it for a moment), as the
  // monitor keeps its problem lines; `!` lists it whole.
  const first = ownProblems[0];
  const own = first
    ? `⚠ ${shownPath(first.path)}: ${first.message}${ownProblems.length > 1 ? `  (+${ownProblems.length - 1} more: !)` : ''}`
    : null;
  let body: React.ReactNode;
  if (ui.help && !ui.confirm) {
    body = (
      <ScrollLines
        lines={fleetTextLines(ui.help, width, readonly, ownProblems, snap.problems, keys)}
        scroll={fleetHelpScroll(ui.help, { columns: width, rows }, readonly, ownProblems, snap.problems, keys)}
        width={width}
        height={listHeight(rows) + 1}
      />
    );
  } else if (ui.confirm) {
    const c = ui.confirm;
    body = (
      <Box flexDirection="column" height={height + 1}>
        <Text bold wrap="truncate">
          {fit(c.title, width)}
        </Text>
        {c.lines.slice(0, Math.max(0, height - 1)).map((l, i) => (
          <Text key={i} wrap="truncate">
            {fit(l, width)}
          </Text>
        ))}
        <Text color={theme.accent} wrap="truncate">
          {fit('y: yes    n / Esc: no', width)}
        </Text>
      </Box>
    );
  } else {
    const visible = lines.slice(view.top, view.top + height);
    const counts = withFilter ? rowCounts(snap, ui.filter) : null;
    body = (
      <Box flexDirection="column" height={height + (withFilter ? 2 : 1)}>
        {counts ? <FilterLine of={ui} shown={counts.shown} total={counts.total} width={width} /> : null}
        <Text bold color={theme.muted} wrap="truncate">
          {fit(columnsHeader(width, more).trimEnd(), width)}
        </Text>
        {lines.length === 0 ? (
          <EmptyLines
            text={
              counts && counts.total > 0
                ? '  No row matches the filter (Esc clears it).'
                : snap.ready
                  ? '  No OMC sessions on this machine yet: no live Claude session, $OMC_STATE_DIR project or ~/.omc has one.'
                  : '  Reading…'
            }
            width={width}
            rows={height}
          />
        ) : (
          visible.map((l, i) => {
            const selected = view.top + i === view.index;
            if (l.kind === 'detail') {
              return (
                <Text
                  key={lineId(l)}
                  color={l.group.tone === 'error' ? theme.error : theme.warn}
                  inverse={selected}
                  wrap="truncate"
                >
                  {fit(`    ${l.text}`, width)}
                </Text>
              );
            }
            if (l.kind === 'group') {
              const color =
                l.group.tone === 'error' ? theme.error : l.group.tone === 'warn' ? theme.warn : theme.accent;
              return (
                <Text key={lineId(l)} bold color={color} inverse={selected} wrap="truncate">
                  {groupLine(l.group, width, selected)}
                </Text>
              );
            }
            // A row of a host that is not live is not current: dimmed (and its AGE `?`, which NO_COLOR keeps).
            const stale = l.row.asOfMs !== undefined;
            return (
              <Text
                key={lineId(l)}
                inverse={selected}
                color={stale ? theme.muted : theme.status[l.row.status]}
                dimColor={stale}
                wrap="truncate"
              >
                {rowLine(l.row, now, width, selected)}
              </Text>
            );
          })
        )}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width} height={rows - 1}>
      <Text bold wrap="truncate">
        {fit(headerText(snap, hosts, hostsLive, now, width, notifyOff), width)}
      </Text>
      {body}
      <Text color={ui.flash?.kind === 'error' || (!ui.flash && own) ? theme.error : theme.muted} wrap="truncate">
        {fit(ui.flash?.text ?? own ?? snap.problems[0] ?? '', width)}
      </Text>
      <Text color={theme.muted} wrap="truncate">
        {fit(hintsThatFit(hints, width), width)}
      </Text>
    </Box>
  );
}
