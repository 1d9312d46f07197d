import React from 'react';
import { Text } from 'ink';
import type { PaneModule } from '../types.js';

type State = Record<string, never>;

/** Placeholder until the Wiki pane lands. */
export const wikiPane: PaneModule<State> = {
  id: 'wiki',
  title: 'Wiki',
  hotkey: 'w',
  init: () => ({}),
  onKey: () => false,
  capturesText: () => false,
  hints: () => [],
  help: [],
  View: () => <Text>The Wiki pane is not built yet.</Text>,
};
