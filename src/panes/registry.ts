/** Every pane, in footer order. Each brings its own reducer, key map and view. */
import { costPane } from './cost/index.js';
import { historyPane } from './history/index.js';
import { memoryPane } from './memory/index.js';
import { notepadPane } from './notepad/index.js';
import { sessionsPane } from './sessions/index.js';
import { teamsPane } from './teams/index.js';
import type { AnyPaneModule } from '../kit/pane.js';
import { wikiPane } from './wiki/index.js';

export const PANES: ReadonlyArray<AnyPaneModule> = [
  sessionsPane,
  teamsPane,
  historyPane,
  costPane,
  notepadPane,
  memoryPane,
  wikiPane,
];
