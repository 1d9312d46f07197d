/**
 * A list's empty state ("No sessions yet: start a ralph … loop in Claude and it appears here."): the words that
 * tell a new user what to do, so they are wrapped at word boundaries to the pane's width, not cut with "…" at 80
 * or 60 columns. At most `rows` lines (the rows the list would have had), the last one cut if even those are short.
 */
import React from 'react';
import { Text } from 'ink';
import { clip, wrapText } from './format.js';
import { useTheme } from './theme.js';

/** The lines the text takes at `width`, at most `rows` of them (the last cut with … when more were needed). */
export function emptyLines(text: string, width: number, rows: number): string[] {
  const lines = wrapText(text, width);
  const room = Math.max(1, rows);
  if (lines.length <= room) return lines;
  const kept = lines.slice(0, room);
  kept[room - 1] = clip(`${kept[room - 1] as string} ${lines[room] as string}`, width);
  return kept;
}

export function EmptyLines({ text, width, rows }: { text: string; width: number; rows: number }) {
  const theme = useTheme();
  return (
    <>
      {emptyLines(text, width, rows).map((l, i) => (
        <Text key={i} color={theme.muted} wrap="truncate">
          {l || ' '}
        </Text>
      ))}
    </>
  );
}
