/**
 * omc-top entry point: argument parsing, .omc root resolution, the one-shot
 * modes (--json, subcommands) and the full-screen lifecycle (alternate
 * screen, signals, crash handling, suspend for $EDITOR).
 */
// Before Ink and React: memory settings, and no `fetch` while Yoga loads (each file says why).
import { fitHelp } from './commands/help-width.js';
import './terminal/young-gen.js';
import { restoreFetch } from './terminal/yoga-without-fetch.js';
import React from 'react';
import path from 'node:path';
import { App } from './app.js';
import { noColorAsked, parseArgs, rootFlag, UsageError } from './commands/args.js';
import { takeRepeated } from './commands/fleet-args.js';
import { checkOmcVersionFlag } from './commands/omc-version-flag.js';
import { startAttentionTerminal, type AttentionTerminal } from './feeds/notify/attention-terminal.js';
import { loadConfig, parseChannels } from './config/config-file.js';
import { PANES } from './panes/registry.js';
import type { RootChoice } from './kit/pane.js';
import { addClaudeToReport } from './store/claude/report.js';
import { enableIterationSamples, readRecordedWindows } from './feeds/iteration-sampling.js';
import { buildJsonReport } from './feeds/json-report.js';
import { oneReadStore } from './feeds/one-read.js';
import { newerThanKnownWords } from './store/omc-books.js';
import { addCancelWordsToReport } from './feeds/row.js';
import { quotaJson } from './feeds/quota-json.js';
import { attentionReport } from './feeds/attention/report.js';
import { addCostToReport } from './feeds/cost-report.js';
import { configuredPrices } from './store/claude/price-config.js';
import { type OmcInstall, type OmcReadMemo } from './store/omc-install.js';
import { rootHints } from './commands/no-root-words.js';
import { refuseOneProjectFlags } from './commands/fleet-flags.js';
import {
  asksJson,
  commandOf,
  endUncaughtAsInternal,
  reportInternalError,
  tryHelpLine,
} from './commands/internal-error.js';
import { faultForTest } from './commands/test-fault.js';
import type { Problem } from './store/types.js';
import { followRoot, resolveRootAndOmc, type RootLookCause } from './store/omc-root.js';
import { waitForRoot } from './store/root-wait.js';
import {
  NestedRootsSearch,
  findNestedRoots,
  nestedMonitorNotice,
  nestedNotice,
  nestedSearchBase,
  type NestedSearch,
} from './store/sessions/nested-roots.js';
import { noRootMessage, projectNameOf, rootPathFault, type RootResolution } from './store/root.js';
import { exitAfterFlush, printErr, printJson, printOut, processSink, writeControl } from './io/output.js';
import { cleanLine } from './io/sanitize.js';
import { shellArg, shownName, shownPath } from './io/shown-path.js';
import { shownArg } from './io/shown-arg.js';
import { listDirSync } from './io/safe-fs/index.js';
import { kernelCwd } from './io/kernel-cwd.js';
import { OmcStore } from './store/store.js';
import { firstStepRows } from './store/sessions/domain.js';
import { runFullScreen, type FullScreenControls } from './terminal/full-screen.js';
import { screenTheme } from './ui/theme.js';
import { UiStore } from './kit/ui-store.js';
import { keepOnExit, printKept, type KeptOutcome } from './kit/kept-drafts.js';
import { dropOldDrafts } from './store/drafts/old-drafts.js';
import { VERSION } from './version.js';
import { earlyGitSettled } from './io/git-early.js';
import type { GitProbe } from './io/git.js';
import { homeDir } from './io/home-dir.js';
import { ownStateDir } from './io/state-dir.js';
import { rememberProject } from './fleet/known-projects.js';

