/** Every pane, in footer order. Each brings its own reducer, key map and view. */
import { sessionsPane } from './sessions/index.js';
import type { PaneModule } from './types.js';

export const PANES: ReadonlyArray<PaneModule<any>> = [sessionsPane];
