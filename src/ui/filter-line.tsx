/**
 * The line above a filtered list, the same in every pane: `/<filter>` (a
 * block cursor while typing), how many rows match, and which keys keep or
 * clear it. Cut to the pane's width.
 */
import React from 'react';
import { Text } from 'ink';
import { cleanLine } from '../io/sanitize.js';
import { clip, width as cells } from './format.js';
import { useTheme } from './theme.js';

/**
 * The filter as typed, in at most `w` cells: a trailing space stays on the line (the match ignores it, but a
 * space that drew nothing looked like a key not taken); a filter too wide is cut with `…` as any text is.
 */
export function typedFilter(filter: string, w: number): string {
  const clean = cleanLine(filter);
  return cells(clean) <= w ? clean : clip(filter, w);
}

export function FilterLine(props: {
  /** The list's filter state: its text, and whether it is being typed. */
  of: { filter: string; filterEditing: boolean };
  shown: number;
  total: number;
  width: number;
}): React.ReactElement {
  const theme = useTheme();
  const { filter, filterEditing: editing } = props.of;
  const keys = editing ? '  (Enter keeps, Esc clears)' : '  (Esc clears)';
  return (
    <Text wrap="truncate">
      <Text color={theme.accent}>/</Text>
      {typedFilter(filter, Math.max(1, props.width - 30))}
      {editing ? <Text inverse> </Text> : null}
      <Text color={theme.muted}>{`  ${props.shown} of ${props.total} match${keys}`}</Text>
    </Text>
  );
}
