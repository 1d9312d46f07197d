import { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import { clip, fit } from '../../ui/format.js';
import { EmptyLines } from '../../ui/empty-lines.js';
import { moreText } from '../../kit/list.js';
import { useTheme, type Theme } from '../../ui/theme.js';
import type { ViewProps } from '../../kit/pane.js';
import { detailLayout, type Tone } from './detail.js';
import { followSessions, sessionsSelection } from './link.js';
import { selectedTask, type TeamsPaneState } from './reducer.js';
import { taskLines } from './task-lines.js';
import { ScrollLines } from '../../ui/scroll-lines.js';
import { teamsListLayout } from './layout.js';
import { teamLines, teamsHeader } from './rows.js';
import { FilterLine } from '../../ui/filter-line.js';
import { notKnownLine, ROOT_NAME, useRootUnreadWhy } from '../../ui/not-known.js';

function toneColor(theme: Theme, tone: Tone | undefined): string | undefined {
  switch (tone) {
    case 'error':
      return theme.error;
    case 'warn':
      return theme.warn;
    case 'ok':
      return theme.ok;
    case 'dim':
    case 'section':
      return theme.muted;
    case 'focus':
      return theme.accent;
    default:
      return undefined;
  }
}

/** Only reads: the snapshot, the pane state, and (for the sessions link) the sessions selection. */
export function TeamsView({ state, store, width, height, now, ui }: ViewProps<TeamsPaneState>) {
  const theme = useTheme();
  const snap = useSyncExternalStore(store.teams.subscribe, store.teams.getSnapshot);
  const s = ui ? followSessions(state, sessionsSelection(ui, store, now), snap) : state;
  const rootWhy = useRootUnreadWhy(store);

  if (s.detail) {
    const team = snap.teams.find((t) => t.key === s.detail?.key);
    if (!team) {
      return (
        <Box height={height} flexDirection="column">
          <Text color={theme.warn} wrap="truncate">
            {clip(`Team ${s.detail.key} is gone from disk (cleaned up). Esc to go back.`, width)}
          </Text>
        </Box>
      );
    }
    const task = s.detail.taskOpen ? selectedTask(team, s.detail, now) : undefined;
    if (task)
      return (
        <ScrollLines
          lines={taskLines(team, task, width - 1)}
          scroll={s.detail.taskScroll}
          width={width}
          height={height}
        />
      );
    const layout = detailLayout(team, s.detail, width, height, now, snap.heartbeatStaleMs);
    return (
      <Box flexDirection="column" height={height}>
        {layout.lines.map((l, i) => (
          <Text
            key={i}
            wrap="truncate"
            inverse={l.selected}
            bold={l.tone === 'title' || l.tone === 'focus'}
            color={toneColor(theme, l.tone)}
          >
            {l.text === '' ? ' ' : l.text}
          </Text>
        ))}
      </Box>
    );
  }

  const lay = teamsListLayout(s, snap, { columns: width, rows: height }, now);
  const { rows, showFilter, height: fitTeams } = lay;
  const { index: sel, top } = lay.view;
  const shown = rows.slice(top, top + fitTeams);
  return (
    <Box flexDirection="column" height={height}>
      {showFilter ? <FilterLine of={s} shown={rows.length} total={snap.teams.length} width={width} /> : null}
      <Text bold color={theme.muted} wrap="truncate">
        {fit(teamsHeader(width, moreText(lay.view, fitTeams, rows.length)), width)}
      </Text>
      {rows.length === 0 ? (
        <EmptyLines
          text={
            snap.teams.length === 0 && rootWhy !== null
              ? notKnownLine('Teams', ROOT_NAME, rootWhy)
              : snap.teams.length === 0 && snap.unreadableDirs?.[0] !== undefined
                ? notKnownLine('Teams', snap.unreadableDirs[0], 'the ⚠ line says why')
                : snap.teams.length === 0
                  ? '  No team runs yet: start /team in Claude (OMC team mode) and its workers, tasks and events show up here.'
                  : '  No team matches the filter.'
          }
          width={width}
          rows={height - 1 - (showFilter ? 1 : 0)}
        />
      ) : (
        shown.map((t, i) => {
          const selected = top + i === sel;
          const [l1, l2, l3] = teamLines(t, now, width, snap.heartbeatStaleMs, selected);
          const bad = t.problems.some((p) => p.severity === 'error');
          return (
            <Box key={t.key} flexDirection="column">
              <Text wrap="truncate" inverse={selected} bold={t.board === 'running'}>
                {fit(l1, width)}
              </Text>
              <Text wrap="truncate" color={bad ? theme.warn : theme.muted}>
                {l2 === '' ? ' ' : l2}
              </Text>
              <Text wrap="truncate" color={theme.muted}>
                {l3.trim() === '' ? ' ' : l3}
              </Text>
            </Box>
          );
        })
      )}
    </Box>
  );
}
