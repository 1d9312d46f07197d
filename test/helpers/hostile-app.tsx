/**
 * The whole App (real OmcStore with every domain, real UiStore, every pane)
 * rendered with ink-testing-library, like render-app.tsx, plus what the
 * hostile suite needs: a terminal size of its choosing (so every healthy row
 * and every problem fits on one screen), every frame Ink ever wrote (a control
 * byte in a frame that was replaced a millisecond later still reached the
 * terminal), and a poll-style rescan of every domain.
 */
import React from 'react';
import { render } from 'ink-testing-library';
import { App } from '../../src/app.js';
import { PANES } from '../../src/panes/registry.js';
import { OmcStore } from '../../src/store/store.js';
import { pickTheme } from '../../src/ui/theme.js';
import { UiStore } from '../../src/ui/ui-store.js';
import { waitFor } from './fixtures.js';

export interface HostileApp {
  store: OmcStore;
  ui: UiStore;
  /** Every frame written so far, styling included. */
  frames(): readonly string[];
  /** The last frame with SGR styling removed. */
  text(): string;
  /**
   * Types keys one chunk at a time, as a terminal delivers them, and after
   * each one waits until Ink has drawn the state that key produced (so every
   * view a walk passes through is really rendered, not skipped by batching).
   */
  press(...keys: string[]): Promise<void>;
  /** Waits for the last frame (styling removed) to match. */
  waitForText(match: string | RegExp, what?: string): Promise<string>;
  /** What a poll tick does: every domain re-reads what moved on disk. Returns the errors domains threw (none expected). */
  rescan(): Error[];
  unmount(): Promise<void>;
}

const SGR = /\u001b\[[0-9;:]*m/g;

export async function mountHostileApp(opts: {
  root: string;
  clock: () => number;
  columns?: number;
  rows?: number;
  readonly?: boolean;
}): Promise<HostileApp> {
  const store = new OmcStore({ root: opts.root, clock: opts.clock, watch: 'none', readonly: opts.readonly });
  store.start();
  const ui = new UiStore();
  const r = render(
    <App
      store={store}
      ui={ui}
      panes={PANES}
      rootExplain="hostile"
      theme={pickTheme({})}
      exit={() => undefined}
      redraw={() => undefined}
      suspend={(fn) => fn()}
    />,
  );
  // ink-testing-library's terminal is 100 columns and has no rows; give it the size we want and tell the app.
  const stdout = r.stdout as unknown as { emit(e: string): void };
  Object.defineProperty(stdout, 'columns', { value: opts.columns ?? 80, configurable: true });
  Object.defineProperty(stdout, 'rows', { value: opts.rows ?? 26, configurable: true });
  stdout.emit('resize');
  const text = () => (r.lastFrame() ?? '').replace(SGR, '');
  const app: HostileApp = {
    store,
    ui,
    frames: () => r.frames,
    text,
    press: async (...keys) => {
      for (const k of keys) {
        const before = ui.getSnapshot();
        const drawn = r.frames.length;
        r.stdin.write(k);
        // Let Ink read the chunk before the next one (a lone ESC must stay a key, not an Alt prefix).
        await new Promise((res) => setImmediate(res));
        await new Promise((res) => setImmediate(res));
        // A key that changed the UI state is followed by a frame (Ink's debug mode writes every render).
        if (ui.getSnapshot() !== before)
          await waitFor(() => r.frames.length > drawn, { what: `a frame after key ${JSON.stringify(k)}` });
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
    rescan: () => {
      const errors: Error[] = [];
      for (const domain of [store.sessions, store.notepad, store.memory, store.wiki, store.teams]) {
        try {
          domain.scan();
        } catch (e) {
          errors.push(e as Error);
        }
      }
      return errors;
    },
    unmount: async () => {
      r.unmount();
      r.cleanup();
      ui.dispose();
      await store.close();
    },
  };
  await app.waitForText(/STATUS\s+SESSION/, 'the sessions list');
  return app;
}
