/**
 * The one way tests mount omc-top: the whole App (every pane, the real input
 * router) over a real OmcStore, rendered into an in-memory terminal of any
 * size. Keys go in as raw terminal bytes through Ink's stdin, the path a
 * user's keys take; frames come out as text. Every in-process UI test uses
 * this, through the fixtures in test/helpers/it.ts (automatic teardown).
 */
import React from 'react';
import { render, type Instance } from 'ink';
import { App } from '../../src/app.js';
import type { AttentionControl } from '../../src/feeds/attention/control.js';
import type { LocalFleet } from '../../src/fleet/local.js';
import { FleetUi } from '../../src/panes/fleet/reducer.js';
import { FleetShell } from '../../src/fleet-app.js';
import type { RemoteActions } from '../../src/fleet/model.js';
import { PANES } from '../../src/panes/registry.js';
import { OmcStore } from '../../src/store/store.js';
import { NO_CLAUDE_DIR } from './fixtures.js';
import { pickTheme } from '../../src/ui/theme.js';
import { UiStore, type PaneId } from '../../src/kit/ui-store.js';
import { FakeStdin, FakeStdout } from './fake-terminal.js';
import { waitFor } from './fixtures.js';

// Ink's own styling and cursor codes; anything else in a frame would have come from a file.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export { KEY } from './keys.js';

export interface MountOptions {
  columns?: number;
  rows?: number;
  readonly?: boolean;
  clock?: () => number;
  pane?: PaneId;
  watch?: 'auto' | 'poll' | 'none';
  /** Colours on (default off: NO_COLOR, so frames compare as text). */
  color?: boolean;
  ui?: UiStore;
  /** An attention layer (monitor + notifier) for the header count and the N toggle. */
  attention?: AttentionControl;
}

export interface MountedApp {
  store: OmcStore;
  ui: UiStore;
  /** The last frame as plain text, one string per row, trailing spaces trimmed. */
  lines(): string[];
  text(): string;
  /** The raw last frame, styling included. */
  raw(): string;
  /** Every frame Ink wrote so far, raw (a control byte in a frame replaced a moment later still reached the terminal). */
  frames(): readonly string[];
  /**
   * Sends raw terminal bytes, one read per argument, letting the event loop
   * turn between them as a terminal's reads do (so a lone ESC is an Escape
   * key, not the start of Alt-<next key>).
   */
  press(...keys: string[]): Promise<void>;
  /**
   * Like press, and after each key that changed the UI state waits until Ink
   * has drawn that state, so every view a walk passes through is really on a
   * frame (not skipped by batching).
   */
  step(...keys: string[]): Promise<void>;
  /** Sends the bytes at once, one read per argument, without waiting between them. */
  send(...keys: string[]): void;
  waitForText(match: string | RegExp, what?: string): Promise<string>;
  resize(columns: number, rows: number): void;
  exited(): boolean;
  /** Unmounts without closing the store (for tests that own the store). */
  unmountOnly(): void;
  unmount(): Promise<void>;
}

/** Renders the App over an existing store. */
export function mountStore(store: OmcStore, opts: MountOptions = {}): MountedApp & { ready: Promise<void> } {
  const ui = opts.ui ?? new UiStore({ pane: opts.pane ?? 'sessions' });
  let exited = false;
  const m = mountNode(
    <App
      store={store}
      ui={ui}
      panes={PANES}
      rootExplain="test"
      theme={pickTheme(opts.color ? {} : { NO_COLOR: '1' })}
      exit={() => {
        exited = true;
      }}
      redraw={() => undefined}
      suspend={(fn) => fn()}
      attention={opts.attention}
    />,
    opts,
    () => ui.dispose(),
    () => ui.getSnapshot(),
  );
  return { ...m, store, ui, exited: () => exited, unmount: async () => (m.unmountOnly(), await store.close()) };
}

export type MountedNode = Omit<MountedApp, 'store' | 'ui' | 'exited' | 'unmount'> & { ready: Promise<void> };

