/**
 * The problems view (`!`) is a list like the others: one row per problem,
 * the selected one's full text below, Enter jumps to the pane that shows the
 * file (a session's file opens that session).
 */
import React from 'react';
import { Box, Text } from 'ink';
import type { Size } from '../kit/pane.js';
import { clip, wrapText } from './format.js';
import { initList, listView, type ListState, type ListView } from '../kit/list.js';
import { useTheme } from './theme.js';
import { explainOmc56Path } from '../store/omc56/known-files.js';
import type { PaneId } from '../kit/ui-store.js';

export interface ProblemLike {
  path: string;
  message: string;
  severity: string;
  /** The selected item's own lines, when it has more to say than its path and message (an OMC gate's run). */
  detail?: readonly string[];
}

const NEEDS = 'needs you';

export const problemId = (p: ProblemLike) => `${p.path}\u0000${p.message}`;

export interface ProblemsLayout {
  ids: string[];
  /** Rows for the list; the selected problem's full text takes the rest. */
  height: number;
  detail: string[];
  view: ListView;
}

export function problemsLayout(
  problems: readonly ProblemLike[],
  list: ListState | undefined,
  body: Size,
): ProblemsLayout {
  const ids = problems.map(problemId);
  const l = list ?? initList();
  const first = listView(l, ids, Number.MAX_SAFE_INTEGER);
  const sel = problems[first.index];
  const w = Math.max(10, body.columns - 2);
  // An OMC 5.6 file says what it is: these files are new to most users (known-files.ts).
  const known = sel ? explainOmc56Path(sel.path) : null;
  const detail = sel?.detail
    ? sel.detail.flatMap((l) => wrapText(l, w)).slice(0, 10)
    : sel
      ? [
          ...wrapText(sel.path, w),
          ...wrapText(`  ${sel.message}`, w),
          ...(known ? wrapText(`  (${sel.path}: ${known.what})`, w) : []),
        ].slice(0, 10)
      : [];
  const height = Math.max(1, body.rows - 2 - (detail.length ? detail.length + 1 : 0));
  return { ids, height, detail, view: listView(l, ids, height) };
}

/** The pane that shows a problem's file (the pane's `reveal` then opens the item it belongs to). */
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

export function ProblemsView({
  problems,
  list,
  width,
  height,
}: {
  problems: readonly ProblemLike[];
  list: ListState | undefined;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const lay = problemsLayout(problems, list, { columns: width, rows: height });
  // The attention monitor's items (notify/attention-control.ts) come last, marked apart from file problems.
  // Items to answer (a permission request, an OMC gate) come first; other needs after the file problems.
  const answers = problems.filter((p) => p.path.startsWith('answer:')).length;
  const needs = problems.filter((p) => p.severity === NEEDS).length - answers;
  const { index, top } = lay.view;
  const shown = problems.slice(top, top + lay.height);
  const more = [
    top > 0 ? `↑${top}` : '',
    problems.length - top - lay.height > 0 ? `↓${problems.length - top - lay.height}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Box flexDirection="column" height={height}>
      <Text bold color={theme.accent} wrap="truncate">
        {clip(
          `${answers ? `To answer (${answers}, listed first) · ` : ''}Problems found in .omc (${problems.length - needs - answers})${needs ? ` · needs you (${needs}, listed last)` : ''}${more ? `  ${more} more` : ''}  ·  Enter opens the pane  ·  Esc closes`,
          width,
        )}
      </Text>
      {problems.length === 0 ? <Text>None: every file omc-top reads parsed cleanly.</Text> : null}
      {shown.map((p, i) => (
        <Text
          key={problemId(p)}
          wrap="truncate"
          inverse={top + i === index}
          color={p.severity === 'error' ? theme.error : theme.warn}
        >
          {clip(
            `${top + i === index ? '▸' : ' '} ${p.severity === NEEDS ? (p.path.startsWith('answer:') ? `» ${p.message}` : `» ${p.message} — ${p.path}`) : `⚠ ${p.path}: ${p.message}`}`,
            width,
          )}
        </Text>
      ))}
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
