/**
 * `omc-top watch --json [--snapshot]`: one JSON line per transition of the
 * live store (the same engine and snapshots as the screen), for scripts. No
 * terminal needed; nothing is written under .omc.
 *
 * Exit codes: 0 stopped by SIGINT / SIGTERM or because stdout closed;
 * 2 usage, or a --root given that is not there (with no .omc yet otherwise, it waits: store/root-wait.ts).
 */
import { fitHelp } from './help-width.js';
import { configLine, configPath, loadConfig } from '../config/config-file.js';
import { AckFile } from '../feeds/attention/acks.js';
import { AttentionMonitor } from '../feeds/attention/monitor.js';
import { publishStatusCache } from '../feeds/attention/status-publisher.js';
import type { AttentionView } from '../feeds/attention/view.js';
import {
  aliveLine,
  attentionLine,
  IDLE_LINE_MS,
  laggedLine,
  pushLeaseLine,
  readyLine,
  rootLine,
  omcLine,
  quotaJsonLine,
  snapshotLine,
  stateDirLine,
  transitionLine,
} from '../feeds/json-line.js';
import { holdLeaseForFleet } from '../feeds/notify/push/fleet-lease.js';
import { ownStateDir } from '../io/state-dir.js';
import { startRowFeed } from '../feeds/row-feed.js';
import { quotaJson } from '../feeds/quota-json.js';
import { quotaEdgeMs, quotaLine } from '../store/cost/quota-words.js';
import { projectNameOf } from '../store/root.js';
import { noRootWords, rootHints } from './no-root-words.js';
import { cleanLine } from '../io/sanitize.js';
import { followRoot, resolveRootAndOmc, type RootLookCause } from '../store/omc-root.js';
import { followsRootRule, waitForRoot } from '../store/root-wait.js';
import { homeDir } from '../io/home-dir.js';
import type { OmcInstall } from '../store/omc-install.js';
import type { RootResolution } from '../store/root.js';
import type { StateDirHealth } from '../store/state-dir/health.js';
import { OmcStore, type OmcStoreOptions } from '../store/store.js';
import {
  hasReaderToLose,
  LineStream,
  onStopSignal,
  printErr,
  printOut,
  STREAM_MAX_BUFFERED_BYTES,
} from '../io/output.js';
import { parseArgs, UsageError, rootFlag } from './args.js';
import { checkOmcVersionFlag } from './omc-version-flag.js';
import { shownBasename } from '../io/safe-fs/byte-paths.js';
import { sameAbsence } from '../io/watch/root-presence.js';
import { pauseAfterFirstLineForTest } from './test-pause.js';
import { shownArg } from '../io/shown-arg.js';
import { kernelCwd } from '../io/kernel-cwd.js';
import { shownPath } from '../io/shown-path.js';
import { docPath } from '../io/doc-path.js';

export const WATCH_EXIT = { ok: 0, usage: 2 } as const;

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = {
  json: 'bool',
  snapshot: 'bool',
  rows: 'bool',
  'push-lease': 'bool',
  poll: 'bool',
  cwd: 'value',
  root: 'value',
  'omc-version': 'value',
  help: 'bool',
} as const;

export const WATCH_USAGE = `Usage: omc-top watch --json [--snapshot] [--rows] [--push-lease] [--poll] [--cwd DIR | --root DIR]
                     [--omc-version X]

Prints one JSON line per transition (session appeared / ended, mode active / not,
iteration, cancel in force / expired, cancel verdict, Claude process, team, worker,
problem), one "attention" line whenever what needs you changes (the monitor's
"needs you" count) and one "quota" line whenever the plan quota the monitor's
header shows changes (not for a countdown going down), until interrupted.
--snapshot first prints the current state (type "snapshot"), the attention line
and a "ready" line. --rows adds each session's row as the fleet view shows it
(type "row"), at start and whenever it changes. --push-lease (a fleet that pushes
asks it) takes this project's push lease here for the reader, says who pushes
(type "push-lease") and stops when stdin ends. --omc-version X judges with OMC X's Stop-hook rules, as the monitor
and --json do. With no .omc yet, it waits and follows OMC to the one it makes (a
"root" line). The line schema is in ${docPath('scripting.md')} ("omc-top watch
--json"); the attention lines in ${docPath('attention.md')}.
Exit: 0 stopped (SIGINT, SIGTERM, stdout closed), 2 usage or --root not there.`;

