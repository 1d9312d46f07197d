/**
 * `omc-top --all` / `--host`: the fleet's stores started, the fleet view
 * mounted through the same full-screen lifecycle as the monitor, and the
 * terminal title kept at the header's first words ("omc-top --all · needs
 * you: N") as the monitor keeps its own: pushed at start, popped
 * at exit, left alone with --no-title or `"title": false`.
 */
import React from 'react';
import type { FullScreenControls, FullScreenDone } from './terminal/full-screen.js';
import { FleetShell } from './fleet-app.js';
import { FleetUi } from './panes/fleet/reducer.js';
import { screenTheme } from './ui/theme.js';
import { printErr } from './io/output.js';
import { fleetHostSpecs } from './commands/fleet-args.js';
import { LocalFleet } from './fleet/local.js';
import { RemoteFleet } from './fleet/remotes.js';
import { pushFromFleet, remoteFeeds } from './fleet/push.js';
import { ringForRoots } from './feeds/notify/fleet-terminal.js';
import { shownName } from './io/shown-path.js';
import { loadConfig } from './config/config-file.js';
import { partChanged, watchConfig } from './fleet/live-config.js';
import { setConfiguredPrices } from './store/claude/price-config.js';
import { pushChannels } from './feeds/notify/push/index.js';
import { fleetTitle } from './fleet/model.js';
import { keepTitle, type TitleKeeper } from './terminal/title.js';
import { writeControl } from './io/output.js';
import { PANES } from './panes/registry.js';
import type { UiStore } from './kit/ui-store.js';
import { keepOnExit, printKept, type KeptOutcome } from './kit/kept-drafts.js';
import { dropOldDrafts } from './store/drafts/old-drafts.js';
import type { KeptDrafts } from './store/drafts/kept-drafts.js';
import { ownStateDir } from './io/state-dir.js';
import type { Problem } from './store/types.js';

/** Every project opened in the fleet, with the drafts store of its root: a hang-up keeps each one's open editor. */
export function fleetDraftRoots(
  fleet: Pick<LocalFleet, 'root'>,
  uiStores: ReadonlyMap<string, UiStore>,
): Array<{ drafts: KeptDrafts; ui: UiStore }> {
  return [...uiStores].flatMap(([id, ui]) => {
    const r = fleet.root(id);
    return r ? [{ drafts: r.store.drafts, ui }] : [];
  });
}

export interface FleetRunOptions {
  readonly: boolean;
  poll: boolean;
  mouse: boolean;
  /** `--all`: this machine's roots (without it, only the hosts). */
  local: boolean;
  hosts: string[];
  /** The config file's `hosts` (after --host). */
  configHosts?: string[];
  /** The config file could not be used (its line names file and field): shown on the message line. */
  configError?: string | null;
  /** `--no-title`: leave the terminal title alone. */
  noTitle?: boolean;
  /** `--notify`: the terminal channels (as the monitor's; checked by the caller). */
  notify?: string;
}

type RunFullScreen = (
  mouse: boolean,
  element: (ctl: FullScreenControls) => React.ReactElement,
  done: FullScreenDone,
) => Promise<number>;

