/** The overlays (help, problems, message log, confirm dialog): their lines come from overlay-lines.ts. */
import React from 'react';
import { Box, Text } from 'ink';
import { clip } from './format.js';
import { confirmLines, helpLines, messageLines, type OverlayInputs } from './overlay-lines.js';
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
  const lines = overlay.kind === 'help' ? helpLines(inputs, width) : messageLines(inputs, width);
  return <ScrollLines lines={lines} scroll={overlay.scroll} width={width} height={height} />;
}

export function ConfirmView({ overlay, width, height }: { overlay: ConfirmOverlay; width: number; height: number }) {
  const theme = useTheme();
  const body = confirmLines(overlay.lines, width);
  const room = Math.max(1, height - 4);
  // Below three rows ScrollLines has no room for its "more" markers (a 10-row tmux pane leaves one or two): the
  // prompt line says what is out of sight, so a dialog cut to its question still shows there is more to read.
  const start = Math.max(0, Math.min(overlay.scroll ?? 0, body.length - room));
  const above = start;
  const below = Math.max(0, body.length - start - room);
  const more =
    room < 3 && above + below > 0
      ? `  ${above ? `↑${above}` : ''}${above && below ? ' ' : ''}${below ? `↓${below}` : ''} more (↑↓)`
      : '';
  return (
    <Box flexDirection="column" height={height} borderStyle="round" borderColor={theme.warn}>
      <Text bold color={theme.warn} wrap="truncate">
        {clip(overlay.title, width - 4)}
      </Text>
      <ScrollLines lines={body} scroll={overlay.scroll ?? 0} width={width - 4} height={room} />
      <Text bold wrap="truncate">
        {clip(overlay.prompt + more, width - 4)}
      </Text>
    </Box>
  );
}
