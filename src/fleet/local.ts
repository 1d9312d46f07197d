/**
 * The local half of `omc-top --all`: one OmcStore per discovered root (the
 * same store a plain `omc-top` on that root runs, so Enter can show its panes
 * at once), a registry re-read every few seconds (new projects appear, the
 * machine's Claude session count stays true), and one fleet snapshot built
 * from every store's cells, coalesced to one rebuild per turn of the loop.
 */
import { configuredPrices } from '../store/claude/price-config.js';
import type { ModelPrice } from '../store/claude/prices.js';
import type { CancelRecordsSnapshot } from '../store/cancel/cancel-records.js';
import { findClaudeConfigDir, type ClaudeConfigDir } from '../store/claude/config-dir.js';
import type { LivenessProbe } from '../store/claude/process-status.js';
import { SharedRegistry } from '../store/claude/shared-registry.js';
import { systemTmuxNames, TmuxNames, type WindowLister } from '../store/claude/tmux-names.js';
import { SnapshotCell } from '../io/snapshot-cell.js';
import type { GitProbe } from '../io/git.js';
import { countDirectories, inotifyLimits, type InotifyLimits } from '../io/watch/inotify-limits.js';
import { detectOmcInstall } from '../store/omc-install.js';
import { resolveRootAndOmc, rootMovedWords, type RootLookCause } from '../store/omc-root.js';
import { OmcRecheckTicker } from '../store/omc-recheck.js';
import type { RootResolution } from '../store/root.js';
import { OmcStore } from '../store/store.js';
import { QuotaDomain, type QuotaSnapshot } from '../store/cost/quota-domain.js';
import { BgJobsReader } from '../store/claude/bg-jobs-reader.js';
import type { Clock } from '../store/types.js';
import { discoverRoots, rootStillThere, type FleetRoot } from './discover.js';
import type { ClaudeRootsMemo } from './claude-root.js';
import {
  byAttention,
  EMPTY_FLEET,
  groupNeedNote,
  sortGroups,
  type FleetGroup,
  type FleetRow,
  type FleetSnapshot,
} from './model.js';
import { needsBySession, needText, rowIdentity, rowOf, waitingClaudeRows } from '../feeds/row.js';
import type { NeedItem } from '../feeds/attention/needs.js';
import { AckFile } from '../feeds/attention/acks.js';
import { AttentionMonitor } from '../feeds/attention/monitor.js';
import { ownStateDir } from '../io/state-dir.js';
import {
  deltaSince,
  LEGACY_KEY,
  sessionKey,
  type SessionsDelta,
  type SessionsSnapshot,
  type SessionView,
} from '../store/sessions/model.js';
import type { ClaudeSnapshot } from '../store/claude/model.js';
import { PATCH_MAX } from '../store/sessions/sorted-views.js';
import type { AttentionView } from '../feeds/attention/view.js';
import { stateDir as permissionsStateDir } from '../store/permissions/protocol.js';
import { planWatches, type PlannedWatch } from './watch-plan.js';
import { problemWords, type FleetProblem } from './problem-words.js';
import { rememberProject } from './known-projects.js';

/**
 * How often roots are looked for again where no event says so ($OMC_STATE_DIR, ~/.omc; a registry change
 * rediscovers at once), and the machine's Claude session count is re-judged.
 */
export const REDISCOVER_MS = 3_000;

/** How long a root whose directory left the disk stays in the list, its group header saying so, before it leaves. */
export const GONE_SHOWN_MS = 10_000;

export interface LocalFleetOptions {
  env?: NodeJS.ProcessEnv;
  home?: string;
  readonly?: boolean;
  /** 'none' for tests that drive reads themselves. */
  watch?: 'auto' | 'poll' | 'none';
  clock?: Clock;
  /** Test seams: the inotify limits (default /proc), git, the liveness probe, tmux's window listing. */
  limits?: InotifyLimits;
  git?: GitProbe;
  probe?: LivenessProbe;
  tmux?: WindowLister;
  /** Claude Code's side of each store (tests point it at a scratch config dir). */
  claudeLive?: boolean;
  /** false: `--host` without `--all`, no local roots (the machine's Claude count is still shown). */
  local?: boolean;
  /**
   * Each store registers as a monitor that answers permission requests (`serve --all`, whose page answers them);
   * the fleet TUI does not (it has no inbox to answer from), so the hook leaves those prompts to Claude.
   */
  listenForAnswers?: boolean;
  /** How often every root's OMC version is looked at again (default OMC_RECHECK_MS; tests pass less). */
  omcRecheckMs?: number;
  /**
   * Another OMC judges a root now (a plugin update, its --plugin-dir Claude gone): the monitor's words for it
   * ("OMC 5.5.0 now (was 4.4.4): verdicts re-judged"), for the fleet's message line; and when the new release
   * keeps that root's state elsewhere, the monitor's words for the move ("state read from … now (was …)").
   */
  onOmcChange?: (root: FleetRoot, words: string) => void;
}