export function runFleet(opts: FleetRunOptions, runFullScreen: RunFullScreen): Promise<number> {
  // One project named twice (`box:/r/shop` and `box:/r/shop/`, a --host and the config's entry) is one host.
  const { specs, twice } = fleetHostSpecs(opts.hosts, opts.configHosts);
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    printErr('omc-top: the fleet view needs a terminal on stdin and stdout; use watch --json for scripts.\n');
    return Promise.resolve(2);
  }
  const fleetUi = new FleetUi();
  const fleet = new LocalFleet({
    readonly: opts.readonly,
    watch: opts.poll ? 'poll' : 'auto',
    local: opts.local,
    // Said once, as the monitor says it, with the project it is about.
    onOmcChange: (root, words) => fleetUi.flash(`${root.label}: ${words}`, 'info'),
  });
  const loaded = loadConfig();
  const config = loaded.config;
  // With push channels, each host's stream takes its project's push lease there for us (fleet/push.ts). Made with
  // no host too: the config file may name one later.
  const remote = new RemoteFleet(specs, () => fleet.changed(), {
    pushLease: pushChannels(config).channels.length > 0,
  });
  fleet.setExtra(() => remote.groups());
  if (twice) fleetUi.flash(twice, 'info');
  if (opts.configError) fleetUi.flash(opts.configError, 'error');
  const theme = screenTheme();
  let stopPush: () => void = () => undefined;
  // The first frame first: discovery runs git per project, so it starts after the empty fleet is drawn.
  setImmediate(() => {
    fleet.start();
    remote.start();
    stopPush = pushFromFleet(fleet, {
      config,
      readonly: opts.readonly,
      remote,
      onProblem: (line) => fleetUi.flash(line, 'error'),
    });
  });
  // A transition that needs you rings as in the monitor (same channels, debounce, config; N switches it).
  const ringer = ringForRoots({
    roots: () =>
      fleet.localRoots().map((r) => ({ id: r.info.id, project: shownName(r.info.projectDir), monitor: r.monitor })),
    feeds: () => remoteFeeds(remote),
    subscribe: (l) => fleet.subscribe(l),
    notify: opts.notify,
    config,
    write: writeControl,
  });
  const keepFleetTitle = (on: boolean): TitleKeeper =>
    keepTitle({
      enabled: !opts.noTitle && on,
      write: writeControl,
      text: () => fleetTitle(fleet.getSnapshot()),
      onChange: (l) => fleet.subscribe(l),
    });
  let title = keepFleetTitle(config.title !== false);
  // The config file followed while the fleet runs (fleet/live-config.ts): a valid change is applied here, part by
  // part, and said on the message line; a bad one keeps its problem line on screen and in `!` until it is fixed.
  // The problem line an applied change came with: its news is that message, which must not be cleared for it.
  let lineOfApply: readonly Problem[] | null = null;
  const liveConfig = watchConfig({
    atStart: loaded,
    onApply: (after, before, line) => {
      lineOfApply = line;
      const applied: string[] = [];
      const hosts = remote.setSpecs(fleetHostSpecs(opts.hosts, after.hosts).specs);
      if (hosts.added > 0 || hosts.removed > 0)
        applied.push(
          `hosts ${[hosts.added > 0 ? `+${hosts.added}` : '', hosts.removed > 0 ? `-${hosts.removed}` : ''].filter(Boolean).join(' ')}`,
        );
      if ((before.title !== false) !== (after.title !== false)) {
        title.stop();
        title = keepFleetTitle(after.title !== false);
        applied.push(
          `title ${after.title !== false ? 'on' : 'off'}${opts.noTitle ? ' (--no-title still leaves it alone)' : ''}`,
        );
      }
      if (partChanged(before, after, 'prices')) {
        setConfiguredPrices(after.prices ?? {});
        applied.push('prices');
      }
      if (partChanged(before, after, 'notify')) {
        ringer.configure(after);
        applied.push('notify');
      }
      if (partChanged(before, after, 'answers')) applied.push('answers');
      fleet.changed();
      // Push is not switched under a running fleet: an item already due could go out twice or not at all. So the
      // push that runs is the start's (`config`): an edit is weighed against it, and one undone says so.
      const said: string[] = applied.length > 0 ? [`applied (${applied.join(', ')})`] : [];
      if (partChanged(before, after, 'push'))
        said.push(
          partChanged(config, after, 'push')
            ? 'push: applies when omc-top --all starts again'
            : 'push: as it runs now (the earlier change undone)',
        );
      if (said.length === 0) return;
      fleetUi.flash(`config file: ${said.join('; ')}`, 'info');
    },
  });
  // A file broken again: its line is news, not hidden behind an older message (but not behind the message saying
  // what the same edit applied: subscribers hear of the line after that message was put up).
  const offConfig = liveConfig.subscribe(() => {
    const line = liveConfig.getSnapshot();
    if (line.length > 0 && line !== lineOfApply) fleetUi.update((s) => (s.flash ? { ...s, flash: null } : s));
  });
  // Each opened project's own UiStore (its panes, its editors): held here so a hang-up keeps their drafts.
  const uiStores = new Map<string, UiStore>();
  let kept: KeptOutcome[] = [];
  // Once per start, as the monitor does: drafts kept longer than their age are not meant any more.
  if (!opts.readonly) dropOldDrafts(ownStateDir()); // --readonly writes nothing, omc-top's own state included
  return runFullScreen(
    opts.mouse,
    (ctl) => (
      <FleetShell
        fleet={fleet}
        fleetUi={fleetUi}
        uiStores={uiStores}
        remote={remote}
        theme={theme}
        readonly={opts.readonly}
        notifier={ringer.notifier}
        ownProblems={liveConfig}
        exit={ctl.exit}
        redraw={ctl.redraw}
        suspend={ctl.suspend}
      />
    ),
    {
      // Before the main screen comes back, as the monitor does: the shell's own title returns with it.
      beforeRestore: (code) => {
        kept = keepOnExit(code, PANES, fleetDraftRoots(fleet, uiStores));
        title.stop();
      },
      title: () => title,
      // No ssh outlives omc-top: each is ended for good (TERM, then KILL) before the process exits.
      afterRestore: async () => {
        printKept(kept);
        uiStores.forEach((u) => u.dispose());
        offConfig();
        liveConfig.stop();
        stopPush();
        ringer.dispose();
        await Promise.all([remote.stop(), fleet.close()]);
      },
    },
  );
}
