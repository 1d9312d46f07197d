/** The overlays (help, problems, message log, confirm dialog): their lines come from overlay-lines.ts. */
import React from 'react';
import { Box, Text } from 'ink';
import { clip } from './format.js';
import {
  confirmFrame,
  confirmLines,
  textOverlayLines,
  textOverlayScroll,
  type OverlayInputs,
} from './overlay-lines.js';
import { ScrollLines } from './scroll-lines.js';
import { useTheme } from './theme.js';
import type { ConfirmOverlay, TextOverlay } from '../kit/ui-store.js';

export function TextOverlayView({
  overlay,
  inputs,
  width,
  height,
}: {
  overlay: TextOverlay;
  inputs: OverlayInputs;
  width: number;
  height: number;
}) {
  const lines = textOverlayLines(overlay, inputs, width);
  const scroll = textOverlayScroll(overlay, inputs, { columns: width, rows: height }, lines);
  return <ScrollLines lines={lines} scroll={scroll} width={width} height={height} />;
}

export function ConfirmView({ overlay, width, height }: { overlay: ConfirmOverlay; width: number; height: number }) {
  const theme = useTheme();
  const body = confirmLines(overlay.lines, width);
  // As tall as its lines (border, title, body, prompt), capped by the pane: a 4-line question in a 60-row pane is
  // a small box at the top, not a 56-row frame round empty rows.
  const boxHeight = height >= 5 ? Math.min(height, Math.max(5, body.length + 4)) : height;
  const frame = confirmFrame(boxHeight);
  const room = frame.room;
  const inner = frame.border ? width - 4 : width;
  // Below three rows ScrollLines has no room for its "more" markers (a 10-row tmux pane leaves one or two): the
  // prompt line says what is out of sight, so a dialog cut to its question still shows there is more to read.
  const start = Math.max(0, Math.min(overlay.scroll ?? 0, body.length - room));
  const above = start;
  const below = Math.max(0, body.length - start - room);
  const more =
    room < 3 && above + below > 0
      ? `  ${above ? `↑${above}` : ''}${above && below ? ' ' : ''}${below ? `↓${below}` : ''} more (↑↓)`
      : '';
  const lines = (
    <>
      {frame.title ? (
        <Text bold color={theme.warn} wrap="truncate">
          {clip(overlay.title, inner)}
        </Text>
      ) : null}
      {room > 0 ? <ScrollLines lines={body} scroll={overlay.scroll ?? 0} width={inner} height={room} /> : null}
      <Text bold wrap="truncate">
        {clip(overlay.prompt + more, inner)}
      </Text>
    </>
  );
  // Too short for a border (4 rows or fewer): the same lines without it, so none is drawn over another.
  if (!frame.border)
    return (
      <Box flexDirection="column" height={height}>
        {lines}
      </Box>
    );
  return (
    <Box flexDirection="column" height={height}>
      <Box flexDirection="column" height={boxHeight} borderStyle="round" borderColor={theme.warn} flexShrink={0}>
        {lines}
      </Box>
    </Box>
  );
}
