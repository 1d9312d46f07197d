import React from 'react';
import { Text } from 'ink';
import type { PaneModule } from '../types.js';

type State = Record<string, never>;

/** Placeholder until the Notepad pane lands. */
export const notepadPane: PaneModule<State> = {
  id: 'notepad',
  title: 'Notepad',
  hotkey: 'n',
  init: () => ({}),
  onKey: () => false,
  capturesText: () => false,
  hints: () => [],
  help: [],
  View: () => <Text>The Notepad pane is not built yet.</Text>,
};
