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
  return (
    <Box flexDirection="column" height={height} borderStyle="round" borderColor={theme.warn}>
      <Text bold color={theme.warn} wrap="truncate">
        {clip(overlay.title, width - 4)}
      </Text>
      <ScrollLines lines={body} scroll={overlay.scroll ?? 0} width={width - 4} height={room} />
      <Text bold wrap="truncate">
        {clip(overlay.prompt, width - 4)}
      </Text>
    </Box>
  );
}