export const USAGE = `omc-top ${VERSION}: a live monitor for oh-my-claudecode (.omc) sessions

Usage:
  omc-top [--cwd DIR | --root DIR] [--readonly] [--poll] [--no-mouse] [--omc-version X]
  omc-top --all [--host USER@BOX[:DIR]]... [--readonly] [--poll]
  omc-top --json [--cwd DIR | --root DIR] [--omc-version X]
  omc-top cancel <session-id> [--mode MODE] [--signal-only] [--wait SECONDS] [--json]
                 [--cwd DIR | --root DIR] [--omc-version X] [--readonly]
  omc-top ack <item-id>... [--cwd DIR | --root DIR]
  omc-top wiki search QUERY... [--limit N] [--category C] [--tag T[,T…]] [--json] [--cwd DIR | --root DIR]
  omc-top doctor [--json] [--cwd DIR | --root DIR] [--poll] [--test-push]
  omc-top serve [--port N] [--listen ADDR] [--cwd DIR | --root DIR] [--readonly] [--poll]
                [--allow-host NAME]... [--all] [--host USER@BOX]...
  omc-top watch --json [--snapshot] [--rows] [--push-lease] [--poll] [--cwd DIR | --root DIR]
                [--omc-version X]
  omc-top status [--tmux] [--fresh] [--format FORMAT] [--cwd DIR | --root DIR] [--omc-version X]
  omc-top hooks install | uninstall | status [--cwd DIR] [--json]
  omc-top send <session> TEXT [--pane] [--wait SECONDS]

Options:
  --cwd DIR     find the .omc root starting from DIR (default: the current directory)
  --root DIR    use DIR as the .omc root (skips OMC's root resolution; a project's DIR reads DIR/.omc)
  --json        print one JSON snapshot of every session and exit
  --readonly    never write anything (cancel and edits are disabled)
  --poll        poll every second instead of watching files (NFS, no inotify)
  --omc-version X  judge with OMC X's Stop-hook rules (default: the OMC that runs each
                session: its Claude process's --plugin-dir, Claude Code's enabled plugin,
                the OMC:VERSION marker, a global npm install; else the newest rules, marked
                assumed, and a loop the releases judge differently shows each reading)
  --no-color    no colours (also: NO_COLOR=1); every subcommand takes it
  --no-mouse    leave the mouse to the terminal, so it selects text (by default the
                wheel scrolls and a click selects a row)
  --notify=LIST notify when a loop needs you: bell,osc,tmux or none (default bell,tmux)
  --no-title    leave the terminal title alone (default: "needs you: N"; the fleet:
                the same words, summed over every project)
  --all         the fleet: every session of every .omc root on this machine, by project,
                each judged by its own OMC (--cwd, --root, --omc-version and --json pick
                or judge one project: refused with --all or --host)
  --host U@BOX[:DIR]  also show that machine's sessions, over your own ssh (repeatable;
                or "hosts" in the config file); omc-top must be installed there
  -h, --help    this text
  -v, --version print the version

How the .omc root is found (as OMC does): $OMC_STATE_DIR/<project id> when
OMC_STATE_DIR is set (as OMC's hooks get it: the "env" of Claude's settings files
first, then omc-top's environment); else the nearest .omc-workspace marker; else
the git top-level (a submodule climbs to its superproject); else $HOME/.omc (OMC
5.5.0; OMC 4.x used ./.omc, which is shown when it is the only one that exists).

Keys: ? in the app lists them all. q quits.`;

const MAIN_FLAGS = {
  cwd: 'value',
  root: 'value',
  json: 'bool',
  readonly: 'bool',
  poll: 'bool',
  'omc-version': 'value',
  'no-color': 'bool',
  'no-mouse': 'bool',
  notify: 'value',
  'no-title': 'bool',
  all: 'bool',
  help: 'bool',
  version: 'bool',
} as const;

function notFoundMessage(r: RootResolution): string {
  if (r.rule === 'unusable-path') return `omc-top: ${noRootMessage(r)}.`;
  // One line each: the explanation, the paths and the notes can name directories from disk (a newline in one would
  // split the message).
  const lines = [`omc-top: ${cleanLine(`no .omc directory found (${r.explain}).`)}`, 'Looked in:'];
  for (const l of r.looked) {
    const fault = rootPathFault(l);
    // Only what is there and is not a directory is worth a word: "does not exist" is what the heading says. The
    // path with every byte (a control as an escape, io/shown-path.ts): one line, and the directory it names.
    const shown = shownPath(l);
    lines.push(fault === 'does not exist' || fault === 'is a directory' ? `  ${shown}` : `  ${shown}: ${fault}`);
  }
  for (const n of r.notices) lines.push(`note: ${cleanLine(n)}`);
  // A Claude here whose hooks write elsewhere (its own OMC_STATE_DIR, or none where omc-top has one).
  for (const h of rootHints(r, process.env)) lines.push(`note: ${h}`);
  lines.push('Start OMC in this project first, or point omc-top at one with --cwd DIR or --root DIR/.omc.');
  return lines.join('\n');
}