export interface LocalRoot {
  info: FleetRoot;
  store: OmcStore;
  plan: PlannedWatch;
  /** What needs the user in this root: its rows say it, and its panes (Enter) count it. */
  monitor: AttentionMonitor;
}

export class LocalFleet {
  readonly cell = new SnapshotCell<FleetSnapshot>(EMPTY_FLEET);
  private readonly roots = new Map<string, LocalRoot>();
  /** Each open root's subscriptions (its cells, its acknowledgements file, its monitor), ended when it closes. */
  private readonly offs = new Map<string, () => void>();
  /** Roots closed because their directory left the disk: shown as gone until `until`, then not at all. */
  private readonly gone = new Map<string, { info: FleetRoot; until: number }>();
  /** Stores of roots closed while the fleet runs, awaited by close(). */
  private readonly closing = new Set<Promise<void>>();
  private readonly config: ClaudeConfigDir;
  /** The one registry reader of every root's Claude domain, and of discovery. */
  private readonly registry: SharedRegistry;
  /** tmux's windows are the machine's: one listing names the registry's tmux fields for every root. */
  private readonly tmuxNames: TmuxNames;
  /** OMC's usage cache and wait daemon are the machine's too: one reader (one poll) for every root. */
  private readonly quota: QuotaDomain;
  /** So is Claude's jobs/ directory (every project's background jobs): one listing and one set of watches. */
  private readonly bgJobs: BgJobsReader;
  /**
   * What decides each project's OMC version is looked at again on one timer for the whole fleet, each round reading
   * the files the projects share (Claude's registry and settings) once: a plugin update re-judges every root.
   */
  private readonly omcTicker: OmcRecheckTicker;
  private unfollow: () => void = () => undefined;
  private offQuota: () => void = () => undefined;
  private readonly limits: InotifyLimits;
  private readonly resolved = new Map<string, RootResolution>();
  /** Each live Claude's own OMC_STATE_DIR, read once per process (fleet/claude-root.ts). */
  private readonly claudeStateDirs: ClaudeRootsMemo['stateDirs'] = new Map();
  private readonly groups = new Map<string, { mark: string; group: string; label: string }>();
  private liveClaude = 0;
  private problems: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private scheduled = false;
  private version = 0;
  private closed = false;
  /** The first discovery also looks at the fleet's history (discover.ts `history`); later ones need not (but see rejudged). */
  private historyLooked = false;
  /**
   * Each root's rows, sorted, with the snapshots they were built from: a change in one project rebuilds that
   * project's rows only, so its cost does not grow with the rest of the fleet. Rows are never mutated once built
   * (snapshots share them).
   */
  private readonly rowsByRoot = new Map<
    string,
    {
      sessions: SessionsSnapshot;
      claude: ClaudeSnapshot;
      view: AttentionView;
      records: CancelRecordsSnapshot;
      quota: QuotaSnapshot;
      minute: number;
      /** The prices the spend was computed at: new ones (the config file changed) rebuild the rows. */
      prices: Readonly<Record<string, ModelPrice>>;
      needs: ReadonlyMap<string, NeedItem>;
      rows: FleetRow[];
    }
  >();
  /** The local groups of the last snapshot, with the rows of each root they were built from. */
  private keptGroups = new Map<string, { group: FleetGroup; parts: FleetRow[][] }>();
  /** Extra groups from elsewhere (remote hosts), merged into every snapshot. */
  private extra: () => FleetGroup[] = () => [];

