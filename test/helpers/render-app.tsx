/**
 * The older harness shape (frame/press/waitForFrame, the store made here),
 * kept as a thin adapter over the one rig in mount-app.tsx, at the 100
 * columns these tests were written for.
 */
import { OmcStore } from '../../src/store/store.js';
import { NO_CLAUDE_DIR } from './fixtures.js';
import type { UiStore } from '../../src/kit/ui-store.js';
import { waitFor } from './fixtures.js';
import { mountStore } from './mount-app.js';

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
    // Never the developer's own ~/.claude: a test sees only the Claude files it writes.
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
  });
  store.start();
  const m = mountStore(store, { columns: 100, rows: 24 });
  return {
    store,
    ui: m.ui,
    frame: m.text,
    press: m.send,
    waitForFrame: async (match, timeoutMs = 4000) => {
      await m.ready;
      return waitFor(
        () => {
          const f = m.text();
          return (typeof match === 'string' ? f.includes(match) : match.test(f)) ? f : null;
        },
        { timeoutMs, what: `frame matching ${String(match)}; last frame:\n${m.text()}` },
      );
    },
    exited: m.exited,
    cleanup: m.unmount,
  };
}