/**
 * The config file's bad fields, as the monitor's message line says them at start: a problem of --json's and of the
 * monitor's (its problem lines and `!` list), whose prices (the cost) come from the same file. The path is the
 * file's own (it is not under the root).
 */
function configProblems(): Problem[] {
  const loaded = loadConfig();
  return loaded.reason === null
    ? []
    : [{ path: loaded.path, message: `config file: ${loaded.reason}`, severity: 'error' }];
}

async function runJson(
  res: RootResolution,
  readonly: boolean,
  omc: OmcInstall,
  nested: NestedSearch,
  claudeEnv: NodeJS.ProcessEnv,
): Promise<number> {
  const store = oneReadStore(res, omc, readonly, claudeEnv);
  store.start();
  const doc = buildJsonReport({
    root: res.root,
    rootRule: res.explain,
    notices: res.notices,
    omc,
    sessions: store.sessions.getSnapshot(),
    extraProblems: [
      ...store.problems.getSnapshot().filter((p) => !store.sessions.getSnapshot().problems.includes(p)),
      ...configProblems(),
    ],
    extra: {
      ...store.reportExtras(),
      nested_roots: nested.roots.map((r) => ({
        path: r.abs,
        relative: r.rel,
        sessions: r.sessions,
        // A command to type: the path quoted for any POSIX shell (printf's escapes when it holds a control byte), or
        // why none can be given; `path` stays raw.
        hint: shellArg(r.abs, (w) => `--root ${w}`),
      })),
      nested_search_truncated: nested.truncated,
    },
    storiesFor: (sid) => store.prd.storiesJson(sid),
  });
  addClaudeToReport(doc, store.sessions.getSnapshot().sessions, store.claude.getSnapshot(), store.clock());
  addCancelWordsToReport(
    doc,
    store.sessions.getSnapshot().sessions,
    store.claude.getSnapshot().bySession,
    store.cancelRecords.getSnapshot().records,
    store.clock(),
  );
  doc.attention = attentionReport(store);
  // The header's plan quota, in its words (the Cost figures behind it are `cost.quota`).
  doc.quota = quotaJson(store.quota.getSnapshot(), store.clock());
  readRecordedWindows(store);
  addCostToReport(doc, store, configuredPrices(), store.clock());
  await store.close();
  printJson(doc);
  return 0;
}

interface TuiOptions {
  /** The directory the root was resolved from (`--cwd` or where omc-top started). */
  cwd: string;
  readonly: boolean;
  poll: boolean;
  mouse: boolean;
  /** The OMC that runs the hooks, as last found: a running store that finds another updates it (O's next root starts there). */
  omc: OmcInstall;
  /** The same finding made again (resolveRootAndOmc): the store looks again on a timer. */
  omcRedetect?: (reads?: OmcReadMemo, processes?: boolean) => OmcInstall;
  /**
   * The root looked for again by another OMC's rules (resolveRootAndOmc): followed when an upgrade moves it; `from`
   * another directory (the process's own, renamed under it): followed when the project moved.
   */
  rootFor?: (install: OmcInstall, from?: string) => RootResolution;
  /**
   * The root was found from the directory omc-top runs in (no --root, no --cwd): when it goes, it is looked for
   * again from that directory as the kernel has it now, which a rename of the project moves (followMove).
   */
  followsCwd?: boolean;
  attention?: { notify?: string; noTitle?: boolean };
  /**
   * The search for nested .omc roots under the project (O switches to them; null when there is no project to
   * search). The monitor runs it in slices once it is live (it lists up to 2,000 directories), or at once when O
   * comes first; every O after it searches again.
   */
  nestedSearch: NestedRootsSearch | null;
  /** The environment the project's Claudes are read with (resolveRootAndOmc's claudeEnv: their config directory). */
  claudeEnv?: NodeJS.ProcessEnv;
  /**
   * Git's answers of the root resolution this start made (resolveRootAndOmc's gitAnswers): the first store takes
   * them. A store started later (another root, an OMC upgrade) asks git itself, as the answers may have changed.
   */
  gitAnswers?: GitProbe;
}

/** The store on one root and what follows it (iteration samples, the attention layer). */
interface Watched {
  store: OmcStore;
  attention: AttentionTerminal;
}

/** The store on the root shown now, with the header's words for how that root was found. */
type LiveRoot = Watched & { rootExplain: string; closing: boolean };