  constructor(private readonly opts: LocalFleetOptions = {}) {
    this.config = findClaudeConfigDir(opts.env);
    this.registry = new SharedRegistry(this.config, { probe: opts.probe });
    const env = opts.env ?? process.env;
    const clock = opts.clock ?? Date.now;
    this.tmuxNames = opts.tmux ? new TmuxNames(opts.tmux, clock) : systemTmuxNames(env, this.claudeLive(), clock);
    this.quota = new QuotaDomain({ env: opts.env, live: this.claudeLive() });
    this.bgJobs = new BgJobsReader({ config: this.config, live: this.claudeLive() });
    this.limits = opts.limits ?? inotifyLimits();
    this.omcTicker = new OmcRecheckTicker(opts.omcRecheckMs);
  }

  subscribe = (l: () => void) => this.cell.subscribe(l);
  getSnapshot = () => this.cell.getSnapshot();

  root(id: string): LocalRoot | undefined {
    return this.roots.get(id);
  }

  /** Every local root opened so far. */
  localRoots(): LocalRoot[] {
    return [...this.roots.values()];
  }

  /** Remote groups (or anything else) shown with the local ones; call `changed()` when they change. */
  setExtra(extra: () => FleetGroup[]): void {
    this.extra = extra;
    this.changed();
  }

  start(): void {
    // Read before any root opens: every root shows it from its first frame, as a project alone does.
    this.quota.scan();
    // A loop the plan's limit holds says so in its row: the rows follow the quota files.
    this.offQuota = this.quota.subscribe(() => this.changed());
    this.bgJobs.read(null);
    this.discover();
    if (this.opts.watch !== 'none') {
      // A new Claude session is a new root at once; the timer is for the roots no registry entry names.
      this.unfollow = this.registry.follow({ registry: () => this.discover(), tick: () => undefined });
      this.timer = setInterval(() => this.discover(), REDISCOVER_MS);
      this.timer.unref?.();
    }
  }

  /** Finds roots (new ones get a store) and re-counts the machine's Claude sessions. */
  discover(): void {
    if (this.closed) return;
    const found = discoverRoots({
      env: this.opts.env,
      home: this.opts.home,
      config: this.config,
      git: this.opts.git,
      // Tests that drive reads themselves (no watch) see the registry as it is at each call.
      ...(this.opts.watch === 'none'
        ? { probe: this.opts.probe }
        : { probe: this.registry.probe, registry: this.registry.current() }),
      cache: this.resolved,
      stateDirs: this.claudeStateDirs,
      groups: this.groups,
      // By the project's own OMC: 4.x and 5.5 place `.omc` differently (OMC_STATE_DIR, markers, outside git). From
      // its files only, as the fleet looks again after an upgrade (no registry pass per directory resolved).
      resolve: (cwd, env) =>
        resolveRootAndOmc({ cwd, env, home: this.opts.home, git: this.opts.git, processes: false }).res,
      // And again after a plugin update re-judged roots (omcChanged): a root found from the history is then named
      // again by the new release's rules, or closed (dropLeft), as one found from a live session is.
      ...((this.historyLooked && this.rejudged.size === 0) || this.opts.local === false
        ? {}
        : { history: { now: this.now() } }),
    });
    this.historyLooked = true;
    // An idle machine re-reads the registry every few seconds: rebuild only when something it says changed.
    const same =
      found.liveClaude.length === this.liveClaude &&
      found.problems.length === this.problems.length &&
      found.problems.every((p, i) => p === this.problems[i]);
    this.liveClaude = found.liveClaude.length;
    this.problems = found.problems;
    const moved =
      this.opts.local === false ? false : [this.followMoves(found.roots), this.dropLeft(found.roots)].includes(true);
    const fresh =
      this.opts.local === false ? [] : found.roots.filter((r) => !this.roots.has(r.id) && !this.toOpen.has(r.id));
    if (fresh.length > 0) {
      const planned = [...this.roots.values(), ...this.toOpen.values()].reduce(
        (n, r) => n + (r.plan.watch === 'auto' ? r.plan.directories : 0),
        0,
      );
      const plan = planWatches(
        fresh.map((r) => ({ id: r.id, live: r.sources.includes('claude') })),
        this.limits,
        (id) => countDirectories(fresh.find((r) => r.id === id)!.root, 100_000),
        this.opts.watch === 'poll',
        planned,
      );
      for (const info of fresh) this.queueOpen(info, plan.get(info.id)!);
    }
    if (!same || moved || fresh.length > 0 || this.cell.getSnapshot().version === 0) this.changed();
  }

