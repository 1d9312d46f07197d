/**
 * Renders the whole App in memory at a chosen terminal size (ink-testing-
 * library fixes 100 columns), with keys typed through stdin exactly as a
 * terminal delivers them, so the real decoder and router interpret them.
 */
import React from 'react';
import { render, type Instance } from 'ink';
import { App } from '../../src/app.js';
import { PANES } from '../../src/panes/registry.js';
import type { OmcStore } from '../../src/store/store.js';
import { pickTheme } from '../../src/ui/theme.js';
import { UiStore } from '../../src/ui/ui-store.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';
import { waitFor } from './fixtures.js';

// SGR styling (colour, bold, inverse) is Ink's own; anything else would have come from a file.
const SGR = /\u001b\[[0-9;]*m/g;

export interface AppHarness {
  ui: UiStore;
  /** The last frame without SGR styling, one string per row, trailing spaces trimmed. */
  screen(): string[];
  text(): string;
  /** The raw last frame, styling included. */
  raw(): string;
  press(...keys: string[]): void;
  waitForText(match: string | RegExp, what?: string): Promise<string>;
  unmount(): void;
}

export function renderApp(store: OmcStore, opts: { columns?: number; rows?: number; ui?: UiStore } = {}): AppHarness {
  const stdout = new FakeStdout(opts.columns ?? 80, opts.rows ?? 24);
  const stdin = new FakeStdin();
  const ui = opts.ui ?? new UiStore();
  const instance: Instance = render(
    <App
      store={store}
      ui={ui}
      panes={PANES}
      rootExplain="test"
      theme={pickTheme({ NO_COLOR: '1' })}
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
  const raw = () => stdout.frames.at(-1) ?? '';
  const screen = () =>
    raw()
      .replace(SGR, '')
      .split('\n')
      .map((l) => l.replace(/\s+$/, ''));
  const text = () => screen().join('\n');
  return {
    ui,
    screen,
    text,
    raw,
    press: (...keys) => keys.forEach((k) => stdin.write(k)),
    waitForText: async (match, what) => {
      try {
        return await waitFor(
          () => {
            const t = text();
            return (typeof match === 'string' ? t.includes(match) : match.test(t)) ? t : null;
          },
          { what: what ?? String(match) },
        );
      } catch (e) {
        throw new Error(`${(e as Error).message}\nlast frame:\n${text()}`, { cause: e });
      }
    },
    unmount: () => {
      instance.unmount();
      instance.cleanup();
      ui.dispose();
    },
  };
}
