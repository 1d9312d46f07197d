/** A scrollable block of toned lines with "n more above / below" markers: every overlay and detail view. */
import React from 'react';
import { Box, Text } from 'ink';
import { clip } from './format.js';
import { textWindow } from '../kit/list.js';
import { toneColor, useTheme } from './theme.js';
import type { LineSource } from './line-source.js';

export type { ToneLine } from './line-source.js';

export function ScrollLines({
  lines,
  scroll,
  width,
  height,
}: {
  /** An array, or a source that makes only the window's lines (line-source.ts). */
  lines: LineSource;
  scroll: number;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const w = textWindow(lines.length, scroll, height);
  const shown = lines.slice(w.start, w.end);
  return (
    <Box flexDirection="column" height={height}>
      {w.above > 0 ? (
        <Text color={theme.muted} wrap="truncate">
          {clip(`  ↑ ${w.above} more above`, width)}
        </Text>
      ) : null}
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate" bold={l.tone === 'title'} color={toneColor(theme, l.tone)} inverse={l.inverse}>
          {l.text === '' ? ' ' : clip(l.text, width)}
        </Text>
      ))}
      {w.below > 0 ? (
        <Text color={theme.muted} wrap="truncate">
          {clip(`  ↓ ${w.below} more below`, width)}
        </Text>
      ) : null}
    </Box>
  );
}