  /**
   * Roots whose directory left their path since they were opened. One found again elsewhere with the same identity
   * (renamed: `mv gamma gamma-renamed` under $OMC_STATE_DIR) is opened again there, under its new name; any other
   * is closed and shown as gone for GONE_SHOWN_MS. A root still on disk that discovery no longer names (its Claude
   * session ended) stays, as before. Also ends the gone marks whose time is up. Whether anything changed.
   */
  private followMoves(found: readonly FleetRoot[]): boolean {
    const now = this.now();
    let changed = false;
    for (const [id, g] of this.gone)
      if (g.until <= now) {
        this.gone.delete(id);
        changed = true;
      }
    const byId = new Map(found.map((r) => [r.id, r]));
    for (const [id, r] of [...this.roots, ...this.toOpen]) {
      if (rootStillThere(r.info.root, id) !== 'gone') continue;
      changed = true;
      this.shut(id);
      const moved = byId.get(id);
      // The same directory (its watch plan holds); its old path may already be another root's, found fresh below.
      if (moved) this.queueOpen(moved, r.plan);
      else this.gone.set(id, { info: r.info, until: now + GONE_SHOWN_MS });
    }
    return changed;
  }

  /**
   * Roots whose OMC changed (a plugin update) were found by the old release's rules: the directories that led to
   * them are resolved again at the next discovery, and a root the new rules no longer name is closed there (its
   * state is read where the new release keeps it, as a lone monitor moves: store/omc-root.ts followRoot).
   */
  private readonly rejudged = new Set<string>();
  /** The directories that led to each re-judged root: where they lead now is where its state went (dropLeft). */
  private readonly rejudgedFrom = new Map<string, string[]>();

  /** Why each re-judged root was (the words of its move: rootMovedWords). */
  private readonly rejudgedWhy = new Map<string, RootLookCause>();

  private omcChanged(id: string, root: string, cause: RootLookCause = 'omc'): void {
    if (!this.rejudgedWhy.has(id) || cause === 'state-dir-setting') this.rejudgedWhy.set(id, cause);
    const from: string[] = [];
    for (const [cwd, res] of this.resolved)
      if (res.root === root) {
        this.resolved.delete(cwd);
        from.push(cwd);
      }
    this.rejudged.add(id);
    if (from.length > 0) this.rejudgedFrom.set(id, [...(this.rejudgedFrom.get(id) ?? []), ...from]);
    // After the store's own re-judging (this runs inside it).
    setImmediate(() => this.discover());
  }

  /** Closes the re-judged roots no source names any more. Whether any was. */
  private dropLeft(found: readonly FleetRoot[]): boolean {
    if (this.rejudged.size === 0) return false;
    const named = new Set(found.map((r) => r.id));
    let changed = false;
    for (const id of this.rejudged)
      if (!named.has(id) && (this.roots.has(id) || this.toOpen.has(id))) {
        const info = (this.roots.get(id) ?? this.toOpen.get(id))!.info;
        this.shut(id);
        changed = true;
        // Said as a lone monitor says it when it follows the move (store/omc-root.ts rootMovedWords).
        const now = (this.rejudgedFrom.get(id) ?? []).map((cwd) => this.resolved.get(cwd)).find((r) => r);
        if (now && now.root !== info.root)
          this.opts.onOmcChange?.(info, rootMovedWords(now, info.root, this.rejudgedWhy.get(id)));
      }
    this.rejudged.clear();
    this.rejudgedFrom.clear();
    this.rejudgedWhy.clear();
    return changed;
  }

  /** Closes a root (or drops it before it opened): its rows leave the next snapshot. */
  private shut(id: string): void {
    this.toOpen.delete(id);
    const r = this.roots.get(id);
    if (!r) return;
    this.roots.delete(id);
    this.rowsByRoot.delete(id);
    this.offs.get(id)?.();
    this.offs.delete(id);
    const closed: Promise<void> = r.store
      .close()
      .catch(() => undefined)
      .finally(() => this.closing.delete(closed));
    this.closing.add(closed);
  }

  private now(): number {
    return this.opts.clock?.() ?? Date.now();
  }

  /**
   * Roots found and not opened yet: live, one is opened per turn of the event loop, so the first roots' rows are
   * drawn (and their watches walk) while the rest are still opening, and keys are never held up for all of them.
   */
  private readonly toOpen = new Map<string, { info: FleetRoot; plan: PlannedWatch }>();
  private opening: NodeJS.Immediate | null = null;