/**
 * What every follower of the monitor's root works on (an OMC upgrade, the project moved, the root appearing, O):
 * the project's root as found (`res`, updated in place when it moves), the store on the root shown (`live`), how a
 * store starts on a root (`watch`), and the screen's messages and repaint.
 */
interface MonitorRoot {
  res: RootResolution;
  opts: TuiOptions;
  live: LiveRoot;
  watch: (root: string, projectDir: string | undefined, rule: string) => Watched;
  ui: UiStore;
  redraw: () => void;
}

/**
 * The screen on another root: the old store and its watcher close, one on `to` starts, `said` is flashed, and the
 * screen is drawn afresh from the new store (a fresh instance on a cleared screen).
 */
function showRoot(
  m: MonitorRoot,
  to: { root: string; projectDir: string | undefined; rule: string },
  explain: string,
  said: string,
): void {
  m.live.attention.dispose();
  void m.live.store.close();
  m.live.rootExplain = explain;
  Object.assign(m.live, m.watch(to.root, to.projectDir, to.rule));
  m.ui.flash(said, 'info');
  m.redraw();
}

/**
 * The message while the monitor waits for a root that is not there: "no .omc yet" when nothing is at its path, else
 * what is (the CLI's words, rootPathFault: "is a symlink loop", "is a file, not a directory").
 */
function noRootYetText(res: RootResolution): string {
  const fault = rootPathFault(res.root);
  const hint = rootHints(res, process.env)[0];
  return (
    (fault === 'does not exist'
      ? `no .omc yet: waiting for ${shownPath(res.root)} (${res.explain})`
      : `${shownPath(res.root)} ${fault}: waiting for a .omc directory there (${res.explain})`) +
    (hint ? `; ${hint}` : '')
  );
}

function runTui(res: RootResolution, opts: TuiOptions): Promise<number> {
  const { stdout, stdin } = process;
  if (!stdout.isTTY || !stdin.isTTY) {
    printErr('omc-top: the monitor needs a terminal on stdin and stdout; use --json for scripts.\n');
    return Promise.resolve(2);
  }
  const ui = new UiStore();
  let controls: FullScreenControls | null = null;
  // Declared before the first store starts: its listener for another OMC reaches `live` through it.
  let follow: OmcFollower = () => undefined;
  let startAnswers = opts.gitAnswers;
  // Declared before the first store starts: its root going reaches it.
  let lookForMove: () => boolean = () => false;
  const watch = (root: string, projectDir: string | undefined, rule: string) => {
    const git = startAnswers;
    startAnswers = undefined;
    // The project's name (the terminal title's) as it is now: the project renamed under the monitor is followed
    // (moveFollower updates `res` first), and the title names it as it is called now.
    const project = projectNameOf(res, shownName);
    const w = watchRoot(root, projectDir, rule, opts, ui, project, git, (words, next, from, cause) =>
      follow(words, next, from, cause),
    );
    // The root gone from its path: the project may have been renamed (followMove), looked at once it is said.
    w.store.status.subscribe(() => {
      if (w.store.status.getSnapshot().rootAbsence?.code === 'missing') setImmediate(() => lookForMove());
    });
    return w;
  };
  const live: LiveRoot = { ...watch(res.root, res.projectDir, res.rule), rootExplain: res.explain, closing: false };
  const shown: MonitorRoot = { res, opts, live, watch, ui, redraw: () => controls?.redraw() };
  follow = omcFollower(shown);
  lookForMove = moveFollower(shown);
  // Once per start, never per tick: drafts kept longer than their age are not meant any more (old-drafts.ts).
  // --readonly writes nothing, omc-top's own state included.
  if (!opts.readonly) dropOldDrafts(live.store.drafts.dir);
  // So is this: a fleet started later finds this project from omc-top's memory, even once its Claude has exited
  // and left nothing in Claude's registry (fleet/known-projects.ts). A root given by hand is not a project's.
  const remember = () => void rememberProject(ownStateDir(), opts.cwd, Date.now()).catch(() => undefined);
  if (!opts.readonly && res.exists && res.rule !== 'override') remember();
  // No root yet: the monitor follows the start's rule to wherever OMC makes one, and remembers the project then.
  const stopWaiting = res.exists ? null : rootWaiter(shown, remember);
  if (!res.exists) ui.flash(noRootYetText(res), 'info');
  else if (res.notices[0]) ui.flash(res.notices[0], 'info');
  // A version newer than every release omc-top knows: its statuses are a guess from older rules (said after the
  // notice, so it is the line left showing; both are in the message log).
  const newer = opts.omc.assumed ? null : newerThanKnownWords(opts.omc.version);
  if (newer) ui.flash(newer, 'info');
  const theme = screenTheme();
  const search = opts.nestedSearch;
  // At O: the search begun at start while its slices still run (finished now), else a new one. A root OMC's hooks
  // made after the monitor started (a prompt in a subdirectory) is found then, as `--json` and a fresh monitor find
  // it. Not looked for on a timer: that would walk up to 2,000 directories of the project every tick, and a watch on
  // each would take as many inotify watches; O is where the user asks which roots there are.
  const startRoot = res.root;
  const nested = (): NestedSearch => {
    // The search begun at start looked under the project's old path: once it moved, a new one.
    if (search && !search.done && res.root === startRoot) return search.result();
    const base = nestedSearchBase(res);
    return base ? findNestedRoots(base, res.root) : NO_NESTED;
  };
  const roots = rootSwitcher(shown, {
    nested: () => nested().roots,
    lookAgain: () => lookForMove(),
  });
  let kept: KeptOutcome[] = [];
  const running = runFullScreen(
    opts.mouse,
    (ctl) => {
      controls = ctl;
      return (
        <App
          store={live.store}
          ui={ui}
          panes={PANES}
          rootExplain={live.rootExplain}
          theme={theme}
          exit={ctl.exit}
          redraw={ctl.redraw}
          suspend={ctl.suspend}
          roots={roots}
          attention={live.attention}
        />
      );
    },
    {
      beforeRestore: (code) => {
        live.closing = true;
        stopWaiting?.();
        // A hang-up cannot ask "discard draft?": an open editor's text is written first, before anything can fail.
        kept = keepOnExit(code, PANES, [{ drafts: live.store.drafts, ui }]);
        live.attention.dispose();
      },
      afterRestore: () => {
        printKept(kept);
        ui.dispose();
        return live.store.close();
      },
      // The root's own: switching roots (O) keeps a new title.
      title: () => live.attention.title,
    },
  );
  if (search) searchNestedWhenLive(search, live, ui, res.noticed ?? []);
  return running;
}

