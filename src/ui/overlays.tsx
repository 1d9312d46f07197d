import React from 'react';
import { Box, Text } from 'ink';
import type { AnyPaneModule } from '../panes/types.js';
import { clip, fit, wrapText } from './format.js';
import { useTheme } from './theme.js';
import type { ConfirmOverlay, HelpOverlay } from './ui-store.js';

const GLOBAL_HELP: Array<[string, string]> = [
  ['?  F1', 'this help (Esc closes)'],
  ['q  Ctrl-C', 'quit (the terminal is restored)'],
  ['Ctrl-L', 'redraw the screen'],
  ['!', 'list every problem found in .omc'],
];

export function HelpView({
  overlay,
  panes,
  width,
  height,
}: {
  overlay: HelpOverlay;
  panes: ReadonlyArray<AnyPaneModule>;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const lines: Array<{ text: string; title?: boolean }> = [{ text: 'omc-top keys', title: true }];
  const keyW = Math.min(30, Math.max(14, Math.floor(width / 3)));
  const add = (rows: Array<[string, string]>) => {
    for (const [k, v] of rows) {
      const wrapped = wrapText(v, Math.max(10, width - keyW - 2));
      wrapped.forEach((w, i) => lines.push({ text: (i === 0 ? fit(k, keyW) : ' '.repeat(keyW)) + ' ' + w }));
    }
  };
  lines.push({ text: '' }, { text: 'Everywhere', title: true });
  add([...GLOBAL_HELP, ...panes.map((p) => [p.hotkey, `open the ${p.title} pane`] as [string, string])]);
  for (const p of panes) {
    lines.push({ text: '' }, { text: p.title, title: true });
    add(p.help);
  }
  const scroll = Math.min(overlay.scroll, Math.max(0, lines.length - height));
  return (
    <Box flexDirection="column" height={height}>
      {lines.slice(scroll, scroll + height).map((l, i) => (
        <Text key={i} bold={l.title} color={l.title ? theme.accent : undefined} wrap="truncate">
          {l.text === '' ? ' ' : clip(l.text, width)}
        </Text>
      ))}
    </Box>
  );
}

export function ConfirmView({ overlay, width, height }: { overlay: ConfirmOverlay; width: number; height: number }) {
  const theme = useTheme();
  const body: string[] = [];
  for (const l of overlay.lines) body.push(...wrapText(l, Math.max(10, width - 4)));
  const room = Math.max(1, height - 4);
  const shown = body.slice(0, room);
  if (body.length > room) shown[room - 1] = `… (${body.length - room + 1} more lines)`;
  return (
    <Box flexDirection="column" height={height} borderStyle="round" borderColor={theme.warn}>
      <Text bold color={theme.warn} wrap="truncate">
        {clip(overlay.title, width - 4)}
      </Text>
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate">
          {l === '' ? ' ' : l}
        </Text>
      ))}
      <Box flexGrow={1} />
      <Text bold wrap="truncate">
        {clip(overlay.prompt, width - 4)}
      </Text>
    </Box>
  );
}

export function ProblemsView({
  problems,
  scroll,
  width,
  height,
}: {
  problems: readonly { path: string; message: string; severity: string }[];
  scroll: number;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  const lines: Array<{ text: string; tone?: string }> = [
    { text: `Problems found in .omc (${problems.length})  ·  Esc closes`, tone: 'title' },
  ];
  if (problems.length === 0) lines.push({ text: 'None: every file omc-top reads parsed cleanly.' });
  for (const p of problems) {
    lines.push({ text: '' });
    for (const w of wrapText(`${p.path}`, width)) lines.push({ text: w, tone: p.severity });
    for (const w of wrapText(`  ${p.message}`, width)) lines.push({ text: w });
  }
  const top = Math.min(scroll, Math.max(0, lines.length - height));
  return (
    <Box flexDirection="column" height={height}>
      {lines.slice(top, top + height).map((l, i) => (
        <Text
          key={i}
          wrap="truncate"
          bold={l.tone === 'title'}
          color={
            l.tone === 'title'
              ? theme.accent
              : l.tone === 'error'
                ? theme.error
                : l.tone === 'warning'
                  ? theme.warn
                  : undefined
          }
        >
          {l.text === '' ? ' ' : clip(l.text, width)}
        </Text>
      ))}
    </Box>
  );
}