  private queueOpen(info: FleetRoot, plan: PlannedWatch): void {
    if (this.opts.watch === 'none') return this.open(info, plan); // tests read synchronously
    this.toOpen.set(info.id, { info, plan });
    const next = () => {
      this.opening = null;
      if (this.closed) return;
      const first = this.toOpen.values().next();
      if (first.done) return;
      this.toOpen.delete(first.value.info.id);
      this.open(first.value.info, first.value.plan);
      this.changed();
      if (this.toOpen.size > 0) this.opening = setImmediate(next);
    };
    this.opening ??= setImmediate(next);
  }

  private open(info: FleetRoot, plan: PlannedWatch): void {
    const claudeLive = this.claudeLive();
    const env = this.opts.env ?? process.env;
    const store = new OmcStore({
      root: info.root,
      projectDir: info.projectDir,
      rootRule: info.rule,
      readonly: this.opts.readonly,
      clock: this.opts.clock,
      watch: this.opts.watch === 'none' ? 'none' : plan.watch,
      // Over the watch budget: the store's own words (its panes' problem line) say so, not `--poll`.
      pollWhy: plan.watch === 'poll' && !plan.chosen ? (plan.why ?? undefined) : undefined,
      omc: detectOmcInstall({ env, projectDir: info.projectDir }),
      // The files only, as a lone monitor looks again (omc-root.ts's redetect): no process's command line per tick
      // (the processes only once the one whose --plugin-dir decided is gone).
      omcRedetect: (reads, processes = false) =>
        detectOmcInstall({ env, projectDir: info.projectDir, processes, reads }),
      omcRecheckTicker: this.omcTicker,
      claude: {
        live: claudeLive,
        env: this.opts.env,
        registry: claudeLive ? this.registry : undefined,
        tmuxNames: this.tmuxNames,
        bgJobs: this.bgJobs,
      },
      sharedQuota: this.quota,
      answers: { stateDir: permissionsStateDir(this.opts.env ?? process.env), listen: this.opts.listenForAnswers },
    });
    const acks = new AckFile(ownStateDir(this.opts.env ?? process.env, this.opts.home), info.root);
    const monitor = new AttentionMonitor(store, { acks });
    this.roots.set(info.id, { info, store, plan, monitor });
    this.gone.delete(info.id);
    const on = () => this.changed();
    const offs = [
      store.sessions.subscribe(on),
      store.claude.subscribe(on),
      // omc-top's cancels of the root (any process's): a row's word while one is in flight.
      store.cancelRecords.subscribe(on),
      store.status.subscribe(on),
      // Its problem lines: the group header counts them.
      store.problems.subscribe(on),
      monitor.view.subscribe(on),
      store.onOmcChange((words) => {
        this.omcChanged(info.id, info.root);
        if (words) this.opts.onOmcChange?.(info, words);
      }),
      // OMC_STATE_DIR changed in the project's Claude settings: its directories are resolved again, as after an upgrade.
      store.onStateDirSetting(() => this.omcChanged(info.id, info.root, 'state-dir-setting')),
      acks.watch(),
      () => monitor.dispose(),
    ];
    this.offs.set(info.id, () => offs.forEach((off) => off()));
    if (this.opts.watch === 'none') store.start();
    else store.start({ progressive: true });
    this.remember(info);
  }

  /**
   * A root found from a Claude's cwd is remembered in omc-top's state directory (known-projects.ts), so a fleet
   * started after that Claude exited finds it too. --readonly writes nothing; a state directory that cannot be
   * written changes nothing on screen (the store's own state-directory check says why, in doctor and the problems).
   */
  private remember(info: FleetRoot): void {
    if (this.opts.readonly || info.cwd === undefined) return;
    const done: Promise<void> = rememberProject(
      ownStateDir(this.opts.env ?? process.env, this.opts.home),
      info.cwd,
      this.now(),
    )
      .catch(() => undefined)
      .finally(() => this.closing.delete(done));
    this.closing.add(done);
  }

  private claudeLive(): boolean {
    return this.opts.claudeLive ?? this.opts.watch !== 'none';
  }