const NO_NESTED: NestedSearch = { roots: [], truncated: false };

/** How long one slice of the nested-root search may hold the event loop (a frame or a key waits at most this). */
const NESTED_SLICE_MS = 8;

/**
 * The search for nested roots, and its notice, once the first store is live: in slices, so neither `live` nor a
 * key waits for it. No notice when O finished the search first (its list is on screen) or the monitor is closing.
 */
function searchNestedWhenLive(
  search: NestedRootsSearch,
  live: Watched & { closing: boolean },
  ui: UiStore,
  /** The roots the start's notices name already (RootResolution.noticed). */
  noticed: readonly string[],
): void {
  const slice = () => {
    if (live.closing || search.done) return;
    if (!search.step(performance.now() + NESTED_SLICE_MS)) {
      setImmediate(slice);
      return;
    }
    const notice = nestedMonitorNotice(search.result(), noticed);
    if (notice) ui.flash(notice, 'info');
  };
  live.store.afterFirstRead(() => setImmediate(slice));
}

/** Starts the store on one root, with omc-top's own iteration samples and the attention layer. */
function watchRoot(
  root: string,
  projectDir: string | undefined,
  rule: string,
  opts: TuiOptions,
  ui: UiStore,
  project: string,
  git: GitProbe | undefined,
  onOmc: OmcFollower,
): Watched {
  const store = new OmcStore({
    git,
    omc: opts.omc,
    omcRedetect: opts.omcRedetect,
    home: homeDir(),
    root,
    readonly: opts.readonly,
    watch: opts.poll ? 'poll' : 'auto',
    projectDir,
    rootRule: rule,
    // The permission hook (if the user installed it) asks this monitor; --readonly never answers.
    answers: { listen: !opts.readonly },
    // The first frame reads a screenful of sessions, not more (firstStepRows).
    sessions: { firstStepMinRows: firstStepRows(process.stdout.rows) },
    // The project's Claudes are looked at after the first frame (resolveRootAndOmc's claudesLater).
    claude: { env: opts.claudeEnv, lookLater: true },
    // A bad config file is a problem as long as the monitor runs with the defaults, as --json and doctor say it.
    ownProblems: configProblems(),
  });
  enableIterationSamples(store); // omc-top's own samples of live loops, in $XDG_STATE_HOME
  // A plugin update under the running monitor: said once, in the messages (M keeps it); omcFollower.
  store.onOmcChange((words, next) => onOmc(words, next, store));
  // OMC_STATE_DIR added to (or changed, removed in) Claude's settings: the hooks write elsewhere from now on.
  store.onStateDirSetting(() => onOmc(null, store.omc ?? opts.omc, store, 'state-dir-setting'));
  store.start({ progressive: true });
  const attention = startAttentionTerminal({
    store,
    write: writeControl,
    project,
    onProblem: (line) => ui.flash(line, 'error'),
    onNews: (text) => ui.flash(text, 'info'),
    ...opts.attention,
  });
  if (attention.configError) ui.flash(attention.configError, 'error');
  return { store, attention };
}

