/**
 * The one object the UI talks to. `new OmcStore(opts)` builds every slice of
 * .omc as a typed field (sessions, notepad, memory, wiki, teams), the cancel
 * tracker, the tree watcher that feeds the domains, a status cell (watch mode)
 * and the aggregated problem list. The set of domains is fixed: there is no
 * lookup by name and no "not loaded" case, so the TUI, `--json`, the
 * subcommands and the tests all read exactly the same things.
 * Free of React; the UI subscribes with useSyncExternalStore.
 */
import path from 'node:path';
import { CancelTracker } from './cancel/tracker.js';
import { findClaudeConfigDir } from './claude/config-dir.js';
import { ClaudeConfigLook, type ClaudeConfigLookOptions } from './claude/config-look.js';
import { envWithConfig } from './claude/project-config.js';
import { ClaudeDomain, type HeldPrompt } from './claude/domain.js';
import { NoteTracker } from './claude/notes.js';
import { givenRootStateDomain } from './root-state.js';
import type { SharedRegistry } from './claude/shared-registry.js';
import type { TmuxNames } from './claude/tmux-names.js';
import { GraphDomain } from './graph/domain.js';
import { PermissionsDomain } from './permissions/domain.js';
import type { PermissionsSnapshot } from './permissions/model.js';
import { stateDir } from './permissions/protocol.js';
import { CancelRecordFile } from './cancel/cancel-records.js';
import { RecordFollower } from './cancel/follow.js';
import { cancelBooks } from './cancel/pause-support.js';
import { ownStateDir } from '../io/state-dir.js';
import { StateDirDomain } from './state-dir/domain.js';
import { agentWatchOf } from './claude/agent-watch.js';
import { SnapshotCell } from '../io/snapshot-cell.js';
import { MemoryDomain, type MemoryDomainOptions } from './memory/domain.js';
import { NotepadDomain, type NotepadDomainOptions } from './notepad/domain.js';
import { PrdDomain } from './prd/domain.js';
import type { PrdRules } from './prd/count.js';
import { OMC_RECHECK_MS, OmcRecheck, type OmcRecheckTicker } from './omc-recheck.js';
import { HookEnv, type HookSetting, type LiveClaude } from './claude/hook-env.js';
import { HardMaxConfig } from './hard-max.js';
import { StopHookSwitch } from './stop-hook-switch.js';
import type { ClaudeSnapshot } from './claude/model.js';
import { RunsDomain, type RunsDomainOptions } from './runs/domain.js';
import { type OmcInstall, type OmcReadMemo } from './omc-install.js';
import { omcChangeLine } from './omc-label.js';
import { SessionsDomain } from './sessions/domain.js';
import { watchOwnFile } from '../io/watch/own-file.js';
import { TeamsDomain, type TeamsDomainOptions } from './teams/domain.js';
import { resolveHeartbeatStaleMs } from './teams/omc-team-rules.js';
import {
  startTreeWatcher,
  type RootAbsence,
  type TreeWatcher,
  type TreeWatcherOptions,
  type WatchMode,
} from '../io/watch/tree-watcher.js';
import type { Clock, Domain, Problem, WatchEvent } from './types.js';
import { WikiDomain } from './wiki/domain.js';
import { BgJobsDomain } from './claude/bg-jobs.js';
import type { BgJobsReader } from './claude/bg-jobs-reader.js';
import { QuotaDomain, type QuotaDomainOptions } from './cost/quota-domain.js';
import { borrowed } from './borrowed-domain.js';
import { UltragoalDomain } from './ultragoal/domain.js';
import { groupDigits } from '../io/group-digits.js';
import type { GitProbe } from '../io/git.js';
import { watchClockJumps } from './clock-jumps.js';
import { KeptDrafts } from './drafts/kept-drafts.js';

/**
 * The progressive start's read slices (ms). The first one is the first frame's rows: it reads the screenful the
 * sessions domain always lists first (FIRST_STEP_MIN_ROWS, 64 rows fill a 200x60 terminal) and no more, since each
 * row read and published beyond the screen delays that frame (15 ms of reading and publishing more rows on a
 * quiet machine) and the next slices read the rest.
 */
const FIRST_SLICE_MS = 0;
const SLICE_MS = 40;

export interface StoreStatus {
  watchMode: WatchMode;
  watchDetail: string;
  /**
   * What stands at the root's path instead of the `.omc` directory (moved away or removed, a file in its place),
   * null or absent while it is there. Everything read from it is out of sight meanwhile, not ended: the attention
   * monitor holds its facts until the root is back (feeds/attention/monitor.ts), and `watchDetail` is the one line
   * that says it.
   */
  rootAbsence?: RootAbsence | null;
  /** Polling because the user asked (`--poll`), not for want of watches: see pollingByChoice. */
  pollChosen?: boolean;
  /**
   * While the progressive first read is under way (the watcher may already be live): what is being read,
   * e.g. "reading 1,234/2,000". Absent or null once everything has been read once.
   */
  reading?: string | null;
}

/** Everything read once and the watches up (or none wanted): what `live` in the footer means. */
export function isReadAndWatched(status: StoreStatus): boolean {
  return !status.reading && status.watchMode !== 'starting';
}