export interface WatchIo {
  out(s: string): void;
  err(s: string): void;
  cwd: string;
  /** omc-top's state directory (acknowledgements, the status cache) is found from it. */
  env?: NodeJS.ProcessEnv;
  now(): number;
  /** Resolves when the watch should stop (signals, stdout closed; tests pass their own). */
  stopped: Promise<void>;
  /** Room for more output now, and a call when there is again (the row feed waits instead of piling up). */
  hasRoom?(): boolean;
  onRoom?(cb: () => void): void;
}

/** OMC_TOP_WATCH_BUFFER_BYTES: what a stalled reader may cost (default 1 MiB; at least 4 KiB). */
function bufferBytes(env: NodeJS.ProcessEnv): number {
  const n = Number(env.OMC_TOP_WATCH_BUFFER_BYTES);
  return Number.isSafeInteger(n) && n >= 4096 ? n : STREAM_MAX_BUFFERED_BYTES;
}

/**
 * SIGINT, SIGTERM or a closed stdout: answered at once, even while a reader has stopped reading. With
 * `stdinEnds`, the end of stdin too: a fleet that holds its ssh's stdin open is gone when it ends, even while
 * nothing is written (an idle stream would not notice its closed stdout), so the lease it held is freed.
 */
function processStop(stdinEnds: boolean): Promise<void> {
  return new Promise((resolve) => {
    onStopSignal(resolve);
    process.stdout.once('error', () => resolve());
    if (stdinEnds) {
      process.stdin.once('end', () => resolve());
      process.stdin.once('error', () => resolve());
      process.stdin.resume();
    }
  });
}

