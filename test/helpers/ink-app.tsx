/**
 * The older harness shape (screen/text/press/waitForText over a store the test
 * owns), kept as a thin adapter over the one rig in mount-app.tsx.
 */
import type { OmcStore } from '../../src/store/store.js';
import type { UiStore } from '../../src/kit/ui-store.js';
import { mountStore } from './mount-app.js';

export interface AppHarness {
  ui: UiStore;
  /** The last frame without styling, one string per row, trailing spaces trimmed. */
  screen(): string[];
  text(): string;
  /** The raw last frame, styling included. */
  raw(): string;
  press(...keys: string[]): void;
  waitForText(match: string | RegExp, what?: string): Promise<string>;
  unmount(): void;
}

export function renderApp(store: OmcStore, opts: { columns?: number; rows?: number; ui?: UiStore } = {}): AppHarness {
  const m = mountStore(store, opts);
  return {
    ui: m.ui,
    screen: m.lines,
    text: m.text,
    raw: m.raw,
    press: m.send,
    waitForText: m.waitForText,
    unmount: m.unmountOnly,
  };
}
