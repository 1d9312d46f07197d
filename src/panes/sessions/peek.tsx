/**
 * The peek (P on a session): what the Claude process behind one session is
 * doing, read from the Claude domain's snapshot for that session only (the
 * store reads transcripts from their end, bounded). A title line, then the
 * lines that fit, scrolled like every other text view.
 */
import React, { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { SessionView } from '../../store/sessions/model.js';
import type { OmcStore } from '../../store/store.js';
import { configuredPrices } from '../../store/claude/price-config.js';
import { clip } from '../../ui/format.js';
import { ScrollLines } from '../../ui/scroll-lines.js';
import { useTheme } from '../../ui/theme.js';
import { peekLayout, type PeekTone } from './peek-lines.js';

/** Peek tones in the names the shared scroll view colours. */
const TONE: Record<Exclude<PeekTone, undefined>, string> = {
  section: 'title',
  warn: 'warn',
  error: 'error',
  ok: 'ok',
  dim: 'dim',
};

export function PeekView(props: {
  store: OmcStore;
  session: SessionView;
  width: number;
  height: number;
  now: number;
  scroll?: number;
}) {
  const theme = useTheme();
  const domain = props.store.claude;
  const snap = useSyncExternalStore(domain.subscribe, domain.getSnapshot);
  const l = peekLayout(
    props.session,
    snap.bySession.get(props.session.id) ?? null,
    { columns: props.width, rows: props.height },
    props.now,
    configuredPrices(),
  );
  const lines = l.lines.map((x) => ({ text: x.text, tone: x.tone ? TONE[x.tone] : undefined }));
  return (
    <Box flexDirection="column" height={props.height}>
      <Text bold color={theme.accent} wrap="truncate">
        {clip(`Peek ${props.session.id} · read only · Esc closes`, props.width)}
      </Text>
      <ScrollLines lines={lines} scroll={props.scroll ?? 0} width={props.width} height={l.height} />
    </Box>
  );
}