  /** Rebuilds the snapshot once per turn of the event loop, however many cells changed. */
  changed(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.closed) this.cell.set(this.build());
    });
  }

  /** The snapshot now (tests call it directly after a synchronous start). */
  build(): FleetSnapshot {
    const groups = new Map<
      string,
      FleetGroup & { rootCount: number; parts: FleetRow[][]; gone?: string[]; problems: FleetProblem[] }
    >();
    const now = this.now();
    let ready = this.toOpen.size === 0;
    const groupOf = (info: FleetRoot) => {
      let g = groups.get(info.group);
      if (!g) {
        g = {
          key: `local|${info.group}`,
          label: info.groupLabel,
          host: null,
          notes: [],
          tone: 'normal',
          detail: null,
          rows: [],
          needsYou: 0,
          rootCount: 0,
          parts: [],
          problems: [],
        };
        groups.set(info.group, g);
      }
      return g;
    };
    for (const [id, r] of this.roots) {
      const status = r.store.status.getSnapshot();
      if (status.watchMode === 'starting') ready = false;
      const g = groupOf(r.info);
      g.rootCount++;
      const why = r.plan.why ?? (status.watchMode === 'polling' ? `polling: ${status.watchDetail}` : null);
      if (why && !g.notes.includes(why)) {
        g.notes.push(why);
        // Polling the user asked for is a fact in the header; one omc-top fell back to is a warning.
        if (!r.plan.chosen) g.tone = 'warn';
      }
      // What needs the user in this root but in no session (a gate, a directory above the sessions omc-top may not
      // list): no row carries it, so the group's header says it, in the rows' words. It counts as the monitor's does.
      const view = r.monitor.view.getSnapshot();
      g.needsYou += view.count;
      for (const n of view.open) {
        const note = groupNeedNote(n);
        if (note === null || g.notes.includes(note)) continue;
        g.notes.push(note);
        if (g.tone === 'normal') g.tone = 'warn';
      }
      // The project's own problem lines (a state file not JSON, one omc-top may not read): its monitor shows them
      // under its header, so its group says how many and the first, or the fleet would hide them.
      for (const p of r.store.problems.getSnapshot()) g.problems.push({ root: r.info.label, ...p });
      g.parts.push(this.rowsOf(id, r, now));
    }
    // A gone root's group says so (after the group's own notes), unless another directory is at its path now.
    const open = new Set([...this.roots.values(), ...this.toOpen.values()].map((r) => r.info.root));
    for (const { info } of this.gone.values()) {
      if (open.has(info.root)) continue;
      const g = groupOf(info);
      g.gone = [...(g.gone ?? []), info.label];
    }
    const all: FleetGroup[] = [];
    const kept = new Map<string, { group: FleetGroup; parts: FleetRow[][] }>();
    for (const g of groups.values()) {
      if (g.rootCount > 1) g.notes.unshift(`${g.rootCount} worktrees`);
      const said = problemWords(g.problems, g.rootCount > 1);
      if (said) {
        g.notes.push(said.note);
        g.detail = said.detail;
        g.tone = said.tone === 'error' || g.tone === 'error' ? 'error' : 'warn';
      }
      for (const label of g.gone ?? []) {
        g.notes.push(g.rootCount > 0 ? `${label} ${GONE_NOTE}` : GONE_NOTE);
        g.tone = 'error';
      }
      // A group whose roots kept their rows and whose header says the same is the same object: the view keeps its
      // lines, so a change in one project costs that project's group, not a pass over the fleet's rows.
      const prev = this.keptGroups.get(g.key);
      if (
        prev &&
        prev.parts.length === g.parts.length &&
        prev.parts.every((p, i) => p === g.parts[i]) &&
        prev.group.label === g.label &&
        prev.group.tone === g.tone &&
        prev.group.needsYou === g.needsYou &&
        prev.group.detail === g.detail &&
        prev.group.notes.length === g.notes.length &&
        prev.group.notes.every((n, i) => n === g.notes[i])
      ) {
        all.push(prev.group);
        kept.set(g.key, prev);
        continue;
      }
      // One root: its rows as kept (already sorted); worktrees of one project: merged and sorted again.
      g.rows = g.parts.length === 1 ? (g.parts[0] as FleetRow[]) : g.parts.flat().sort(byAttention);
      const { rootCount: _n, parts, gone: _gone, problems: _p, ...group } = g;
      all.push(group);
      kept.set(g.key, { group, parts });
    }
    this.keptGroups = kept;
    all.push(...this.extra());
    return {
      version: ++this.version,
      groups: sortGroups(all),
      localClaude: this.liveClaude,
      local: this.opts.local !== false,
      ...(this.opts.local !== false ? { quota: this.quota.getSnapshot() } : {}),
      roots: this.roots.size + this.toOpen.size,
      problems: this.problems,
      ready,
    };
  }

  /** A root's rows, sorted: rebuilt only when its sessions or Claude snapshot is a new one. */
  private rowsOf(id: string, r: LocalRoot, now: number): FleetRow[] {
    const sessions = r.store.sessions.getSnapshot();
    const claudeSnap = r.store.claude.getSnapshot();
    // A row's spend (today's, the burn rate) moves with the clock: rows are rebuilt in a new minute too.
    const minute = Math.floor(now / 60_000);
    const view = r.monitor.view.getSnapshot();
    const records = r.store.cancelRecords.getSnapshot();
    // OMC's quota files: a loop the plan's limit holds says so (its reset passes on a minute's rebuild).
    const quota = r.store.quota.getSnapshot();
    const prices = configuredPrices();
    const kept = this.rowsByRoot.get(id);
    if (
      kept &&
      kept.prices === prices &&
      kept.sessions === sessions &&
      kept.claude === claudeSnap &&
      kept.view === view &&
      kept.records === records &&
      kept.quota === quota &&
      kept.minute === minute
    )
      return kept.rows;
    const claude = claudeSnap.bySession;
    const needs = needsBySession(view.open);
    const build = (s: SessionView): FleetRow => {
      const row = rowOf(s, claude.get(s.id), now, needs.get(sessionKey(s)), records.records.get(sessionKey(s)), quota);
      return { ...row, key: `local|${id}|${rowIdentity(row)}`, host: null, rootId: id, rootLabel: r.info.label };
    };
    // A Claude the model counts with no session row of its own (a plain `claude` waiting on a permission prompt):
    // its own row, so the fleet's rows read the same model as the project's monitor.
    const waiting = waitingClaudeRows(view.open, sessions.sessions, claude);
    const extra = waiting.map((row): FleetRow => ({
      ...row,
      key: `local|${id}|${rowIdentity(row)}`,
      host: null,
      rootId: id,
      rootLabel: r.info.label,
    }));
    // The usual change (a loop's next iteration) is one session: its row alone is built again, the others kept.
    const patched =
      extra.length === 0 &&
      !kept?.rows.some((x) => x.rank === -1) &&
      kept &&
      kept.prices === prices &&
      kept.claude === claudeSnap &&
      kept.records === records &&
      kept.quota === quota &&
      kept.minute === minute &&
      sameNeeds(kept.needs, needs)
        ? patchRows(kept.rows, deltaSince(kept.sessions, sessions), build)
        : null;
    const rows = patched ?? [...extra, ...sessions.sessions.map(build)];
    rows.sort(byAttention);
    this.rowsByRoot.set(id, { sessions, claude: claudeSnap, view, records, quota, minute, prices, needs, rows });
    return rows;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.opening) clearImmediate(this.opening);
    this.toOpen.clear();
    this.offs.forEach((off) => off());
    this.offs.clear();
    this.unfollow();
    this.offQuota();
    await Promise.all([...this.roots.values()].map((r) => r.store.close()));
    await Promise.all([...this.closing]);
    this.registry.close();
    this.quota.dispose();
    this.bgJobs.dispose();
  }
}