export interface OmcStoreOptions {
  root: string;
  /**
   * How git is asked where the project's repository top is (for its Claude settings, claude/hook-env.ts): the
   * start's own answers when it has them (omc-root.ts `gitAnswers`); else git is run.
   */
  git?: GitProbe;
  /** Project directory (git top-level or cwd), for layouts that live beside the project (4.x team runtime). */
  projectDir?: string;
  /** How the root was found (OmcStore only records it). */
  rootRule?: string;
  readonly?: boolean;
  /**
   * Whether a watching store settles the cancels recorded on its root that nobody follows any more (follow.ts): it
   * writes that verdict into omc-top's own cancel record. Default: unless `readonly` (the user's --readonly writes
   * nothing); `watch --json`, whose store is read-only for OMC's files, follows them all the same.
   */
  followCancels?: boolean;
  clock?: Clock;
  /**
   * Seam for tests: monotonic time (default performance.now()). The store compares it with `clock` once a
   * second while watching; the wall clock moving apart from it (a suspend, an NTP step) re-judges every
   * time-based verdict at once (clock-jumps.ts).
   */
  monotonic?: Clock;
  watch?: 'auto' | 'poll' | 'none';
  /** With `watch: 'poll'` not asked for by the user (the fleet over its watch budget): why, in words. */
  pollWhy?: string;
  /** Seams for tests: fixture pids belong to another host, poll cadences, heartbeat staleness. */
  teams?: Pick<TeamsDomainOptions, 'pidAlive' | 'heartbeatStaleMs' | 'projectPollMs' | 'pidRecheckMs'>;
  /** Seam for tests: replaces chokidar's watch() (to hold its `ready`, say). */
  watchImpl?: TreeWatcherOptions['watchImpl'];
  /** Seam for tests: publish every step of the sliced first read (stepPublishMs: 0). */
  sessions?: { stepPublishMs?: number; firstStepMinRows?: number };
  /** Seams for tests: how long writers wait for OMC's lock. */
  notepad?: Pick<NotepadDomainOptions, 'lockTimeoutMs'>;
  memory?: Pick<MemoryDomainOptions, 'lockTimeoutMs'>;
  /**
   * Claude Code's side (registry, transcripts). `live: false` for one-shot reads (--json): no watches
   * or timers of its own; `env` picks the config dir (tests point it at a scratch CLAUDE_CONFIG_DIR); `registry`:
   * the registry reader the stores of a fleet share (one watch, one liveness tick for all of them); `tmuxNames`:
   * their one tmux window listing; `bgJobs`: their one reader of the background jobs' directory.
   */
  claude?: {
    live?: boolean;
    env?: NodeJS.ProcessEnv;
    /**
     * The full-screen app: the start did not look at the project's Claudes (omc-root.ts `claudesLater`), so `env`'s
     * directory is only a first guess. The look (config-look.ts) is a slice of the first read after the first frame,
     * and until it the Claude side reads and shows nothing (no status that the directory chosen would take back).
     */
    lookLater?: boolean;
    /** Seam for tests: how the look chooses the directory (default projectClaudeConfig, from the live Claudes). */
    choose?: ClaudeConfigLookOptions['choose'];
    transcripts?: boolean;
    registry?: SharedRegistry;
    tmuxNames?: TmuxNames;
    bgJobs?: BgJobsReader;
  };
  /** Run history: where OMC_STALE_RUN_HOURS / OMC_BUDGET_ENFORCE are read (tests pass their own). */
  runs?: Omit<RunsDomainOptions, 'root' | 'clock'>;
  /** Which OMC runs the hooks (detectOmcInstall): its rules decide the session statuses. */
  omc?: OmcInstall;
  /**
   * The same finding made again (resolveRootAndOmc's `redetect`): a watching store looks again on a bounded timer
   * (omc-recheck.ts) and re-judges every session when another OMC runs the hooks. Unset: found once.
   */
  omcRedetect?: (reads?: OmcReadMemo, processes?: boolean) => OmcInstall;
  /** How often it looks again (default OMC_RECHECK_MS; tests pass less). */
  omcRecheckMs?: number;
  /** A process watching many projects (the fleet) looks on its one timer's ticks instead (omcRecheckMs unused). */
  omcRecheckTicker?: OmcRecheckTicker;
  /**
   * The permission bridge (docs/answering.md): where omc-top's state directory is (default $XDG_STATE_HOME/omc-top),
   * whether this store registers as a monitor that answers (`listen`: the full-screen app, not --readonly), and
   * whether it follows the requests live (default: when watching).
   */
  answers?: { stateDir?: string; listen?: boolean; live?: boolean };
  /**
   * omc-top's own state directory, where the record of its cancels on this root is kept beside the
   * acknowledgements (default $XDG_STATE_HOME/omc-top): every omc-top process reads the same one.
   */
  stateDir?: string;
  /**
   * The user's home: OMC's Stop hooks fall back to a session's `~/.omc/state` copies, so the verdicts
   * read them there. Unset: not read (tests never see a developer's own ~/.omc).
   */
  home?: string | null;
  /** The quota files (OMC's usage cache, its wait daemon): test seams for the pid probe. */
  quota?: Pick<QuotaDomainOptions, 'pidAlive'>;
  /**
   * The quota domain the stores of a fleet share (those files are the machine's): its owner starts and disposes
   * it; this store shows it and lists its problems. `quota` is then not used.
   */
  sharedQuota?: QuotaDomain;
  /**
   * Problems with omc-top's own files (its config file, as loaded at start): listed with those of the tree, so every
   * surface that lists problems (the problem lines, the `!` list, --json) says them.
   */
  ownProblems?: readonly Problem[];
}

/** A domain of no files: problems known before the store starts (omc-top's own config file), listed as they are. */
function fixedProblems(list: readonly Problem[]): Domain {
  return { name: 'omc-top files', wants: () => false, scan() {}, refresh() {}, problems: () => list };
}