/** Renders any omc-top tree (the App, the fleet shell) into an in-memory terminal, keys through Ink's stdin. */
export function mountNode(
  node: React.ReactElement,
  opts: MountOptions,
  dispose: () => void,
  /** The UI state `step` watches (a changed state is followed by a frame); without it `step` only presses. */
  stateOf: () => unknown = () => null,
): MountedNode {
  const stdout = new FakeStdout(opts.columns ?? 80, opts.rows ?? 24);
  const stdin = new FakeStdin();
  const instance: Instance = render(node, {
    stdout: stdout as never,
    stdin: stdin as never,
    stderr: new FakeStdout(80, 24) as never,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const raw = () => stdout.lastFrame();
  const lines = () =>
    raw()
      .replace(ANSI, '')
      .split('\n')
      .map((l) => l.replace(/\s+$/, ''));
  const text = () => lines().join('\n');
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      stdin.write(k);
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
    }
  };
  let unmounted = false;
  const unmountOnly = () => {
    if (unmounted) return;
    unmounted = true;
    instance.unmount();
    instance.cleanup();
    dispose();
  };
  return {
    lines,
    text,
    raw,
    frames: () => stdout.frames,
    // Keys written before the router's effect attaches Ink's stdin listener would be lost.
    ready: waitFor(() => stdin.listenerCount('readable') > 0 && stdout.frames.length > 0, {
      what: 'app mounted and listening',
    }).then(() => undefined),
    press,
    step: async (...keys) => {
      for (const k of keys) {
        const before = stateOf();
        const drawn = stdout.frames.length;
        await press(k);
        // Ink's debug mode writes every render, so a changed state is followed by a frame.
        if (stateOf() !== before)
          await waitFor(() => stdout.frames.length > drawn, { what: `a frame after key ${JSON.stringify(k)}` });
      }
    },
    send: (...keys) => keys.forEach((k) => stdin.write(k)),
    waitForText: (match, what) =>
      waitFor(
        () => {
          const t = text();
          return (typeof match === 'string' ? t.includes(match) : match.test(t)) ? t : null;
        },
        { what: `${what ?? String(match)}\n--- last frame ---\n${text()}` },
      ),
    resize: (columns, rows) => stdout.resize(columns, rows),
    unmountOnly,
  };
}

/** The fleet view (`--all`) over a LocalFleet the test built and started; Enter mounts the App on a root. */
export async function mountFleet(
  fleet: LocalFleet,
  opts: MountOptions & { remote?: RemoteActions; uiStores?: Map<string, UiStore> } = {},
): Promise<MountedNode & { fleetUi: FleetUi; exited(): boolean; unmount(): Promise<void> }> {
  const fleetUi = new FleetUi();
  let exited = false;
  const m = mountNode(
    <FleetShell
      fleet={fleet}
      fleetUi={fleetUi}
      uiStores={opts.uiStores}
      remote={opts.remote}
      theme={pickTheme(opts.color ? {} : { NO_COLOR: '1' })}
      readonly={opts.readonly}
      exit={() => {
        exited = true;
      }}
      redraw={() => undefined}
      suspend={(fn) => fn()}
    />,
    opts,
    () => undefined,
    () => fleetUi.getSnapshot(),
  );
  await m.ready;
  return { ...m, fleetUi, exited: () => exited, unmount: async () => (m.unmountOnly(), await fleet.close()) };
}

/** A real store on `root` (every domain, started) with the App mounted over it. */
export async function mountApp(opts: MountOptions & { root: string }): Promise<MountedApp> {
  const store = new OmcStore({
    root: opts.root,
    readonly: opts.readonly,
    clock: opts.clock,
    watch: opts.watch ?? 'none',
    // Never the developer's own ~/.claude: a test sees only the Claude files it writes.
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
  });
  store.start();
  const app = mountStore(store, opts);
  await app.ready;
  return app;
}
