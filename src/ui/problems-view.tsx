/**
 * The inbox (`!`): what needs you, oldest first, then what was acknowledged
 * and still holds, then the problems with files, each under its heading; the
 * selected row's full text below. Its keys (open, jump, cancel, acknowledge)
 * are a bindings table (input/inbox.ts): the footer and the help come from it.
 */
import React from 'react';
import { Box, Text } from 'ink';
import type { ListState } from '../kit/list.js';
import { moreText, withNote } from '../kit/list.js';
import type { PaneId } from '../kit/ui-store.js';
import { clip } from './format.js';
import { inboxLayout, rowText, type InboxRow } from './inbox-layout.js';
import { useTheme } from './theme.js';

/** The pane that shows a file (the pane's `reveal` then opens the item it belongs to). */
export function paneOfProblem(path: string): { pane: PaneId } | null {
  if (path.startsWith('state/sessions/')) return { pane: 'sessions' };
  if (path.startsWith('state/team/')) return { pane: 'teams' };
  // The run ledger and the per-mode closeout notepads: the History pane shows the runs they judge.
  if (path.startsWith('state/runs/') || path.startsWith('notepads/')) return { pane: 'history' };
  if (path === 'notepad.md' || path.startsWith('notepad')) return { pane: 'notepad' };
  if (path.startsWith('project-memory')) return { pane: 'memory' };
  if (path.startsWith('wiki/') || path === 'wiki') return { pane: 'wiki' };
  if (path.startsWith('state/')) return { pane: 'sessions' };
  return null;
}

export function InboxView({
  rows,
  list,
  width,
  height,
  now,
}: {
  rows: InboxRow[];
  list: ListState | undefined;
  width: number;
  height: number;
  now: number;
}) {
  const theme = useTheme();
  const lay = inboxLayout(rows, list, { columns: width, rows: height }, now);
  const { index, top } = lay.view;
  const shown = rows.slice(top, top + lay.height);
  // The header's count: the needs listed on their own and those listed to answer (a prompt, a gate) alike.
  const open = rows.filter(
    (r) => (r.kind === 'need' && !r.acked) || (r.kind === 'problem' && r.need && !r.need.acked),
  ).length;
  const title = `Inbox · needs you: ${open}  ·  Esc closes`;
  return (
    <Box flexDirection="column" height={height}>
      <Text bold color={theme.accent} wrap="truncate">
        {withNote(title, moreText(lay.view, lay.height, rows.length), width, clip)}
      </Text>
      {shown.map((r, i) => {
        const sel = top + i === index;
        const tone =
          r.kind === 'heading'
            ? theme.accent
            : r.kind === 'problem'
              ? r.problem.severity === 'error'
                ? theme.error
                : theme.warn
              : r.acked
                ? undefined
                : theme.warn;
        return (
          <Text
            key={r.id}
            wrap="truncate"
            inverse={sel}
            bold={r.kind === 'heading'}
            dimColor={r.kind === 'need' && r.acked && !sel}
            color={tone}
          >
            {clip(r.kind === 'heading' ? r.text : `${sel ? '▸' : ' '} ${rowText(r, now)}`, width)}
          </Text>
        );
      })}
      {lay.detail.length > 0 ? (
        <>
          <Box flexGrow={1} />
          {lay.detail.map((l, i) => (
            <Text key={`d${i}`} wrap="truncate">
              {clip(`  ${l}`, width)}
            </Text>
          ))}
        </>
      ) : null}
    </Box>
  );
}