/** How often Claude's settings are read again for OMC's variables (as often as the OMC install is looked for). */
const HOOK_ENV_RECHECK_MS = OMC_RECHECK_MS;

/** The Claude processes of this root's sessions still running, as the Claude side judged them last. */
function liveClaudesOf(snap: ClaudeSnapshot): LiveClaude[] {
  const out: LiveClaude[] = [];
  for (const v of snap.bySession.values()) {
    const p = v.process;
    if (p && p.status !== 'gone' && p.status !== 'exited' && !p.elsewhere)
      out.push({ pid: p.pid, startedAt: p.startedAt, procStart: p.procStart });
  }
  return out;
}

/** The prompts the permission hook holds now (its process still waiting on omc-top), by the Claude that asked. */
function heldPromptsOf(snap: PermissionsSnapshot): HeldPrompt[] {
  const out: HeldPrompt[] = [];
  for (const r of snap.requests)
    if (r.hookAlive && r.claudePid !== null)
      out.push({ pid: r.claudePid, sessionId: r.sessionId, sinceMs: r.createdMs });
  return out;
}

/** The sessions of the run history (newest first, each once): their transcripts give ended runs a cost. */
function historySessionIds(runs: readonly { sessionId: string | null }[]): string[] {
  const out = new Set<string>();
  for (const r of runs)
    if (r.sessionId !== null && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(r.sessionId)) out.add(r.sessionId);
  return [...out];
}

/**
 * OMC_STATE_DIR as a settings file of Claude's gives it to the hooks, with the file (the root's rule names it), or
 * '' when no settings file sets it: an environment's value is the one the store was placed by, and cannot change.
 */
const stateDirSettingKey = (s: HookSetting): string => (s.fromSettings ? `${s.source}\u0000${s.value ?? ''}` : '');

/** How ralph's PRD stories count under an OMC's book. */
const prdRulesOf = (i: OmcInstall): PrdRules => (i.rules === '4.4.4' ? '4.x' : '5.5');

export class OmcStore {
  readonly root: string;
  /** The user's home whose `~/.omc` OMC's Stop hooks fall back to (null: not read, as in tests). */
  readonly home: string | null;
  readonly projectDir: string | null;
  readonly rootRule: string;
  readonly readonly: boolean;
  /** Which OMC runs the hooks, as last found (null: not given, as in tests); `onOmcChange` says when it moves. */
  get omc(): OmcInstall | null {
    return this.omcGiven ? this.sessions.omc : null;
  }
  private readonly omcGiven: boolean;
  private readonly omcRecheck: OmcRecheck | null;
  private readonly omcListeners = new Set<(words: string | null, next: OmcInstall) => void>();
  private readonly stateDirListeners = new Set<() => void>();
  /** OMC_STATE_DIR as Claude's settings give the hooks, as last looked at (stateDirSettingKey). */
  private stateDirSetting: string;
  readonly clock: Clock;
  readonly sessions: SessionsDomain;
  readonly notepad: NotepadDomain;
  readonly memory: MemoryDomain;
  readonly wiki: WikiDomain;
  /** Reads the sessions domain's parse of the team mode files: built after it, refreshed after it. */
  readonly teams: TeamsDomain;
  /** Follows every cancel omc-top made until it is proven (fed by the sessions domain). */
  readonly cancels: CancelTracker;
  /** The cancels any omc-top made on this root (omc-top's state directory): what "cancel did not take" reads. */
  readonly cancelRecords: CancelRecordFile;
  private stopRecordWatch: (() => void) | null = null;
  /** The watch of `~/.omc/state` (the hooks' fallback copies), while watching with a home. */
  private stopHomeWatch: (() => void) | null = null;
  /** Follows a recorded cancel no process here made to its settlement, and records it (follow.ts). */
  private readonly recordFollower: RecordFollower;
  private stopFollowWait: (() => void) | null = null;
  private readonly followCancels: boolean;
  /** The Claude Code process and transcript behind each session (joined by session id). */
  readonly claude: ClaudeDomain;
  /** Notes omc-top sent to Claude sessions, followed until their transcripts show them. */
  readonly notes: NoteTracker;
  /** Ralph's PRD story progress per session, counted as the running OMC version counts it. */
  readonly prd: PrdDomain;
  /** Run history: OMC 5.6's run ledger and the ended-session summaries. */
  readonly runs: RunsDomain;
  /** OMC's variables as its hooks see them (claude/hook-env.ts), read again every HOOK_ENV_RECHECK_MS while watching. */
  readonly hookEnv: HookEnv;
  /** OMC 5.5.0 graph runs: their human gates and progress (graph-runs/). */
  readonly graph: GraphDomain;
  /** Permission requests the hook hands to omc-top (omc-top's own state directory). */
  readonly permissions: PermissionsDomain;
  /** Whether omc-top's own state directory can keep its files (every surface says it when not). */
  readonly stateDir: StateDirDomain;
  /** Editor drafts kept when omc-top was ended without asking (a hang-up), offered back in the same editor. */
  readonly drafts: KeptDrafts;
  /** Ultragoal plans (`ultragoal/goals.json`, `ultragoal/plans/<id>/`): goals as progress. */
  readonly ultragoal: UltragoalDomain;
  /** Claude Code's background jobs (`<config>/jobs/<id>/state.json`) of this project. */
  readonly bgJobs: BgJobsDomain;
  /** The plan quota and the rate-limit wait daemon, from OMC's files outside the root. */
  readonly quota: QuotaDomain;
  readonly status = new SnapshotCell<StoreStatus>({ watchMode: 'starting', watchDetail: 'starting' });
  /** Every domain's problems, one list, kept current. */
  readonly problems = new SnapshotCell<readonly Problem[]>([]);
  /**
   * Scan, refresh, problem and `--json` order. Sessions comes first: it is the
   * pane on screen at start, and teams reads its parse of the mode files.
   */
  private readonly domains: readonly Domain[];
  /** The domains that read under the root (the others read Claude Code's files, omc-top's own, OMC's caches). */
  private readonly rootDomains: ReadonlySet<Domain>;
  private watcher: TreeWatcher | null = null;
  private readonly monotonic: Clock | undefined;
  private stopClockWatch: (() => void) | null = null;
  private hookEnvTimer: NodeJS.Timeout | null = null;
  private readonly watchKind: 'auto' | 'poll' | 'none';
  private readonly pollWhy: string | undefined;
  private readonly watchImpl: TreeWatcherOptions['watchImpl'];
  private closed = false;

