// The app rendered by Ink in this process, into a fake terminal: shared by the in-process benches
// (bench/render.tsx, bench/keys-inproc.tsx).
import React from 'react';
import { EventEmitter } from 'node:events';
import { render, type RenderOptions } from 'ink';
import { App } from '../src/app.js';
import { PANES } from '../src/panes/registry.js';
import type { OmcStore } from '../src/store/store.js';
import { pickTheme } from '../src/ui/theme.js';
import type { UiStore } from '../src/kit/ui-store.js';

/** Enough of a raw-mode TTY stdin for Ink, in process: `read` hands Ink the next key (null: none). */
export function fakeStdin(read: () => string | null) {
  return Object.assign(new EventEmitter(), {
    isTTY: true,
    setRawMode() {},
    setEncoding() {},
    ref() {},
    unref() {},
    read,
    resume() {},
    pause() {},
  });
}

/** Renders the monitor over `store` into `stdout`/`stdin`, with the full-screen app's Ink options plus `ink`. */
export function renderApp(
  store: OmcStore,
  ui: UiStore,
  stdout: EventEmitter,
  stdin: EventEmitter,
  ink: Partial<RenderOptions>,
) {
  return render(
    <App
      store={store}
      ui={ui}
      panes={PANES}
      rootExplain="bench"
      theme={pickTheme({})}
      exit={() => undefined}
      redraw={() => undefined}
      suspend={(f) => f()}
    />,
    {
      stdout: stdout as never,
      stdin: stdin as never,
      exitOnCtrlC: false,
      patchConsole: false,
      incrementalRendering: true,
      ...ink,
    },
  );
}
