/**
 * A self-contained peek view (not yet wired into the sessions pane: the pane
 * kit is being rebuilt). Reads the Claude domain's snapshot for one session and
 * renders only the rows that fit, each cut to the width.
 */
import { useSyncExternalStore } from 'react';
import { Box, Text } from 'ink';
import type { SessionView } from '../../store/sessions/model.js';
import type { OmcStore } from '../../store/store.js';
import { fit } from '../../ui/format.js';
import { useTheme, type Theme } from '../../ui/theme.js';
import { peekLines, type PeekTone } from './peek-lines.js';

const noop = () => () => undefined;
const none = () => null;

function color(theme: Theme, tone: PeekTone): string | undefined {
  if (tone === 'error') return theme.error;
  if (tone === 'warn') return theme.warn;
  if (tone === 'ok') return theme.ok;
  if (tone === 'dim' || tone === 'section') return theme.muted;
  return undefined;
}

export function PeekView(props: { store: OmcStore; session: SessionView; width: number; height: number; now: number }) {
  const theme = useTheme();
  const domain = props.store.claude;
  const snap = useSyncExternalStore(domain?.subscribe ?? noop, domain?.getSnapshot ?? none);
  const lines = peekLines(props.session, snap?.bySession.get(props.session.id) ?? null, props.now).slice(
    0,
    Math.max(0, props.height),
  );
  return (
    <Box flexDirection="column">
      {lines.map((l, i) => (
        <Text key={i} color={color(theme, l.tone)} bold={l.tone === 'section'}>
          {fit(l.text, props.width)}
        </Text>
      ))}
    </Box>
  );
}