  /**
   * The environment Claude's files are read with now: `given` with the directory the Claude side reads (it follows
   * the project's Claudes, config-look.ts). `given` itself (undefined included) until it switched.
   */
  private claudeEnvNow(given: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv | undefined {
    if (!this.claude) return given;
    const read = this.claude.configRead;
    return findClaudeConfigDir(given).dir === read.dir ? given : envWithConfig(given ?? process.env, read);
  }

  constructor(opts: OmcStoreOptions) {
    this.root = opts.root;
    this.home = opts.home ?? null;
    this.projectDir = opts.projectDir ?? null;
    this.rootRule = opts.rootRule ?? 'unknown';
    this.omcGiven = opts.omc !== undefined;
    this.readonly = opts.readonly ?? false;
    this.followCancels = opts.followCancels ?? !this.readonly;
    this.clock = opts.clock ?? Date.now;
    this.monotonic = opts.monotonic;
    this.watchKind = opts.watch ?? 'auto';
    this.pollWhy = opts.pollWhy;
    this.watchImpl = opts.watchImpl;
    const common = { root: this.root, clock: this.clock };
    // OMC's variables as its hooks see them: Claude's settings, a live Claude's environment, else omc-top's. The
    // Claude side is built below; until it is, no live Claude is known (the next look, 5 s on, asks it).
    this.hookEnv = new HookEnv({
      env: opts.runs?.env ?? process.env,
      claudeEnv: () => this.claudeEnvNow(opts.claude?.env) ?? opts.runs?.env ?? process.env,
      projectDir: this.projectDir ?? path.dirname(this.root),
      liveClaudes: () => (this.claude ? liveClaudesOf(this.claude.getSnapshot()) : []),
      git: opts.git,
    });
    this.stateDirSetting = stateDirSettingKey(this.hookEnv.get('OMC_STATE_DIR'));
    this.sessions = new SessionsDomain({
      ...common,
      omc: opts.omc,
      home: opts.home ?? null,
      // ralph's hard max as the hooks find it: their security config files, OMC_SECURITY as the hooks of the
      // session's own Claude get it (not the project's newest Claude's).
      hardMax: new HardMaxConfig({
        security: (proc) => this.hookEnv.forProcess('OMC_SECURITY', proc),
        home: opts.home ?? null,
      }),
      // DISABLE_OMC / OMC_SKIP_HOOKS switch the Stop hook off (5.5.0, 4.15), as the hooks get them.
      stopSwitch: new StopHookSwitch(
        (name) => this.hookEnv.get(name),
        (name, proc) => this.hookEnv.forProcess(name, proc),
      ),
      projectDir: this.projectDir,
      ...opts.sessions,
    });
    this.notepad = new NotepadDomain({ ...common, readonly: this.readonly, ...opts.notepad });
    this.memory = new MemoryDomain({ ...common, readonly: this.readonly, ...opts.memory });
    this.wiki = new WikiDomain(common);
    this.teams = new TeamsDomain({
      ...common,
      // The worker hook's heartbeat window, as that hook gets its variable.
      heartbeatStaleMs: resolveHeartbeatStaleMs({
        OMC_TEAM_HEARTBEAT_STALE_MS: this.hookEnv.get('OMC_TEAM_HEARTBEAT_STALE_MS').value ?? undefined,
      }),
      sessions: this.sessions,
      projectDir: this.projectDir,
      rootRule: this.rootRule,
      ...opts.teams,
    });
    // A Claude that starts here after the monitor, with another config directory: the Claude side switches to it,
    // and its OMC is looked for (config-look.ts). Not for a one-shot read nor a fleet's store (its shared registry).
    const looks = this.projectDir !== null && this.watchKind !== 'none' && !opts.claude?.registry;
    this.claude = new ClaudeDomain({
      config: findClaudeConfigDir(opts.claude?.env),
      settleFirst: looks && opts.claude?.lookLater === true,
      sessions: this.sessions,
      projectDir: this.projectDir,
      clock: this.clock,
      live: opts.claude?.live ?? true,
      transcripts: opts.claude?.transcripts,
      env: opts.claude?.env,
      registry: opts.claude?.registry,
      tmuxNames: opts.claude?.tmuxNames,
      // Subagent files and the transcripts' catch-up wait until the monitor is live (pushStatus): they are most of
      // the bytes of a big project, and reading them before delayed live (issue 26).
      deferUntilLive: true,
      // The runs domain is built below; the Claude domain asks for its sessions only once it reads.
      history: { ids: () => historySessionIds(this.runs?.runs() ?? []) },
      // A process whose hooks read another .omc does not carry this root's loops (store/hook-root.ts).
      hookRoot: {
        root: this.root,
        projectDir: this.projectDir,
        rule: opts.rootRule,
        flavor: opts.omc && !opts.omc.assumed ? opts.omc.book.rootFlavor : null,
        env: opts.claude?.env,
        ...(opts.home ? { home: opts.home } : {}),
      },
    });
    this.notes = new NoteTracker(this.claude, this.clock);
    this.cancelRecords = new CancelRecordFile(opts.stateDir ?? ownStateDir(), this.root, this.clock);
    this.stateDir = new StateDirDomain({ dir: opts.stateDir ?? ownStateDir(), live: this.watchKind !== 'none' });
    this.drafts = new KeptDrafts(opts.stateDir ?? ownStateDir(), this.root);
    // A cancel is "stopped ✓" only once the claude domain shows the session's Claude stop.
    const sessions = this.sessions;
    const agent = agentWatchOf(this.claude, this.clock);
    this.cancels = new CancelTracker(
      this.root,
      this.clock,
      this.sessions,
      {
        // Read at each judgement: the project's OMC can change under a running monitor (omc-recheck.ts).
        get rules() {
          return sessions.rules;
        },
        rulesOf: (sid) => this.sessions.installOf(sid).rules,
        // The OMC that runs the session's hooks when the tracker looks: an upgrade inside the window judges from then.
        booksOf: (sid) => cancelBooks(sid === null ? this.sessions.omc : this.sessions.installOf(sid)),
        projectDir: this.projectDir ?? path.dirname(this.root),
        // The same ~/.omc fallback copies the sessions' verdicts and `omc-top cancel` read.
        home: opts.home ?? null,
      },
      agent,
      this.cancelRecords,
    );
    this.recordFollower = new RecordFollower({
      records: this.cancelRecords,
      sessions: this.sessions,
      agent,
      ownCancel: (key, requestedMs) => this.cancels.get(key)?.requestedMs === requestedMs,
      clock: this.clock,
    });
    this.prd = new PrdDomain({
      root: this.root,
      projectDir: this.projectDir,
      rules: prdRulesOf(this.sessions.omc),
      sessionDirsWith: (file) => this.sessions.sessionDirsWith(file),
    });
    this.runs = new RunsDomain({
      hookEnv: this.hookEnv,
      ...opts.runs,
      root: this.root,
      clock: this.clock,
      parsed: this.sessions,
      sessionDirsWith: (file) => this.sessions.sessionDirsWith(file),
    });
    this.graph = new GraphDomain({ root: this.root, clock: this.clock, live: this.watchKind !== 'none' });
    this.permissions = new PermissionsDomain({
      stateDir: opts.answers?.stateDir ?? stateDir(),
      projectDir: this.projectDir ?? path.dirname(this.root),
      clock: this.clock,
      live: opts.answers?.live ?? this.watchKind !== 'none',
      listen: (opts.answers?.listen ?? false) && !this.readonly,
      stateDirSaidElsewhere: (opts.answers?.stateDir ?? stateDir()) === this.stateDir.dir,
      claudeEnv: () => this.claudeEnvNow(opts.claude?.env) ?? process.env,
    });
    // A prompt the hook holds is the truth about the Claude that asked: it waits, whatever its registry entry says yet.
    this.permissions.subscribe(() => this.claude.setHeldPrompts(heldPromptsOf(this.permissions.getSnapshot())));
    this.runs.subscribe(this.claude.historyChanged);
    this.ultragoal = new UltragoalDomain({ root: this.root });
    const claudeConfig = findClaudeConfigDir(opts.claude?.env);
    this.bgJobs = new BgJobsDomain({
      config: claudeConfig,
      projectDir: this.projectDir,
      live: opts.claude?.live ?? true,
      shared: opts.claude?.bgJobs,
    });
    this.quota =
      opts.sharedQuota ?? new QuotaDomain({ env: opts.claude?.env, live: opts.claude?.live ?? true, ...opts.quota });
    const configLook =
      looks && this.projectDir !== null
        ? new ClaudeConfigLook({
            sessions: this.sessions,
            projectDir: this.projectDir,
            env: opts.claude?.env ?? process.env,
            current: () => this.claude.configRead,
            use: (config) => {
              const moved = config.dir !== this.claude.configRead.dir;
              this.claude.useConfig(config);
              this.bgJobs.useConfig(config);
              // OMC's variables as the hooks get them: that directory's settings, now rather than at the next look.
              if (moved) this.refreshHookEnv();
            },
            onNewSession: () => this.omcRecheck?.look(undefined, true),
            firstLookInScan: opts.claude?.lookLater === true,
            choose: opts.claude?.choose,
          })
        : null;
    this.domains = [
      this.sessions,
      this.notepad,
      this.memory,
      this.wiki,
      this.teams,
      // The look first: it says which directory the Claude side reads (its first read, with lookLater).
      ...(configLook ? [configLook] : []),
      this.claude,
      this.prd,
      this.runs,
      this.graph,
      this.permissions,
      this.ultragoal,
      this.bgJobs,
      this.stateDir,
      opts.sharedQuota ? borrowed(opts.sharedQuota) : this.quota,
      ...(opts.ownProblems?.length ? [fixedProblems(opts.ownProblems)] : []),
      // A root given by hand that holds nothing of OMC's: said as a problem while it is so (root-state.ts).
      ...(opts.rootRule === 'override' ? [givenRootStateDomain(opts.root)] : []),
    ];
    if (opts.ownProblems?.length) this.problems.set([...opts.ownProblems]);
    this.rootDomains = new Set<Domain>([
      this.sessions,
      this.notepad,
      this.memory,
      this.wiki,
      this.teams,
      this.prd,
      this.runs,
      this.graph,
      this.ultragoal,
    ]);
    for (const d of this.domains) d.subscribe?.(() => this.collectProblems());
    const redetect = opts.omcRedetect;
    this.omcRecheck =
      redetect && this.omcGiven && this.watchKind !== 'none'
        ? new OmcRecheck({
            detect: redetect,
            current: () => this.sessions.omc,
            processLive: (p) => this.claude.processLive(p),
            ownReleases: (reads) => this.claude.lookAtReleases(reads),
            apply: (n, w) => this.setOmc(n, w),
            everyMs: opts.omcRecheckMs,
            ticker: opts.omcRecheckTicker,
            alsoOnEachLook: () => this.refreshHookEnv(),
          })
        : null;
  }

  private refreshHookEnv(): void {
    if (this.closed) return;
    const changed = this.hookEnv.refresh();
    // ralph's hard max: its files live outside the root (looked at here, not watched), OMC_SECURITY in this env.
    this.sessions.lookAtHardMax();
    this.sessions.lookAtStopSwitch();
    if (!changed) return;
    if (this.readStarted.has(this.runs)) this.runs.hookEnvChanged();
    // Only when what the hooks get changed (the refresh is a few stats at rest): whether OMC_STATE_DIR did too.
    const setting = stateDirSettingKey(this.hookEnv.get('OMC_STATE_DIR'));
    if (setting === this.stateDirSetting) return;
    this.stateDirSetting = setting;
    for (const l of [...this.stateDirListeners]) l();
  }

  /**
   * Says when Claude's settings give OMC's hooks another OMC_STATE_DIR (added, changed or removed while this store
   * runs): where the root is, is then looked for again by the one rule (store/omc-root.ts followRoot), as after an
   * OMC upgrade. Read on the same looks as the OMC install (no timer of its own).
   */
  onStateDirSetting(listener: () => void): () => void {
    this.stateDirListeners.add(listener);
    return () => this.stateDirListeners.delete(listener);
  }

  /** Says when another OMC judges (words: the one line to show, null when the version stayed and only where moved). */
  onOmcChange(listener: (words: string | null, next: OmcInstall) => void): () => void {
    this.omcListeners.add(listener);
    return () => this.omcListeners.delete(listener);
  }

  /**
   * Another OMC runs the hooks now (the project's, or a session's own --plugin-dir release moved in place): every
   * verdict and the PRD count are judged again by its book.
   */
  private setOmc(next: OmcInstall, was: OmcInstall): void {
    if (this.closed) return;
    // The sessions' own --plugin-dir releases as they are now, taken with the project's in one re-judging.
    const seenWas = this.sessions.getSnapshot().omcSeen;
    const own = this.claude.retakeReleases();
    // Said first: a line stream (watch --json) has the news before the transitions it causes.
    // In the header's words (its label counts the sessions' own --plugin-dir): the line never says what it does not.
    const words = omcChangeLine(next, was, own ? this.sessions.omcSeenIn(own) : seenWas, seenWas);
    for (const l of this.omcListeners) l(words, next);
    if (own) this.sessions.setSessionInstalls(own, false);
    this.sessions.setProjectInstall(next);
    this.prd.setRules(prdRulesOf(next));
  }

  /** Each domain's problem list as last collected: a publish that kept every list costs no pass over them. */
  private problemParts: (readonly Problem[] | undefined)[] = [];

  private collectProblems(): void {
    // No root: what its domains would say of the files in it ("state: is a file where a directory was expected"
    // when a file stands where .omc was) is not about those files; the watch status's line says it once.
    const absent = (this.watchState.rootAbsence ?? null) !== null;
    const parts = this.domains.map((d) => (absent && this.rootDomains.has(d) ? undefined : d.problems?.()));
    if (parts.length === this.problemParts.length && parts.every((p, i) => p === this.problemParts[i])) return;
    this.problemParts = parts;
    const all: Problem[] = [];
    for (const p of parts) if (p) all.push(...p);
    const prev = this.problems.getSnapshot();
    const same =
      prev.length === all.length && prev.every((p, i) => p.path === all[i]?.path && p.message === all[i]?.message);
    if (!same) this.problems.set(all);
  }

  /**
   * Without options: reads everything synchronously, then starts watching (for `--json` and the
   * subcommands; the watcher's rescan at `ready` covers the window in between). With `progressive` (the
   * full-screen app): watches first and reads in slices, so the first frame comes early and is live.
   */
  start(opts: { progressive?: boolean } = {}): void {
    if (opts.progressive) {
      this.startProgressively();
      return;
    }
    for (const d of this.domains) {
      this.readStarted.add(d);
      d.scan();
      this.readDone.add(d);
    }
    this.collectProblems();
    if (this.watchKind === 'none') this.setOff();
    else this.startWatching();
  }

  /**
   * For the full-screen app: watch first, then read in slices of ~40 ms (the first ~15 ms), sessions first (the pane on screen),
   * yielding between slices so the first frame is drawn after the first slice and keys work while a big tree
   * is still being read. There is no blind window and no second read:
   * - the tree watcher starts before the first slice; each session directory gets its own watch just before
   *   it is listed (`SessionsDomain.watchLeaves`), so a change to a row already read is an event at once;
   * - a change to a row not read yet needs no event: its directory is read later, as it is then. Files the
   *   watcher's events made a domain read meanwhile are stat-gated (`readIfChanged`), never read twice;
   * - the wiki watches its directory just before listing it too (`WikiDomain.watchLeaves`);
   * - what was read before chokidar's watches were up (`ready`) gets a second look then instead of the
   *   watcher's full rescan: the sessions skeleton by `SessionsDomain.reconcile()` (a few listings), the
   *   small domains (notepad, memory, teams, …) by their own stat-gated scan.
   */
  private startProgressively(): void {
    this.progressive = true;
    const queue = [...this.domains];
    this.reading = 'reading .omc';
    this.pushStatus();
    if (this.watchKind === 'none') this.setOff();
    else this.startWatching(true);
    const slice = () => {
      this.sliceQueued = false;
      if (this.closed) return;
      const d = queue[0];
      if (d === undefined) return;
      // The first slice is short: its rows are the first frame, and every row it reads delays that frame (the
      // selection stays on the top row while later slices add rows above, see the sessions pane's settle).
      const deadline = performance.now() + (this.readStarted.size === 0 ? FIRST_SLICE_MS : SLICE_MS);
      // One domain per slice at most: the first slice ends with sessions read
      // (or partly read), so the first frame is drawn before anything else.
      this.readStarted.add(d);
      const done = d.scanStep ? d.scanStep(deadline) : (d.scan(), true);
      if (done) {
        queue.shift();
        this.readDone.add(d);
      }
      this.collectProblems();
      const progress = this.sessions.getSnapshot().scanning;
      this.reading =
        queue.length === 0
          ? null
          : progress
            ? `reading ${groupDigits(progress.done)}/${groupDigits(progress.total)}`
            : `reading ${queue[0]?.name ?? ''}`;
      this.pushStatus();
      if (queue.length > 0) this.queueSlice();
    };
    this.queueSlice = () => {
      if (this.sliceQueued || this.closed) return;
      this.sliceQueued = true;
      setImmediate(slice);
    };
    slice();
  }

  /** Started by the full-screen app (progressively): a one-shot read (--json) builds no search index ahead. */
  private progressive = false;
  /** Progressive start: the next slice is queued (at most one at a time). */
  private queueSlice: () => void = () => undefined;
  private sliceQueued = false;
  /** Domains whose first read has begun / finished (a non-progressive start reads them all at once). */
  private readonly readStarted = new Set<Domain>();
  private readonly readDone = new Set<Domain>();
  private reading: string | null = null;
  private watchState: { watchMode: WatchMode; watchDetail: string; rootAbsence?: RootAbsence | null } = {
    watchMode: 'starting',
    watchDetail: 'starting',
  };

  private pushStatus(): void {
    // `reading` only while there is something to say: once read, the status is what it always was.
    const chosen = this.watchKind === 'poll' && this.pollWhy === undefined ? { pollChosen: true } : {};
    const next: StoreStatus = this.reading
      ? { ...this.watchState, ...chosen, reading: this.reading }
      : { ...this.watchState, ...chosen };
    // Everything read once and the watches up (or none wanted): the rest of the transcripts and the subagent files
    // are read now, after `live`. So is the wiki's search index (built in slices; the first read of the rest of
    // .omc does not wait for it).
    if (isReadAndWatched(next)) {
      this.claude.startDeferredReads();
      if (this.progressive) this.wiki.warmSearch();
    }
    const prev = this.status.getSnapshot();
    if (
      prev.watchMode === next.watchMode &&
      prev.watchDetail === next.watchDetail &&
      (prev.rootAbsence ?? null) === (next.rootAbsence ?? null) &&
      (prev.reading ?? null) === (next.reading ?? null)
    )
      return;
    this.status.set(next);
  }

  private startWatching(progressive = false): void {
    // The files that decide the OMC version are outside the watched root: looked at again on a timer.
    this.omcRecheck?.start();
    // Another omc-top's cancels: its "cancel did not take" is this monitor's too.
    this.stopRecordWatch ??= this.cancelRecords.watch();
    // OMC's hooks fall back to a session's ~/.omc/state copy: a loop held there (or gone from there) shows as it goes.
    if (this.home !== null)
      this.stopHomeWatch ??= watchOwnFile(path.join(this.home, '.omc', 'state'), SessionsDomain.HOME_STATE_FILES, () =>
        this.sessions.homeStateChanged(),
      );
    // Another omc-top's cancel nobody follows any more is settled here (not under --readonly: it writes nothing),
    // once the sessions and their Claude processes are read (before, every loop would look ended): at once after a
    // whole read (`start()`), else once the slices are read.
    if (this.followCancels && !this.stopFollowWait) {
      const follow = () => this.recordFollower.start();
      if (progressive) this.stopFollowWait = this.afterFirstRead(follow);
      else {
        follow();
        this.stopFollowWait = () => undefined;
      }
    }
    // Claude's settings live outside the watched root: read again on the OMC look's ticks (one timer at rest), or on
    // a timer of their own where the OMC is not looked for again (pinned with --omc-version), the stale runs
    // re-judged on a change.
    if (!this.omcRecheck) {
      this.hookEnvTimer ??= setInterval(() => this.refreshHookEnv(), HOOK_ENV_RECHECK_MS);
      this.hookEnvTimer.unref?.();
    }
    this.stopClockWatch ??= watchClockJumps({
      wall: this.clock,
      monotonic: this.monotonic,
      onJump: () => this.clockJumped(),
    });
    // A scan's missing files wait in the watcher's removal hold, as an event's removal does (tree-watcher.ts), in
    // every list that keeps its misses (scan-misses.ts).
    for (const d of this.domains) if (d.misses) d.misses.hold = (rels) => this.watcher?.holdRemovals(rels) ?? false;
    if (progressive) {
      const watchLeaf = (rel: string) => this.watcher?.watchLeaf(rel) ?? false;
      this.sessions.watchLeaves = watchLeaf;
      this.wiki.watchLeaves = watchLeaf;
    }
    this.watcher = startTreeWatcher({
      root: this.root,
      mode: this.watchKind === 'poll' ? 'poll' : 'auto',
      pollWhy: this.pollWhy,
      watchImpl: this.watchImpl,
      wants: (rel, isDir) => this.domains.some((d) => d.wants(rel, isDir)),
      isLeafDir: (rel) => this.domains.some((d) => d.isLeafDir?.(rel) ?? false),
      holdsLeaves: (rel) => this.domains.some((d) => d.holdsLeaves?.(rel) ?? false),
      rootGiven: this.rootRule === 'override',
      onEvents: (events, edge) => this.dispatch(events, edge),
      // A rescan re-reads the domains read so far; one still being read first (or not yet) reads the disk as it is then.
      onRescan: () => {
        for (const d of this.domains) if (this.readDone.has(d)) d.scan();
      },
      // Progressive: only what was read before the watches were set needs a second look (see startProgressively).
      onReady: progressive
        ? () => {
            if (this.readStarted.has(this.sessions)) this.sessions.reconcile();
            // The wiki watched its directory before listing it; the small domains read before the watches
            // were up are read again (stat-gated: a few lstats each).
            for (const d of this.domains)
              if (d !== this.sessions && d !== this.wiki && this.readStarted.has(d)) d.scan();
          }
        : undefined,
      onMode: (watchMode, watchDetail, rootAbsence) => {
        const wasAbsent = (this.watchState.rootAbsence ?? null) !== null;
        this.watchState = { watchMode, watchDetail, rootAbsence };
        // The sessions seen are kept while the root is away, each saying why in these words (the rescan that
        // follows every change of the root's presence applies them).
        this.sessions.rootAwayWords = rootAbsence === null ? null : watchDetail;
        // A poll's scan may land inside an `rm -rf`: what it no longer finds waits for the next look.
        for (const d of this.domains) if (d.misses) d.misses.secondLook = watchMode === 'polling';
        this.pushStatus();
        // The root's domains' problems leave (or come back) with it.
        if (wasAbsent !== (rootAbsence !== null)) this.collectProblems();
      },
    });
  }

  private dispatch(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void {
    for (const d of this.domains) {
      // Not read yet: its first read will see the disk as it is by then.
      if (!this.readStarted.has(d)) continue;
      const mine = events.filter(
        (e) =>
          d.wants(
            e.rel,
            e.type === 'addDir' || e.type === 'unlinkDir' ? true : e.type === 'unlink' ? undefined : false,
          ) || e.type === 'unlinkDir',
      );
      if (mine.length > 0) {
        try {
          d.refresh(mine, edge);
        } catch (err) {
          // A bug in one domain must not take the monitor down; the next scan recovers.
          this.watchState = { ...this.watchState, watchDetail: `${d.name}: ${(err as Error).message}` };
          this.pushStatus();
        }
      }
    }
  }

  /**
   * The wall clock jumped (clock-jumps.ts): the timers that re-judge time-based verdicts run on monotonic time,
   * so each domain re-judges now what depends on the wall clock, and so do the cancels in flight (a pause
   * whose window the jump passed is over now, as `--json` says, not 30 s of monotonic time later).
   */
  private clockJumped(): void {
    if (this.closed) return;
    for (const d of this.domains) {
      if (!this.readStarted.has(d)) continue;
      try {
        d.clockJumped?.();
      } catch (err) {
        // As in dispatch: one domain's bug must not take the monitor down.
        this.watchState = { ...this.watchState, watchDetail: `${d.name}: ${(err as Error).message}` };
        this.pushStatus();
      }
    }
    this.cancels.evaluate();
    this.recordFollower.evaluate();
  }

  /** Every domain's additions to the --json document. */
  reportExtras(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const d of this.domains) Object.assign(out, d.report?.() ?? {});
    return out;
  }

  private setOff(): void {
    this.watchState = { watchMode: 'off', watchDetail: 'not watching (one-shot)' };
    this.pushStatus();
  }

  /**
   * Calls `then` once everything has been read once and the watches are up (at once when they are already): for
   * work that must not delay `live`. Returns what cancels it.
   */
  afterFirstRead(then: () => void): () => void {
    if (isReadAndWatched(this.status.getSnapshot())) {
      then();
      return () => undefined;
    }
    const stop = this.status.subscribe(() => {
      if (!isReadAndWatched(this.status.getSnapshot())) return;
      stop();
      then();
    });
    return stop;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.omcRecheck?.stop();
    await this.watcher?.close();
    this.watcher = null;
    for (const d of this.domains) d.dispose?.();
    this.cancels.dispose();
    this.stopFollowWait?.();
    this.stopFollowWait = null;
    this.recordFollower.dispose();
    this.stopRecordWatch?.();
    this.stopRecordWatch = null;
    this.stopHomeWatch?.();
    this.stopHomeWatch = null;
    this.stopClockWatch?.();
    this.stopClockWatch = null;
    if (this.hookEnvTimer) clearInterval(this.hookEnvTimer);
    this.hookEnvTimer = null;
  }
}
