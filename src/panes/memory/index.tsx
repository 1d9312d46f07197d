import React from 'react';
import { Text } from 'ink';
import type { PaneModule } from '../types.js';

type State = Record<string, never>;

/** Placeholder until the Memory pane lands. */
export const memoryPane: PaneModule<State> = {
  id: 'memory',
  title: 'Memory',
  hotkey: 'm',
  init: () => ({}),
  onKey: () => false,
  capturesText: () => false,
  hints: () => [],
  help: [],
  View: () => <Text>The Memory pane is not built yet.</Text>,
};
