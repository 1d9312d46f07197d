/**
 * The first read's "reading n/N" changes with every slice of a big start (tens of times before `live`). It is the
 * footer's alone: a status change that only moves that progress re-renders the footer and not the pane, while a
 * change of the watch state itself (the problem line a polling watch adds) still reaches the whole frame.
 */
import React from 'react';
import { describe, expect, it } from '../helpers/it.js';
import { App } from '../../src/app.js';
import { mountNode } from '../helpers/mount-app.js';
import { PANES } from '../../src/panes/registry.js';
import { pickTheme } from '../../src/ui/theme.js';
import { UiStore } from '../../src/kit/ui-store.js';
import { NO_CLAUDE_DIR, waitFor } from '../helpers/fixtures.js';
import type { AnyPaneModule } from '../../src/kit/pane.js';

describe('the first read progress in the footer', () => {
  it('re-renders the footer, not the pane; a watch change still reaches the frame', async ({
    emptyProject,
    newStore,
  }) => {
    const store = newStore({
      root: emptyProject.root,
      watch: 'none',
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    });
    store.start();
    let paneRenders = 0;
    const sessions = PANES[0] as AnyPaneModule;
    const Counted: AnyPaneModule['View'] = (props) => {
      paneRenders += 1;
      return <sessions.View {...props} />;
    };
    const panes = [{ ...sessions, View: Counted }, ...PANES.slice(1)];
    const ui = new UiStore({ pane: sessions.id });
    const m = mountNode(
      <App
        store={store}
        ui={ui}
        panes={panes}
        rootExplain="test"
        theme={pickTheme({ NO_COLOR: '1' })}
        exit={() => undefined}
        redraw={() => undefined}
        suspend={(fn) => fn()}
      />,
      { columns: 100, rows: 20 },
      () => ui.dispose(),
    );
    try {
      await m.ready;
      await waitFor(() => / off\s*$/m.test(m.text()), { what: 'the settled footer' });
      const before = paneRenders;
      const base = store.status.getSnapshot();
      for (let i = 1; i <= 5; i++) {
        store.status.set({ ...base, reading: `reading ${i}/5` });
        await waitFor(() => m.text().includes(`off · reading ${i}/5`), { what: `the footer's reading ${i}/5` });
      }
      expect(paneRenders).toBe(before);

      store.status.set({ watchMode: 'polling', watchDetail: 'polling every 2 s: the test says so' });
      await waitFor(() => m.text().includes('polling every 2 s: the test says so'), {
        what: 'the polling problem line',
      });
      expect(m.text()).toMatch(/POLLING\s*$/m);
      expect(paneRenders).toBeGreaterThan(before);
    } finally {
      m.unmountOnly();
    }
  });
});