export async function runWatchCommand(argv: readonly string[], io?: WatchIo): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  const err = io?.err ?? printErr;
  // The process's stdout is a bounded stream: a stalled reader costs at most STREAM_MAX_BUFFERED_BYTES.
  let project = '';
  // On a pipe or socket a quiet stream says `alive` every IDLE_LINE_MS; `ready` tells the reader so (fleet/remote.ts).
  const aliveMs = !io && hasReaderToLose(1) ? IDLE_LINE_MS : null;
  const stream = io
    ? null
    : new LineStream(process.stdout, {
        lagged: (n) => laggedLine(project, Date.now(), n) + '\n',
        maxBufferedBytes: bufferBytes(process.env),
        idle: aliveMs !== null ? { afterMs: aliveMs, line: () => aliveLine(project, Date.now()) + '\n' } : undefined,
      });
  // Events may be dropped (counted) for a reader that stopped reading; state lines never are.
  const out = io?.out ?? ((s: string) => (stream as LineStream).line(s));
  const state = io?.out ?? ((s: string) => (stream as LineStream).always(s));
  const room = io
    ? { has: io.hasRoom ?? (() => true), on: io.onRoom ?? ((cb: () => void) => cb()) }
    : { has: () => (stream as LineStream).hasRoom, on: (cb: () => void) => (stream as LineStream).onRoom(cb) };
  if (args.flags.has('help')) {
    (io?.out ?? printOut)(fitHelp(WATCH_USAGE) + '\n');
    return WATCH_EXIT.ok;
  }
  if (!args.flags.has('json')) throw new UsageError('watch needs --json (the only output format)');
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${shownArg(args.positionals[0]!)}`);
  const now = io?.now ?? Date.now;
  const cwd = (args.flags.get('cwd') as string | undefined) ?? io?.cwd ?? process.cwd();
  // The root and the OMC that judges found together, as the monitor and --json find them (--omc-version too).
  const { res, omc, redetect, rootFor, claudeEnv } = resolveRootAndOmc({
    cwd,
    rootOverride: rootFlag(args),
    override: checkOmcVersionFlag(args.flags.get('omc-version') as string | undefined),
  });
  // No root yet: the watch follows the start's rule to wherever OMC makes one (below); a root given with --root that
  // is not there is a mistake to say, not a place to wait.
  if (!res.exists && !followsRootRule(res)) {
    err(`omc-top watch: ${noRootWords(res, io?.env ?? process.env)}\n`);
    return WATCH_EXIT.usage;
  }
  // Waiting: a live Claude of the project whose hooks write elsewhere is said on stderr, as the monitor's waiting
  // line says it and as the exit used to (the root line on stdout says where the watch waits).
  if (!res.exists)
    for (const hint of rootHints(res, io?.env ?? process.env)) err(`omc-top watch: note: ${cleanLine(hint)}\n`);
  project = projectNameOf(res, shownBasename);
  // The config file gives --rows its prices, and a fleet that reads this stream pushes with its own: a bad
  // field is said once, on stderr (stdout is the line stream), as the monitor's message line says it.
  const config = configLine(loadConfig(configPath(io?.env ?? process.env)));
  if (config !== null) err(`omc-top watch: ${config}\n`);
  // Listening before any line is written: a script that stops the watch as soon as it reads "ready" gets the
  // clean exit 0, not death by the signal's default action in the moment between the line and the handler.
  const stopped = io?.stopped ?? processStop(args.flags.has('push-lease'));
  const lines: RootLines = { project, now, out, state, room, aliveMs };
  const flags = {
    snapshot: args.flags.has('snapshot'),
    rows: args.flags.has('rows'),
    lease: args.flags.has('push-lease'),
  };
  const base = {
    watch: args.flags.has('poll') ? ('poll' as const) : ('auto' as const),
    // Looked at again while the watch runs: a plugin update is an `omc` line, then the re-judged transitions.
    omcRedetect: redetect,
    // The config directory the project's Claudes use (their registry, transcripts and plugin).
    claude: { env: claudeEnv },
    // The acknowledgements' and the status cache's directory, whose health the state-dir line reports.
    stateDir: ownStateDir(io?.env ?? process.env),
  };
  const shown: Shown = { view: null, stateDir: null, quota: null };
  let closing = false;
  let current: OnRoot | null = null;
  let moving: Promise<void> | null = null;
  /**
   * Another OMC runs the hooks (the `omc` line is said): where its release keeps the state is looked for again, as
   * the monitor does (store/omc-root.ts followRoot); when it moved, a `root` line says so and the watch goes on
   * there, after the old store's own re-judging (this runs inside it).
   */
  const follow = (from: OmcStore, next: OmcInstall, cause?: RootLookCause) => {
    if (closing || moving || from !== current?.store) return;
    const was = current.at.root;
    const found = followRoot(rootFor, next, was, cause);
    if (found.moved === null) return;
    moveTo(found.res, next, was, found.moved);
  };
  /**
   * The project renamed under the watch (its root gone from its path): with the root found from the directory the
   * watch runs in (no --root, no --cwd), it is looked for again from that directory as the kernel has it now, and a
   * root there is followed with a `root` line (the monitor's cli.tsx moveFollower).
   */
  let startCwd = io?.cwd === undefined && !args.flags.has('cwd') && rootFlag(args) === undefined ? cwd : null;
  const followMove = (from: OmcStore) => {
    if (closing || moving || from !== current?.store || startCwd === null) return;
    const here = kernelCwd();
    if (here === null || here === startCwd) return;
    const next = from.omc ?? omc;
    const again = rootFor(next, here);
    const was = current.at.root;
    if (!again.exists || again.root === was) return;
    startCwd = here;
    moveTo(
      again,
      next,
      was,
      `the project moved to ${shownPath(here)}: state read from ${shownPath(again.root)} now (was ${shownPath(was)})`,
    );
  };
  const start = async (at: RootResolution, install: OmcInstall, first: boolean): Promise<OnRoot> => {
    const on = await watchOn(at, { ...base, omc: install }, flags, lines, shown, follow, first);
    on.store.status.subscribe(() => {
      if (on.store.status.getSnapshot().rootAbsence?.code === 'missing') setImmediate(() => followMove(on.store));
    });
    return on;
  };
  /** Where the move under way goes (null: none): the root this watch is on, as far as the root wait is concerned. */
  let movingTo: string | null = null;
  const moveTo = (found: RootResolution, next: OmcInstall, was: string, words: string) => {
    movingTo = found.root;
    // A move asked for while one is under way runs after it (the root wait can move twice in one look): never two
    // stores started from the same old one.
    const run: Promise<void> = (moving ?? Promise.resolve()).then(
      () =>
        new Promise<void>((done) =>
          setImmediate(() => {
            void (async () => {
              const old = current as OnRoot;
              // Every line names the project as it is called now (renamed: the new name, from this root line on).
              project = projectNameOf(found, shownBasename);
              lines.project = project;
              const absence = found.exists ? null : ({ code: 'missing' } as const);
              state(rootLine(project, now(), { path: found.root, absence, message: words }, { was, words }) + '\n');
              await old.stop('rows gone');
              if (!closing) current = await start(found, next, false);
              if (moving === run) {
                moving = null;
                movingTo = null;
              }
              done();
            })();
          }),
        ),
    );
    moving = run;
  };
  current = await start(res, omc, true);
  // Started before OMC made any root: the rule is followed as the monitor follows it (store/root-wait.ts), each move
  // a `root` line with `was`, until a root is there.
  const stopWaiting = waitForRoot({
    start: res,
    cwd,
    home: homeDir(),
    again: () => rootFor(current?.store.omc ?? omc),
    // While a move runs (async here: the old store closes first), the root this watch is going to: a look that
    // lands then is the wait's own, not "another root chosen", and the waiting goes on.
    watching: () => (closing || current === null ? null : (movingTo ?? current.at.root)),
    move: (next, words) => {
      const on = current as OnRoot;
      moveTo(next, on.store.omc ?? omc, movingTo ?? on.at.root, words);
    },
  });
  await stopped;
  closing = true;
  stopWaiting?.();
  stream?.close();
  await moving;
  await current.stop();
  return WATCH_EXIT.ok;
}

/** Where this watch writes its lines, and how: the same for every root it watches. */
interface RootLines {
  project: string;
  now(): number;
  /** Events (may be dropped for a reader that stopped reading) and state lines (never dropped). */
  out(s: string): void;
  state(s: string): void;
  room: { has(): boolean; on(cb: () => void): void };
  aliveMs: number | null;
}

/** What the reader was last told, kept across a move: a line is written only when it changes. */
interface Shown {
  view: AttentionView | null;
  stateDir: StateDirHealth | null;
  /** The plan quota's key (store/cost/quota-words.ts): what it says apart from the clock; '' for no quota. */
  quota: string | null;
}

/** The watch on one root: the store and all that reads it, stopped whole when an OMC upgrade moves the root. */
interface OnRoot {
  at: RootResolution;
  store: OmcStore;
  stop(gone?: 'rows gone'): Promise<void>;
}

async function watchOn(
  at: RootResolution,
  opts: Pick<OmcStoreOptions, 'watch' | 'omc' | 'omcRedetect' | 'stateDir' | 'claude'>,
  flags: { snapshot: boolean; rows: boolean; lease: boolean },
  lines: RootLines,
  shown: Shown,
  onOmc: (from: OmcStore, next: OmcInstall, cause?: RootLookCause) => void,
  first: boolean,
): Promise<OnRoot> {
  const { project, now, out, state, room, aliveMs } = lines;
  // Read-only for OMC's files; a cancel nobody follows is settled here all the same (omc-top's own record).
  const store = new OmcStore({
    ...opts,
    root: at.root,
    readonly: true,
    followCancels: true,
    projectDir: at.projectDir,
    rootRule: at.rule,
  });
  store.start();
  const dir = store.stateDir.dir;
  const acks = new AckFile(dir, store.root);
  const unwatchAcks = acks.watch();
  // `.omc` moved away, removed or replaced by a file (and back): one line each way, in the monitor's words. The
  // watch keeps running meanwhile (the watcher waits for the root and holds the process). Listening before the
  // attention monitor does: the status cell tells its listeners in order, so the line that the root is back comes
  // before the transitions of what came back with it.
  let shownAbsence = store.status.getSnapshot().rootAbsence ?? null;
  // Started with no root there (waiting for OMC to make one, or for it back): said first, before any other line.
  if (first && shownAbsence !== null) {
    const status = store.status.getSnapshot();
    state(rootLine(project, now(), { path: store.root, absence: shownAbsence, message: status.watchDetail }) + '\n');
  }
  const offRoot = store.status.subscribe(() => {
    const status = store.status.getSnapshot();
    const absence = status.rootAbsence ?? null;
    if (sameAbsence(absence, shownAbsence)) return;
    shownAbsence = absence;
    state(rootLine(project, now(), { path: store.root, absence, message: status.watchDetail }) + '\n');
  });
  // Listening before the attention monitor does, for the same reason: the line comes before the transitions it causes.
  const offOmcChange = store.onOmcChange((words, next) => {
    state(omcLine(project, now(), next, words) + '\n');
    onOmc(store, next);
  });
  // OMC_STATE_DIR changed in Claude's settings: the same OMC, its state maybe elsewhere (a `root` line if it moved).
  const offStateDirSetting = store.onStateDirSetting(() => {
    if (store.omc) onOmc(store, store.omc, 'state-dir-setting');
  });
  const offOmc = () => {
    offOmcChange();
    offStateDirSetting();
  };
  const monitor = new AttentionMonitor(store, { acks });
  // "ready" promises that every later change is reported: wait for the watcher to be up.
  await new Promise<void>((resolve) => {
    const check = () => {
      if (store.status.getSnapshot().watchMode === 'starting') return;
      unsub();
      resolve();
    };
    const unsub = store.status.subscribe(check);
    check();
  });
  monitor.sync();
  // Who pushes here, before any item: the fleet reading this decides from it (fleet/remote.ts).
  const stopLease = flags.lease
    ? holdLeaseForFleet(dir, store.root, (pusher) => state(pushLeaseLine(project, now(), pusher) + '\n'))
    : () => undefined;
  // Rows before "ready": a fleet that sees "ready" has every session's row.
  const stopRows = flags.rows ? startRowFeed(store, project, state, now, room, monitor) : () => undefined;
  const view = monitor.view.getSnapshot();
  const health = store.stateDir.getSnapshot();
  const quotaKey = () => quotaLine(store.quota.getSnapshot(), now())?.key ?? '';
  const quotaNow = () => quotaJsonLine(project, now(), quotaJson(store.quota.getSnapshot(), now())) + '\n';
  if (flags.snapshot) {
    // At start, and on the root an upgrade moved the watch to: every fact there (no second `ready`).
    const at = now();
    for (const [kind, map] of monitor.current().byKind) {
      for (const [key, fact] of map) state(snapshotLine(kind, key, fact, project, at, monitor.isAcked) + '\n');
    }
    state(attentionLine(project, at, view) + '\n');
    state(stateDirLine(project, at, health) + '\n');
    state(quotaNow());
    if (first) {
      state(readyLine(project, at, view.count, aliveMs, store.omc) + '\n');
      pauseAfterFirstLineForTest();
    }
  } else if (!first) {
    // Moved: what the reader was told last, said again where it differs here.
    if (shown.view && !sameView(view, shown.view)) state(attentionLine(project, now(), view) + '\n');
    if (shown.stateDir && health !== shown.stateDir) state(stateDirLine(project, now(), health) + '\n');
    if (shown.quota !== null && quotaKey() !== shown.quota) state(quotaNow());
  }
  shown.view = view;
  shown.stateDir = health;
  shown.quota = quotaKey();
  monitor.onTransitions((batch) => {
    const at = now();
    for (const t of batch) out(transitionLine(t, project, at, monitor.isAcked) + '\n');
  });
  // After the transitions that changed it (the cell notifies on the next turn): the count at that moment.
  const offView = monitor.view.subscribe(() => {
    const next = monitor.view.getSnapshot();
    if (shown.view && sameView(next, shown.view)) return;
    shown.view = next;
    state(attentionLine(project, now(), next) + '\n');
  });
  // The state directory turning unusable (or usable again) while the watch runs: a script learns that its
  // acknowledgements and the cancel records are (no longer) kept.
  const offStateDir = store.stateDir.subscribe(() => {
    const next = store.stateDir.getSnapshot();
    if (next === shown.stateDir) return;
    shown.stateDir = next;
    state(stateDirLine(project, now(), next) + '\n');
  });
  // The plan quota: a line when what it says changes (OMC wrote the cache, or a reset or OMC's 15-minute rule passed
  // with nothing written: looked at again at that moment). A countdown going down changes nothing.
  let quotaTimer: NodeJS.Timeout | null = null;
  const checkQuota = () => {
    if (quotaTimer) clearTimeout(quotaTimer);
    quotaTimer = null;
    const key = quotaKey();
    if (key !== shown.quota) {
      shown.quota = key;
      state(quotaNow());
    }
    const edge = quotaEdgeMs(store.quota.getSnapshot(), now());
    if (edge !== null) {
      quotaTimer = setTimeout(checkQuota, Math.min(edge - now(), 2 ** 31 - 1));
      quotaTimer.unref();
    }
  };
  const offQuota = store.quota.subscribe(checkQuota);
  checkQuota();
  // A live monitor: `status --tmux` may answer from it (nothing is written under .omc).
  const unpublish = publishStatusCache({ store, monitor, project, dir });
  return {
    at,
    store,
    async stop(gone) {
      stopLease();
      stopRows(gone);
      offView();
      offStateDir();
      offQuota();
      if (quotaTimer) clearTimeout(quotaTimer);
      offRoot();
      offOmc();
      unpublish();
      unwatchAcks();
      monitor.dispose();
      await store.close();
    },
  };
}

/** The same items, acknowledged the same way: nothing a script needs to hear again. */
function sameView(a: AttentionView, b: AttentionView): boolean {
  const ids = (v: AttentionView) => [...v.open.map((n) => n.id), '|', ...v.acked.map((n) => n.id)].join('\n');
  return a.count === b.count && ids(a) === ids(b);
}
