/**
 * Renders the whole omc-top App (every pane, the real input router) into an
 * in-memory terminal of a chosen size, over a real OmcStore on a temp .omc.
 * Keys go in as raw terminal bytes through Ink's stdin, exactly the path a
 * user's keys take; frames come out as text.
 */
import React from 'react';
import { render } from 'ink';
import { App } from '../../src/app.js';
import { PANES } from '../../src/panes/registry.js';
import { OmcStore } from '../../src/store/store.js';
import { pickTheme } from '../../src/ui/theme.js';
import { UiStore, type PaneId } from '../../src/ui/ui-store.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';
import { waitFor } from './fixtures.js';

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export interface MountedApp {
  store: OmcStore;
  ui: UiStore;
  /** The last frame as plain text (colours removed), one string per row. */
  lines(): string[];
  text(): string;
  /**
   * Sends raw terminal bytes, one write per argument, letting the event loop
   * turn between them as a terminal's reads do (so a lone ESC is an Escape
   * key, not the start of Alt-<next key>).
   */
  press(...keys: string[]): Promise<void>;
  waitForText(match: string | RegExp, what?: string): Promise<string>;
  resize(columns: number, rows: number): void;
  unmount(): Promise<void>;
}

export async function mountApp(opts: {
  root: string;
  columns?: number;
  rows?: number;
  readonly?: boolean;
  clock?: () => number;
  pane?: PaneId;
  watch?: 'auto' | 'none';
}): Promise<MountedApp> {
  const store = new OmcStore({
    root: opts.root,
    readonly: opts.readonly,
    clock: opts.clock,
    watch: opts.watch ?? 'none',
  });
  store.start();
  const ui = new UiStore({ pane: opts.pane ?? 'sessions' });
  const stdout = new FakeStdout(opts.columns ?? 80, opts.rows ?? 24);
  const stdin = new FakeStdin();
  const instance = render(
    <App
      store={store}
      ui={ui}
      panes={PANES}
      rootExplain="test"
      theme={pickTheme({})}
      exit={() => undefined}
      redraw={() => undefined}
      suspend={(fn) => fn()}
    />,
    {
      stdout: stdout as never,
      stdin: stdin as never,
      stderr: new FakeStdout(80, 24) as never,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  // Keys written before the router's effect attaches Ink's stdin listener would be lost.
  await waitFor(() => stdin.listenerCount('readable') > 0 && stdout.frames.length > 0, {
    what: 'app mounted and listening',
  });
  const lines = () => stdout.lastFrame().replace(ANSI, '').split('\n');
  const text = () => lines().join('\n');
  return {
    store,
    ui,
    lines,
    text,
    press: async (...keys) => {
      for (const k of keys) {
        stdin.write(k);
        await new Promise((r) => setImmediate(r));
        await new Promise((r) => setImmediate(r));
      }
    },
    waitForText: (match, what) =>
      waitFor(
        () => {
          const t = text();
          return (typeof match === 'string' ? t.includes(match) : match.test(t)) ? t : null;
        },
        { what: `${what ?? String(match)}\n--- last frame ---\n${text()}` },
      ),
    resize: (columns, rows) => stdout.resize(columns, rows),
    unmount: async () => {
      instance.unmount();
      instance.cleanup();
      ui.dispose();
      await store.close();
    },
  };
}