/**
 * Takes another OMC found by a running store (`from`): the words to say (omcChangeWords), the new install; or, with
 * `cause` 'state-dir-setting', the same install when Claude's settings gave the hooks another OMC_STATE_DIR.
 */
type OmcFollower = (words: string | null, next: OmcInstall, from: OmcStore, cause?: RootLookCause) => void;

/**
 * Another OMC runs the hooks: said once, and where its release keeps its state looked for again (4.x and 5.5
 * place `.omc` differently: OMC_STATE_DIR, markers, submodules, outside git). When the project's root moved, the
 * monitor reads from the new one, said on the same line; O's main root is the new one either way. A nested root
 * the user chose with O stays chosen.
 */
function omcFollower(m: MonitorRoot): OmcFollower {
  const { res, opts, live, ui } = m;
  return (words, next, from, cause) => {
    opts.omc = next;
    const wasRoot = res.root;
    const follow = from === live.store && opts.rootFor ? followRoot(opts.rootFor, next, wasRoot, cause) : null;
    if (!follow) {
      if (words) ui.flash(words, 'info');
      return;
    }
    const again = follow.res;
    const onMain = live.store.root === wasRoot;
    const explained = live.rootExplain;
    Object.assign(res, again);
    if (!onMain || follow.moved === null) {
      if (words) ui.flash(words, 'info');
      if (onMain && again.explain !== explained) {
        live.rootExplain = again.explain; // the header says how the new release found it
        m.redraw();
      }
      return;
    }
    const said = [words, follow.moved].filter((w) => w !== null).join('; ');
    // After the old store's own re-judging (this runs inside it): it closes, one on the new root starts.
    setImmediate(() => {
      if (live.closing || live.store !== from) return;
      showRoot(m, again, again.explain, said);
    });
  };
}

/**
 * The project renamed (or moved) under the running monitor: its root is gone from the path found at start, while OMC's
 * hooks and Claude, whose directories moved with it, write under the new one. When the root was found from the
 * directory omc-top runs in (no --root, no --cwd), it is looked for again from that directory as the kernel has it
 * now (kernel-cwd.ts; gone with it: nothing to follow), by the same rules (`rootFor`); a root there that is not the
 * one watched is followed, said once. True when it moved. Called when the root goes, and at each O.
 */
function moveFollower(m: MonitorRoot): () => boolean {
  const { res, opts, live } = m;
  return () => {
    // A nested root the user chose with O stays chosen; a root given by hand stays as given.
    if (!opts.followsCwd || !opts.rootFor || live.closing || live.store.root !== res.root) return false;
    const here = kernelCwd();
    if (here === null || here === opts.cwd) return false;
    const again = opts.rootFor(opts.omc, here);
    if (!again.exists || again.root === res.root) return false;
    const was = res.root;
    // A fleet started later finds the project where it is now: the old directory names nothing any more.
    if (!opts.readonly && again.rule !== 'override')
      void rememberProject(ownStateDir(), here, Date.now(), { replaces: opts.cwd }).catch(() => undefined);
    opts.cwd = here;
    Object.assign(res, again);
    showRoot(
      m,
      again,
      again.explain,
      `the project moved to ${shownPath(here)}: state read from ${shownPath(again.root)} now (was ${shownPath(was)})`,
    );
    return true;
  };
}

