/**
 * Renders the whole App (real OmcStore, real UiStore, real panes) with
 * ink-testing-library, and drives it through stdin like a user would.
 */
import React from 'react';
import { render } from 'ink-testing-library';
import { App } from '../../src/app.js';
import { PANES } from '../../src/panes/registry.js';
import { OmcStore } from '../../src/store/store.js';
import { pickTheme } from '../../src/ui/theme.js';
import { UiStore } from '../../src/ui/ui-store.js';
import { waitFor } from './fixtures.js';

export interface RenderedApp {
  store: OmcStore;
  ui: UiStore;
  frame(): string;
  press(...keys: string[]): void;
  waitForFrame(match: string | RegExp, timeoutMs?: number): Promise<string>;
  exited: () => boolean;
  cleanup(): Promise<void>;
}

export function renderApp(opts: {
  root: string;
  readonly?: boolean;
  clock?: () => number;
  watch?: 'auto' | 'none' | 'poll';
}): RenderedApp {
  const store = new OmcStore({
    root: opts.root,
    readonly: opts.readonly,
    clock: opts.clock,
    watch: opts.watch ?? 'none',
  });
  store.start();
  const ui = new UiStore();
  let exited = false;
  const r = render(
    <App
      store={store}
      ui={ui}
      panes={PANES}
      rootExplain="test"
      theme={pickTheme({ NO_COLOR: '1' })}
      exit={() => {
        exited = true;
      }}
      redraw={() => undefined}
      suspend={(fn) => fn()}
    />,
  );
  const frame = () => r.lastFrame() ?? '';
  return {
    store,
    ui,
    frame,
    press: (...keys) => {
      for (const k of keys) r.stdin.write(k);
    },
    waitForFrame: async (match, timeoutMs = 4000) =>
      waitFor(
        () => {
          const f = frame();
          return (typeof match === 'string' ? f.includes(match) : match.test(f)) ? f : null;
        },
        { timeoutMs, what: `frame matching ${String(match)}; last frame:\n${frame()}` },
      ),
    exited: () => exited,
    cleanup: async () => {
      r.unmount();
      r.cleanup();
      ui.dispose();
      await store.close();
    },
  };
}
