import React from 'react';
import { Text } from 'ink';
import type { PaneModule } from '../types.js';

type State = Record<string, never>;

/** Placeholder until the Teams pane lands. */
export const teamsPane: PaneModule<State> = {
  id: 'teams',
  title: 'Teams',
  hotkey: 't',
  init: () => ({}),
  onKey: () => false,
  capturesText: () => false,
  hints: () => [],
  help: [],
  View: () => <Text>The Teams pane is not built yet.</Text>,
};