/**
 * A monitor started before OMC made any root follows the start's rule to wherever OMC makes one (store/root-wait.ts,
 * the wait `watch --json` uses too): a move is said once (a path still waited on, or OMC's new tree), and the first
 * time a root is there the project is remembered for `--all` (`remember`), as a start with a root is. Returns the
 * stop, or null when there is nothing to follow (a root there, or given with --root).
 */
function rootWaiter(m: MonitorRoot, remember: () => void): (() => void) | null {
  const { res, opts, live } = m;
  const rootFor = opts.rootFor;
  if (!rootFor) return null;
  return waitForRoot({
    start: { ...res },
    cwd: opts.cwd,
    home: homeDir(),
    again: () => rootFor(opts.omc),
    // Another root chosen meanwhile (an OMC upgrade followed it, omcFollower): the waiting is that root's now.
    watching: () => (live.closing || live.store.root !== res.root ? null : res.root),
    move: (again, words) => {
      Object.assign(res, again);
      showRoot(m, again, again.explain, words);
    },
    found: () => {
      if (!opts.readonly) remember();
    },
  });
}

/**
 * `O`: the same screen on another root of the project (an empty list when there are no nested roots). The old store and
 * its watcher close; the new one starts, and the screen is drawn afresh from it.
 */
function rootSwitcher(
  m: MonitorRoot,
  {
    nested,
    lookAgain,
  }: {
    /** The nested roots, searched again at each O. */
    nested: () => RootChoice['roots'];
    /** The project's root looked for again where the process is now (moveFollower): true when it moved. */
    lookAgain: () => boolean;
  },
): RootChoice {
  const { res, live } = m;
  /**
   * The roots as they are now, searched again each time O asks (`nested`): the main root first (the one an OMC
   * upgrade moved it to, omcFollower), then the nested ones.
   */
  const roots = (): RootChoice['roots'] => {
    const found = nested();
    if (found.length === 0) return [];
    const base = nestedSearchBase(res) ?? path.dirname(res.root);
    const sessions = listDirSync(res.root, 'state/sessions');
    const main = {
      rel: path.relative(base, res.root) || res.root,
      abs: res.root,
      sessions: sessions.ok ? sessions.entries.filter((e) => e.kind === 'dir').length : 0,
    };
    return [main, ...found];
  };
  return {
    get roots() {
      return roots();
    },
    lookAgain,
    switchTo: (abs) => {
      if (live.closing || abs === live.store.root) return;
      const isMain = abs === res.root;
      showRoot(
        m,
        isMain
          ? { root: abs, projectDir: res.projectDir, rule: res.rule }
          : { root: abs, projectDir: path.dirname(abs), rule: 'nested' },
        isMain ? res.explain : 'a nested root (O switches back)',
        `watching ${shownPath(abs)}`,
      );
    },
  };
}

const SUBCOMMANDS = new Set(['ack', 'cancel', 'wiki', 'doctor', 'watch', 'status', 'hooks', 'send', 'serve']);