/** A gone root's group header says this: the directory is no longer where it was opened. */
export const GONE_NOTE = 'gone: removed or renamed';

/**
 * A root's previous rows with the rows of the sessions in `delta` built again (`build`) and those of the sessions
 * gone dropped; unsorted. null when there is no delta from the snapshot the rows were built from, or it is large.
 */
function patchRows(
  prev: readonly FleetRow[],
  delta: SessionsDelta | null,
  build: (s: SessionView) => FleetRow,
): FleetRow[] | null {
  if (!delta || delta.changed.length + delta.removed.length > PATCH_MAX) return null;
  if (delta.changed.length + delta.removed.length === 0) return [...prev];
  const redo = new Set<string>();
  for (const s of delta.changed) redo.add(sessionKey(s));
  for (const s of delta.removed) redo.add(sessionKey(s));
  const rows = prev.filter((row) => !redo.has(row.sessionless ? LEGACY_KEY : row.session));
  for (const s of delta.changed) rows.push(build(s));
  return rows;
}

/** Whether every session's need reads the same in both (a row shows only its need's text). */
function sameNeeds(a: ReadonlyMap<string, NeedItem>, b: ReadonlyMap<string, NeedItem>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, n] of a) if (needText(b.get(key)) !== needText(n)) return false;
  return true;
}