export async function main(argv: readonly string[]): Promise<number> {
  // A general option, for every command (the bin sets it too, before anything reads the colour level).
  if (noColorAsked(argv)) process.env.NO_COLOR = '1';
  const fault = faultForTest(commandOf(argv, SUBCOMMANDS));
  if (fault) return fault;
  const sub = argv[0];
  if (sub !== undefined && SUBCOMMANDS.has(sub)) {
    const { runSubcommand } = await import('./commands/subcommands.js');
    return runSubcommand(sub, argv.slice(1));
  }
  const hosts = takeRepeated(argv, 'host');
  const args = parseArgs(hosts.rest, MAIN_FLAGS, { h: 'help', v: 'version', V: 'version' });
  if (args.flags.has('help')) {
    printOut(fitHelp(USAGE) + '\n');
    return 0;
  }
  if (args.flags.has('version')) {
    printOut(`omc-top ${VERSION}\n`);
    return 0;
  }
  const stray = args.positionals[0];
  // `omc-top --cwd D status`: the subcommand came after an option, so it was read as the monitor's argument.
  if (stray !== undefined && SUBCOMMANDS.has(stray))
    throw new UsageError(
      `unexpected argument ${shownArg(stray)}: put options after the subcommand (omc-top ${stray} [options])`,
    );
  if (stray !== undefined) throw new UsageError(`unexpected argument ${shownArg(stray)}`);
  if (args.flags.has('all') || hosts.values.length > 0) {
    refuseOneProjectFlags(args.flags, args.flags.has('all') ? '--all' : '--host');
    const { runFleet } = await import('./run-fleet.js');
    const flags = {
      readonly: args.flags.has('readonly'),
      poll: args.flags.has('poll'),
      mouse: !args.flags.has('no-mouse'),
      noTitle: args.flags.has('no-title'),
      notify: args.flags.get('notify') as string | undefined,
    };
    if (typeof flags.notify === 'string' && typeof parseChannels(flags.notify) === 'string')
      throw new UsageError(parseChannels(flags.notify) as string);
    const config = loadConfig();
    const fleet = { hosts: hosts.values, configHosts: config.config.hosts ?? [], configError: config.error };
    return runFleet({ ...flags, ...fleet, local: args.flags.has('all') }, runFullScreen);
  }
  const cwd = (args.flags.get('cwd') as string | undefined) ?? process.cwd();
  // The bin may have asked git the first question already (io/git-early.ts): its answer is taken below.
  await earlyGitSettled();
  // Which OMC runs the hooks decides where its state is: both are found together.
  const json = args.flags.has('json');
  const { res, omc, redetect, rootFor, claudeEnv, gitAnswers } = resolveRootAndOmc({
    cwd,
    rootOverride: rootFlag(args),
    override: checkOmcVersionFlag(args.flags.get('omc-version') as string | undefined),
    // The monitor's first frame does not wait for a look at every process: its store looks right after (lookLater).
    claudesLater: !json,
  });
  const readonly = args.flags.has('readonly');
  // --json answers now; the monitor waits for a .omc that does not exist yet (and says where it looks).
  const interactive = process.stdout.isTTY && process.stdin.isTTY;
  if (!res.exists && (json || !interactive)) {
    const base = nestedSearchBase(res);
    const found = base ? nestedNotice(findNestedRoots(base, res.root), undefined, res.noticed) : null;
    if (found) res.notices.push(found);
    printErr(notFoundMessage(res) + '\n');
    return 2;
  }
  // Nested .omc roots (hooks started in a subdirectory): a notice, and --json lists them. Searched once: --json
  // asks now; the monitor in slices once it is live, or at once when O comes first (runTui).
  const searchBase = nestedSearchBase(res);
  const search = res.exists && searchBase ? new NestedRootsSearch(searchBase, res.root) : null;
  const nested = (): NestedSearch => search?.result() ?? NO_NESTED;
  const notify = args.flags.get('notify');
  if (typeof notify === 'string' && typeof parseChannels(notify) === 'string') {
    throw new UsageError(parseChannels(notify) as string);
  }
  if (json) {
    const notice = nestedNotice(nested(), undefined, res.noticed);
    if (notice) res.notices.unshift(notice);
    return runJson(res, readonly, omc, nested(), claudeEnv);
  }
  return runTui(res, {
    cwd,
    readonly,
    poll: args.flags.has('poll'),
    mouse: !args.flags.has('no-mouse'),
    omc,
    omcRedetect: redetect,
    rootFor,
    attention: { notify: args.flags.get('notify') as string | undefined, noTitle: args.flags.has('no-title') },
    nestedSearch: search,
    claudeEnv,
    gitAnswers,
    followsCwd: !args.flags.has('cwd') && rootFlag(args) === undefined,
  });
}

const isEntry = (() => {
  const arg = process.argv[1] ?? '';
  return /omc-top(-app)?(\.m?js)?$|cli\.tsx?$/.test(arg) || process.env.OMC_TOP_FORCE_MAIN === '1';
})();

// Every import (Yoga included) has been evaluated by now.
restoreFetch();

if (isEntry) {
  const argv = process.argv.slice(2);
  const command = commandOf(argv, SUBCOMMANDS);
  const json = asksJson(argv);
  // A failure outside main's promise ends as one inside it does. Not the monitor's (nor the fleet's): the full
  // screen installs its own, which gives the terminal back first.
  if (command !== 'the monitor') endUncaughtAsInternal(processSink, command, json, exitAfterFlush);
  main(argv).then(
    (code) => exitAfterFlush(code),
    (err: unknown) => {
      if (err instanceof UsageError) {
        printErr(`omc-top: ${err.message}\n${tryHelpLine(command)}\n`);
        process.exit(2);
      }
      // One line (and, asked for JSON, one JSON object on stdout), never a stack trace: internal-error.ts.
      reportInternalError(processSink, command, json, err);
      exitAfterFlush(1);
    },
  );
}
