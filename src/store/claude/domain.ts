/**
 * The Claude Code side of every session: the registry (one fs.watch on
 * `sessions/`), each process's verified status, and an incremental reader per
 * transcript of a session omc-top shows. Joined to OMC's sessions by session
 * id. Reads only, through fsx, with the config dir as the containment root.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMissingSync, statSync } from '../../io/safe-fs/index.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import type { HookProcess } from '../hard-max.js';
import type { SessionsDomain } from '../sessions/domain.js';
import { compareSessions } from '../sessions/derive.js';
import { sessionIndex } from '../sessions/view-index.js';
import { deltaSince, type SessionView, type SessionsSnapshot } from '../sessions/model.js';
import type { Clock, Domain, Problem } from '../types.js';
import { transcriptRel, type ClaudeConfigDir } from './config-dir.js';
import type { ClaudeSessionView, ClaudeSnapshot, ProcessView, TranscriptView } from './model.js';
import {
  sameHolder,
  sameListing,
  samePeer,
  samePids,
  sameView,
  type PublishedView,
  type ReadState,
} from './published-views.js';
import { judgeProcess, systemProbe, type LivenessProbe } from './process-status.js';
import { isRegistryDirProblem, lastSignOfLife, readRegistry, type RegistryEntry } from './registry.js';
import { TranscriptReader } from './transcript-reader.js';
import type { OmcInstall, OmcReadMemo } from '../omc-install.js';
import { pluginDirsOf } from './plugin-dir.js';
import { SessionInstalls, type ReleasesLook } from './session-installs.js';
import type { StopFacts } from '../verdict/index.js';
import { waitingFact } from './life.js';
import { systemTmuxNames, TmuxNames, tmuxWhere, type WindowLister } from './tmux-names.js';
import { tmuxSocketOfProcess } from './process-env.js';
import { SubagentTracker } from './subagents.js';
import { LaunchBook, type LaunchRecord } from './launch-flags.js';
import { chooseProcess, compareChoice, processRank, stillRuns } from './choice.js';
import { hooksReadRoot, type HooksReadRootOptions } from '../hook-root.js';

import { HELD_CHECK_MS, HELD_CHECK_TICKS, LIVENESS_MS, type SharedRegistry } from './shared-registry.js';
export { HELD_CHECK_MS, LIVENESS_MS };
/** Bytes of transcript read per slice while catching up (the UI stays responsive). */
export const SLICE_BYTES = 4 * 1024 * 1024;
/** The screen's frame interval (Ink's maxFps 30, terminal/full-screen.tsx): catch-up slices publish no more often. */
const FRAME_MS = 1000 / 30;
/**
 * Transcript bytes read before the monitor is live (`deferUntilLive`), at most: a small project's transcripts are
 * all read by then, as before; a big one's rest is read after (200 sessions of 10 MB: 2 GB).
 */
export const BEFORE_LIVE_BYTES = 4 * SLICE_BYTES;
/** Transcripts tracked at most (the newest sessions first). */
export const MAX_TRANSCRIPTS = 500;
/** Processes omc-top saw exit, remembered at most (the oldest forgotten first). */
export const MAX_DEPARTED = 2000;
/** Processes seen running, remembered at most (to date their end from when it was seen; the oldest forgotten first). */
const MAX_WATCHED_LIVES = 2000;

export interface ClaudeDomainOptions {
  config: ClaudeConfigDir;
  sessions: SessionsDomain;
  projectDir: string | null;
  clock?: Clock;
  /** false for one-shot --json: no watches, no timers, transcripts read to the end at once. */
  live?: boolean;
  /** false: the registry only (`status`: whether a Claude process waits, idles or died, not what it said). */
  transcripts?: boolean;
  probe?: LivenessProbe;
  /**
   * The registry read once for many domains (the projects of a fleet): this domain then sets no watch and no
   * liveness tick of its own, and judges with the reader's probe (each process asked once per tick for all).
   */
  registry?: SharedRegistry;
  /** Lists tmux's windows (to name the registry's `session:@window`); default: the tmux of `env`. */
  tmux?: WindowLister;
  /**
   * The window names read once for many domains (the fleet's, with its shared registry): this domain then lists
   * nothing itself and `tmux` is not used.
   */
  tmuxNames?: TmuxNames;
  /** Where $TMUX is read for the default lister. */
  env?: NodeJS.ProcessEnv;
  /**
   * Sessions the run history names (ended runs whose state is gone): their transcripts are followed too, in
   * the project directory, so a run's cost is known after its session ended (store/cost/rollup.ts).
   */
  history?: { ids(): Iterable<string> };
  /**
   * Live: until `startDeferredReads()` (the store calls it once the monitor is live) subagent files are not read,
   * and a transcript is read no further than the slice that first wanted it (no catch-up slices), so start-up
   * does not wait for them (issue 26); until then a session's view says its subagents are still being read.
   */
  deferUntilLive?: boolean;
  /**
   * The root this domain's sessions live in, as it was found: a process whose hooks read another `.omc` (its cwd
   * in another project) is joined as running elsewhere (ProcessView.elsewhere), its loop here orphaned. Unset: every
   * process counts as reading this root (as before).
   */
  hookRoot?: HooksReadRootOptions;
  /**
   * The config directory is not settled yet (the monitor looks at the project's Claudes after its first frame,
   * config-look.ts): nothing of Claude's is read or shown until `useConfig` says which directory to read, so no
   * status is shown that the directory the look chooses would take back.
   */
  settleFirst?: boolean;
}

/** A permission prompt omc-top's hook holds: the Claude that asked (pid), its session, and since when. */
export interface HeldPrompt {
  pid: number;
  sessionId: string;
  sinceMs: number;
}

/** How a path under the config directory is shown in a problem line. */
const labelOf = (c: ClaudeConfigDir): string => (c.rule === 'CLAUDE_CONFIG_DIR' ? '$CLAUDE_CONFIG_DIR' : '~/.claude');

const EMPTY = (c: ClaudeConfigDir): ClaudeSnapshot => ({
  version: 0,
  configDir: c.dir,
  rule: c.rule,
  bySession: new Map(),
  problems: [],
  registryMissing: true,
});

export class ClaudeDomain implements Domain {
  readonly name = 'claude';
  readonly cell: SnapshotCell<ClaudeSnapshot>;
  private dir: string;
  private label: string;
  private config: ClaudeConfigDir;
  /** Which directory to read is known (settleFirst): until then scan() and the sessions' changes read nothing. */
  private settled: boolean;
  /** The store asked for the first read (a scan that `settled` held back is made when it settles). */
  private scanAsked = false;
  /** startDeferredReads() ran: a tracker made for another directory starts reading at once. */
  private deferredStarted = false;
  private readonly clock: Clock;
  private readonly live: boolean;
  private readonly probe: LivenessProbe;
  private entries: RegistryEntry[] = [];
  private procViews = new Map<string, ProcessView>();
  private registryProblems: Problem[] = [];
  private registryMissing = true;
  private readers = new Map<string, TranscriptReader>();
  /** The last view of each process whose registry entry omc-top saw removed (by session id). */
  private departed = new Map<string, ProcessView>();
  private readonly tmuxNames: TmuxNames;
  private readonly unfollowTmux: () => void;
  private watchers = new Map<string, fs.FSWatcher>();
  /**
   * The readers' directories (sessions by directory), kept as readers come and go: rebuilt from every reader at each
   * change of the set, it was made again at each sessions publish of the first read (~1.2 MB before live).
   */
  private readonly readerDirs = new Map<string, Set<string>>();
  /** Readers came or went since the watches were last set up for `readerDirs`. */
  private readersMoved = true;
  /** Every directory in `readerDirs` has its watch: the tick has no watch to retry. */
  private allDirsWatched = false;
  /**
   * When some transcript directory is missing (a project Claude Code has not written to yet): `projects/`'s
   * change time at the last try. Every transcript directory is an entry of `projects/`, so none can have appeared
   * while that time stays the same: the tick stats one directory instead of trying a watch per missing one
   * (an exception each, every 2 s, per project of a fleet).
   */
  private projectsTried: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private catchUp: NodeJS.Immediate | null = null;
  /** Transcripts with unread bytes left by a slice that ran out of budget. */
  private behind = new Set<string>();
  /**
   * Until `startDeferredReads()`, transcripts are read within BEFORE_LIVE_BYTES in all: every slice read before
   * live, and the publish and repaint it caused, was taken from the read of `.omc` and the watcher's walk, which
   * `live` waits for (1.4× the start-up of the build before the cost work, 200 sessions of 10 MB).
   */
  private catchUpHeld: boolean;
  private beforeLiveLeft = BEFORE_LIVE_BYTES;
  private registryTimer: NodeJS.Timeout | null = null;
  private version = 0;
  /** What each listed session's view was last published from (published-views.ts), and the listing's order. */
  private published = new Map<string, PublishedView>();
  private publishedOrder: string[] = [];
  private publishRound = 0;
  /** performance.now() of the last publish by a catch-up slice (readTranscripts). */
  private lastSlicePublish = -Infinity;
  private lastProblems: Problem[] = [];
  /** A value no snapshot has: the first publish always goes out (as the empty snapshot's key did before). */
  private lastRegistryMissing: boolean | null = null;
  private readonly scratchRead: ReadState = { version: 0, subagentsVersion: 0, behind: false, problem: null };
  private disposed = false;
  /** Each registered process's tmux server (its $TMUX socket; null: none or unreadable), read once per process. */
  private readonly tmuxSockets = new Map<string, string | null>();

  private tmuxSocketOf(pid: number, procStart: string | null): string | null {
    const key = `${pid}:${procStart ?? ''}`;
    let socket = this.tmuxSockets.get(key);
    if (socket === undefined) {
      this.tmuxSockets.set(key, (socket = tmuxSocketOfProcess(pid)));
      if (this.tmuxSockets.size > MAX_WATCHED_LIVES)
        this.tmuxSockets.delete(this.tmuxSockets.keys().next().value as string);
    }
    return socket;
  }

  /** Where a process runs in tmux's names (its own server's listing when known): "main:2 claude", else the ids. */
  private placeOf(p: { pid: number; procStart: string | null; tmux: string | null }): string | null {
    const socket = this.tmuxSockets.get(`${p.pid}:${p.procStart ?? ''}`) ?? null;
    return tmuxWhere(p.tmux, this.tmuxNames.current(socket));
  }

  /** The processes no session's view stands for (a second terminal on one session), by pid: ClaudeSnapshot.others. */
  private otherViews: ReadonlyMap<number, ProcessView> = new Map();
  /** `otherViews` moved since the last publish: the next one goes out even when no session's view changed. */
  private othersPending = false;

  /** Each followed session's subagent files (subagents.ts), read with its transcript. */
  private subagents: SubagentTracker;
  /** Each judged view of a process working elsewhere, as the copy that says so (ProcessView.elsewhere). */
  private awayViews = new WeakMap<ProcessView, ProcessView>();
  /** Whether a process working in a directory has hooks that read this root (remembered per directory). */
  private readonly hooksHere: (cwd: string | null) => boolean | null;

  constructor(private readonly opts: ClaudeDomainOptions) {
    this.hooksHere = opts.hookRoot ? hooksReadRoot(opts.hookRoot) : () => null;
    this.config = opts.config;
    this.dir = opts.config.dir;
    this.label = labelOf(opts.config);
    this.settled = opts.settleFirst !== true;
    this.clock = opts.clock ?? Date.now;
    this.live = opts.live ?? true;
    this.probe = opts.registry?.probe ?? opts.probe ?? systemProbe();
    this.cell = new SnapshotCell(EMPTY(opts.config));
    const env = opts.env ?? process.env;
    // A listing that names windows differently re-judges (the views carry the names) and republishes.
    this.tmuxNames =
      opts.tmuxNames ??
      (opts.tmux ? new TmuxNames(opts.tmux, this.clock) : systemTmuxNames(env, this.live, this.clock));
    this.unfollowTmux = this.tmuxNames.onChange(() => {
      if (this.disposed) return;
      // A kept view carries the names of the listing it was judged with: judge every process afresh once.
      this.runningViews = new WeakMap();
      this.judgeAll();
      this.publish();
    });
    this.subagents = this.subagentTracker(this.live && opts.deferUntilLive === true);
    this.catchUpHeld = this.live && opts.deferUntilLive === true;
    if (this.live) opts.sessions.subscribe(() => this.syncTranscripts(false));
  }

  private subagentTracker(deferred: boolean): SubagentTracker {
    return new SubagentTracker(
      this.dir,
      this.live,
      (sid) => {
        if (!this.disposed && this.readers.has(sid)) this.readTranscripts(new Set([sid]));
      },
      deferred,
    );
  }

  subscribe = (l: () => void) => this.cell.subscribe(l);
  getSnapshot = () => this.cell.getSnapshot();
  /**
   * The run history changed: follow the transcripts it names now (only newly wanted ones are read). Also
   * one-shot: the runs domain scans after this one, so its first list arrives here.
   */
  historyChanged = (): void => {
    // The sessions' delta says nothing about the history: judge the wanted transcripts again.
    this.wantedFrom = null;
    this.syncTranscripts(false);
  };
  /**
   * The monitor is live: read the rest of the transcripts and the subagent files now (in slices, within one byte
   * budget). Only the first call does anything.
   */
  startDeferredReads(): void {
    this.deferredStarted = true;
    const held = this.catchUpHeld;
    this.catchUpHeld = false;
    const subagents = this.subagents.start();
    if (this.disposed || (!held && !subagents)) return;
    // On the next turn, as a catch-up slice: the store says live first (it calls this just before), and the
    // screen shows it without waiting for a slice.
    for (const sid of this.readers.keys()) this.behind.add(sid);
    this.queueCatchUp();
  }
  /** Problems with Claude Code's files. What needs the user (a prompt, an orphaned loop) is the attention model's. */
  problems = (): readonly Problem[] => this.cell.getSnapshot().problems;

  /** Claude's files live outside the .omc root: the tree watcher never sees them. */
  wants(): boolean {
    return false;
  }
  refresh(): void {}

  scan(): void {
    if (this.disposed) return;
    this.scanAsked = true;
    if (!this.settled) return;
    this.readRegistryNow();
    this.syncTranscripts();
    if (this.live) this.ensureWatching();
  }

  /** Returns false only when the read changed nothing a view shows (still no registry, say). */
  private readRegistryNow(): boolean {
    const shared = this.opts.registry;
    const r = shared ? shared.current() : readRegistry(this.dir);
    const same =
      r.entries.length === 0 &&
      this.entries.length === 0 &&
      r.missing === this.registryMissing &&
      r.problems.length === 0 &&
      this.registryProblems.length === 0;
    this.noteDepartures(r.entries);
    this.entries = r.entries;
    this.registryMissing = r.missing;
    this.tmuxNames.want(r.entries.flatMap((e) => (e.tmux ? [e.tmux] : [])));
    // Each process's own tmux server, where it is not the one omc-top is in: its windows named as its status bar does.
    if (this.tmuxNames.listsOtherServers)
      for (const e of r.entries) {
        const socket = e.tmux ? this.tmuxSocketOf(e.pid, e.procStart) : null;
        if (socket !== null) this.tmuxNames.want([e.tmux as string], socket);
      }
    if (!shared) this.probe.holds?.retain(new Set(r.entries.map((e) => e.pid)));
    const moved = this.judgeAll();
    this.findInstalls();
    // An entry's problem is said by the project its Claude works in (the directory the file names, whose hooks read
    // this root), never by every project: one it cannot be tied to is said by doctor and the fleet. The directory's
    // own problem is every project's (no Claude can be joined to any).
    this.registryProblems = r.problems
      .filter((p) => isRegistryDirProblem(p) || (p.cwd !== undefined && this.hooksHere(p.cwd) === true))
      .map((p) => ({
        path: `${this.label}/${p.rel}`,
        message: p.message,
        severity: 'warning',
      }));
    return moved || !same;
  }

  /** Each session's last live process's command-line flags that `r` carries into the resume (launch-flags.ts). */
  private readonly launches = new LaunchBook();
  /** What omc-top recorded of the session's Claude process while it lived; null when it never read its command line. */
  launchOf = (sessionId: string): LaunchRecord | null => this.launches.of(sessionId);

  /** The OMC each session's own Claude loaded (--plugin-dir, recorded flags, transcript): session-installs.ts. */
  private readonly installs = new SessionInstalls((e) =>
    this.opts.registry ? this.opts.registry.pluginDirsFor(e) : pluginDirsOf(e.pid, e.cwd),
  );

  /** Whether a process was live at the last registry read or liveness tick (its OMC was looked up): no read. */
  processLive = (p: { pid: number; procStart: string | null }): boolean =>
    this.installs.hasProcess(`${p.pid}:${p.procStart}`);

  /**
   * The OMC look (omc-recheck.ts): whether the plugin directories the sessions' own Claudes loaded hold other releases
   * now (OMC upgraded in place under a running Claude). One read per directory.
   */
  lookAtReleases = (reads?: OmcReadMemo): ReleasesLook => this.installs.look(reads);

  /**
   * The releases in those directories now are taken (the look's change, confirmed): the sessions' installs as they
   * are now, for the store to hand over with the project's in one re-judging (store.ts setOmc); null when every
   * directory still holds the release in force.
   */
  retakeReleases(): ReadonlyMap<string, OmcInstall> | null {
    return this.installs.retake() ? this.findInstalls(false) : null;
  }

  /**
   * Sessions whose own Claude process names its OMC (`--plugin-dir`): their verdicts use that version. The same
   * pass records the flags a resume carries. A command line cannot change, so each process's is read once.
   * `push`: handed to the sessions at once (else returned only).
   */
  private findInstalls(push = true): ReadonlyMap<string, OmcInstall> {
    const found = new Map<string, OmcInstall>();
    const live = new Set<string>();
    const liveSessions = new Set<string>();
    const processes = new Map<string, HookProcess>();
    for (const e of this.entries) {
      const pv = this.procViews.get(e.sessionId);
      if (!pv || pv.pid !== e.pid || pv.status === 'gone') continue;
      const key = `${e.pid}:${e.procStart}`;
      live.add(key);
      liveSessions.add(e.sessionId);
      // The process whose hooks run the session's Stop: its environment is theirs (OMC_SECURITY, store/hard-max.ts).
      if (pv.status !== 'exited')
        processes.set(e.sessionId, { pid: pv.pid, procStart: pv.procStart, startedAt: pv.startedAt });
      this.launches.noteLive(e.sessionId, e.pid, e.procStart, e.cwd);
      const i = this.installs.ofProcess(key, e);
      if (i) found.set(e.sessionId, i);
    }
    this.installs.keepProcesses(live);
    // A session whose process has gone since the last pass: judged by the OMC its recorded flags load (looked up
    // once, here), since `r` resumes it with them; one that runs again is its live process's.
    for (const sid of this.liveSessions) if (!liveSessions.has(sid)) this.installs.noteGone(sid, this.launches.of(sid));
    for (const sid of liveSessions) this.installs.forgetRecorded(sid);
    this.liveSessions = liveSessions;
    for (const [sid, r] of this.installs.recordedInstalls()) if (!found.has(sid)) found.set(sid, r.install);
    // No live process and no flags recorded (a fresh --json, a monitor started after it went): the OMC its
    // transcript says Claude loaded its skills from, the same for every reader of the same files.
    for (const [sid, dir] of this.skillDirs) {
      if (found.has(sid) || liveSessions.has(sid)) continue;
      const i = this.installs.ofTranscript(dir);
      if (i) found.set(sid, i);
    }
    if (push) {
      this.opts.sessions.setSessionProcesses(processes, false);
      this.opts.sessions.setSessionInstalls(found, true, true);
    }
    return found;
  }

  /** Each session's OMC skill directory, as its transcript names it (transcript-facts.ts `omcSkillDir`). */
  private skillDirs: ReadonlyMap<string, string> = new Map();

  /** Sessions with a live process at the last findInstalls. */
  private liveSessions: ReadonlySet<string> = new Set();

  /**
   * What each followed transcript says of the session's next Stop payload: `stop_hook_active` is true
   * on every Stop after a Stop-hook block in the same turn (a turn still open that saw a block), and
   * the context use the hook reads off the transcript's tail. Unknown while a transcript is still
   * being read.
   */
  private pushStopFacts(): void {
    const facts = new Map<string, StopFacts>();
    const dirs = new Map<string, string>();
    let dirsSame = true;
    // forEach, not `for (const [sid, r] of …)`: see "Cold loops" in docs/ARCHITECTURE.md.
    this.readers.forEach((r, sid) => {
      // The facts alone, not state(): a state object per reader per publish was 16,000 objects before `live`.
      // A reader that never read a line has no facts to make for this.
      const f = r.factsIfAny;
      const dir = f?.omcSkillDir?.dir;
      if (dir !== undefined) {
        dirs.set(sid, dir);
        if (this.skillDirs.get(sid) !== dir) dirsSame = false;
      }
      if (r.behind) return;
      if (f === null || f.lastLineMs === null) return;
      facts.set(sid, { stopHookActive: f.turnOpen && f.turnBlocks > 0, transcriptPercent: r.contextPercent() });
    });
    this.opts.sessions.setStopFacts(facts);
    // A transcript that now names where OMC's skills came from (or a session's reader gone): judged by it.
    if (!dirsSame || dirs.size !== this.skillDirs.size) {
      this.skillDirs = dirs;
      this.findInstalls();
    }
  }

  /**
   * Entries that were there at the last read and are not now: the CLI removes its entry on a clean exit
   * (a SIGKILL leaves it). Their last view is kept as "exited" (or still "gone" when it was already).
   */
  private noteDepartures(next: readonly RegistryEntry[]): void {
    if (this.entries.length === 0) return;
    const still = new Set(next.map((e) => e.rel));
    const now = this.clock();
    for (const e of this.entries) {
      if (still.has(e.rel)) continue;
      const last = this.procViews.get(e.sessionId);
      if (!last || last.pid !== e.pid) continue;
      const gone = last.status === 'gone';
      this.departed.delete(e.sessionId);
      this.departed.set(e.sessionId, {
        ...last,
        status: gone ? 'gone' : 'exited',
        since: gone ? last.since : now,
        reason: gone
          ? last.reason
          : `pid ${e.pid} exited (omc-top saw its registry entry removed, as the CLI does on a clean exit)`,
        waitingFor: null,
        // An ended process runs nothing: neither beside others nor elsewhere.
        alsoPids: [],
        elsewhere: null,
        // Who holds its pane is judged again at each look (markTakenPanes).
        paneNow: null,
      });
      if (this.departed.size > MAX_DEPARTED) this.departed.delete(this.departed.keys().next().value as string);
    }
  }

  /** Which transcripts to follow: every registered session, and every OMC session of this project. */
  private wantedTranscripts(): Map<string, string> {
    const want = new Map<string, string>();
    if (this.opts.transcripts === false) return want;
    for (const e of this.entries) {
      // Where the chosen process of the session writes it (Claude Code files a transcript under its own cwd).
      const chosen = this.procViews.get(e.sessionId);
      if (e.cwd && (!chosen || chosen.pid === e.pid)) want.set(e.sessionId, transcriptRel(e.cwd, e.sessionId));
    }
    // An exited process's transcript holds its final figures (written as it exited).
    for (const [sid, p] of this.departed)
      if (p.cwd && !want.has(sid) && want.size < MAX_TRANSCRIPTS) want.set(sid, transcriptRel(p.cwd, sid));
    const snap = this.opts.sessions.getSnapshot();
    let boundary: SessionView | null = null;
    for (const s of snap.sessions) {
      if (s.kind !== 'session' || want.has(s.id)) continue;
      const rel = this.omcTranscriptRel(s);
      if (rel) want.set(s.id, rel);
      if (want.size >= MAX_TRANSCRIPTS) {
        boundary = s;
        break;
      }
    }
    const dir = this.opts.projectDir;
    if (this.opts.history && dir && path.isAbsolute(dir))
      for (const sid of this.opts.history.ids()) {
        if (want.size >= MAX_TRANSCRIPTS) break;
        if (!want.has(sid)) want.set(sid, transcriptRel(dir, sid));
      }
    this.wantedFrom = { snap, boundary };
    return want;
  }

  private omcTranscriptRel(s: SessionView): string | null {
    const cwd = s.cwd ?? this.opts.projectDir;
    return cwd && path.isAbsolute(cwd) ? transcriptRel(cwd, s.id) : null;
  }

  /** The sessions snapshot the wanted transcripts were last judged on, and the last OMC session the cap let in. */
  private wantedFrom: { snap: SessionsSnapshot; boundary: SessionView | null } | null = null;

  /**
   * After an OMC state change: whether the sessions' delta leaves the wanted transcripts as they are, so a change
   * costs that change and not a pass over the first MAX_TRANSCRIPTS sessions. It does when every changed session
   * keeps its transcript (or stays past the cap), and no session that went had one; anything else, judge again.
   */
  private wantedStillHold(): boolean {
    const w = this.wantedFrom;
    const snap = this.opts.sessions.getSnapshot();
    const delta = w ? deltaSince(w.snap, snap) : null;
    if (!w || !delta) return false;
    const { boundary } = w;
    for (const v of delta.removed) if (this.readers.has(v.id) || v === boundary) return false;
    for (const v of delta.changed) {
      if (v.kind !== 'session') continue; // the session-less row has no transcript
      if (boundary && v.id === boundary.id) return false;
      const rel = this.omcTranscriptRel(v);
      const had = this.readers.get(v.id)?.rel;
      // Past the cap before and after: still not followed.
      if (boundary && had === undefined && compareSessions(v, boundary) > 0) continue;
      if (had === undefined || had !== rel || (boundary && compareSessions(v, boundary) > 0)) return false;
    }
    this.wantedFrom = { snap, boundary };
    return true;
  }

  /** `fullRead`: re-read every transcript (scans, registry changes), not only newly wanted ones. */
  private syncTranscripts(fullRead = true): void {
    if (this.disposed || !this.settled) return;
    if (!fullRead && this.live && this.wantedStillHold()) {
      // Whose a transcript's problem is depends on the sessions (transcriptOwner): said again when one is held.
      if (this.heldProblems) this.publish();
      return;
    }
    const want = this.wantedTranscripts();
    let removed = false;
    // forEach over the per-session maps (deleting the entry it is on is allowed, as in for...of): see "Cold
    // loops" in docs/ARCHITECTURE.md.
    this.readers.forEach((r, sid) => {
      if (want.get(sid) !== r.rel) {
        this.readers.delete(sid);
        this.unlistDir(sid, r.rel);
        removed = true;
      }
    });
    const added: string[] = [];
    want.forEach((rel, sid) => {
      if (!this.readers.has(sid)) {
        this.readers.set(sid, new TranscriptReader(this.dir, rel));
        this.listDir(sid, rel);
        added.push(sid);
      }
    });
    if (removed || added.length > 0) {
      this.readersMoved = true;
      this.subagents.follow(this.readers);
    }
    // Live, the directory watches announce growth: an OMC state change (a ralph iteration) must
    // not reopen every transcript, only read the ones it made us want.
    if (fullRead || !this.live) this.readTranscripts();
    else if (added.length > 0 || removed) this.readTranscripts(added);
    if (this.live) this.watchProjectDirs();
  }

  /**
   * Reads what was appended, within one slice's byte budget when live (a first read of 200
   * transcripts of 10 MB is 2 GB: it continues on the next turns of the event loop, so keys
   * and frames are never held up for more than one slice).
   */
  private readTranscripts(only?: Iterable<string>, slice = false): void {
    // Iterated in place (a catch-up slice passes `behind`, which the loop changes only at the id it is on).
    const ids = only ?? this.readers.keys();
    let budget = this.live ? SLICE_BYTES : Number.MAX_SAFE_INTEGER;
    if (this.catchUpHeld) budget = Math.min(budget, this.beforeLiveLeft);
    const given = budget;
    // A project folder that is not there holds no transcript: one lstat per folder instead of a failed open (and
    // its exception) per session. At start-up every OMC session of a project without Claude data is such a reader
    // (a project Claude Code never ran in, the OMC sessions of a fleet's idle projects); the folder's watch
    // (watchProjectDirs) reads them once it appears.
    const missing = new Map<string, boolean>();
    const folderMissing = (rel: string): boolean => {
      const dir = path.posix.dirname(rel);
      let m = missing.get(dir);
      if (m === undefined) missing.set(dir, (m = isMissingSync(this.dir, dir)));
      return m;
    };
    for (const sid of ids) {
      const r = this.readers.get(sid);
      if (!r) {
        // No longer wanted (its reader was dropped): nothing of it is behind.
        this.behind.delete(sid);
        continue;
      }
      if (r.nextOffset === 0 && folderMissing(r.rel)) {
        this.behind.delete(sid);
        continue;
      }
      if (budget <= 0) {
        this.behind.add(sid);
        continue;
      }
      const before = r.nextOffset;
      // A missing file changes nothing in a reader (refresh returns 'missing'): not opening it is the same.
      const gone = folderMissing(r.rel);
      if (!gone) r.refresh(budget);
      budget -= Math.max(0, r.nextOffset - before);
      const sub = this.subagents.read(sid, budget, gone);
      budget -= sub.bytes;
      if (r.behind || sub.behind) this.behind.add(sid);
      else this.behind.delete(sid);
    }
    if (this.catchUpHeld) this.beforeLiveLeft -= given - budget;
    // A catch-up slice that another slice follows publishes at most once per frame: the screen shows no more
    // (Ink draws at most 30 frames a second) and a slice takes a few ms, so publishing each one rebuilt the
    // snapshot and re-rendered the list several times per frame, garbage that outlived the slice's scavenges
    // and fragmented the old generation. The last slice always publishes.
    const more = slice && this.behind.size > 0 && !this.catchUpHeld;
    const now = performance.now();
    if (!more || now - this.lastSlicePublish >= FRAME_MS) {
      this.lastSlicePublish = now;
      this.publish();
    }
    if (!(this.catchUpHeld && this.beforeLiveLeft <= 0)) this.queueCatchUp();
  }

  /** The next slice of what is behind, on the next turn of the event loop (one queued at a time). */
  private queueCatchUp(): void {
    if (this.behind.size === 0 || !this.live || this.catchUp) return;
    this.catchUp = setImmediate(() => {
      this.catchUp = null;
      if (this.disposed) return;
      // The set itself, not a copy: a slice deletes what it caught up and leaves the rest where it was (the same
      // order). Cleared and refilled, the set's table was regrown from empty at every slice (~500 in a 2 GB
      // catch-up), garbage that lived past the slice's scavenges: 3 MB of what the catch-up promoted.
      this.readTranscripts(this.behind, true);
    });
  }

  /**
   * The view of each registered process last judged running, while its /proc entry is held open: the liveness
   * tick asks such a process with one read of that descriptor and keeps its view (nothing read by path, nothing
   * parsed or allocated), so an idle tick costs one system call per process. The entry objects are the
   * registry's last read: a registry event brings new ones, judged afresh.
   */
  private runningViews = new WeakMap<RegistryEntry, ProcessView>();

  /**
   * The prompts omc-top's permission hook holds now, by the pid of the Claude that asked (its `claude_pid`): that
   * Claude waits on a prompt, whatever its registry entry says yet (Claude Code writes `waiting` on its own time; with
   * two Claudes on one session an entry still `idle` made the prompt a second item beside an "idle loop").
   */
  private heldPrompts: ReadonlyMap<number, HeldPrompt> = new Map();
  private heldViews = new WeakMap<ProcessView, { held: HeldPrompt; view: ProcessView }>();

  /** The prompts the permission hook holds (the store's permissions domain): the processes that asked wait. */
  setHeldPrompts(held: readonly HeldPrompt[]): void {
    const next = new Map(held.map((h) => [h.pid, h]));
    const same =
      next.size === this.heldPrompts.size &&
      [...next].every(([pid, h]) => {
        const was = this.heldPrompts.get(pid);
        return was?.sessionId === h.sessionId && was.sinceMs === h.sinceMs;
      });
    if (same) return;
    this.heldPrompts = next;
    if (this.judgeAll()) this.publish();
  }

  /**
   * A live process omc-top's hook holds a prompt of, its entry still busy or idle from before the prompt: it waits
   * on that prompt (since the prompt was asked).
   */
  private withHeldPrompt(pv: ProcessView): ProcessView {
    const held = this.heldPrompts.get(pv.pid);
    if (!held || held.sessionId !== pv.sessionId) return pv;
    // The registry caught up (`waiting`, written after the prompt): the same wait, dated from the prompt still, so
    // the waiting item keeps its id (its date is in it) and is not told anew when Claude Code rewrites its entry.
    const caughtUp = pv.status === 'waiting' && pv.since !== null && pv.since >= held.sinceMs;
    if (!caughtUp) {
      if (pv.status !== 'busy' && pv.status !== 'idle') return pv;
      // Only an entry not rewritten since the prompt was asked: a later busy or idle is Claude having moved on.
      if (pv.since !== null && pv.since > held.sinceMs) return pv;
    }
    const kept = this.heldViews.get(pv);
    if (kept?.held === held) return kept.view;
    const view: ProcessView = caughtUp
      ? { ...pv, since: held.sinceMs }
      : { ...pv, status: 'waiting', waitingFor: 'permission prompt', since: held.sinceMs };
    this.heldViews.set(pv, { held, view });
    return view;
  }

  private processView(e: RegistryEntry): ProcessView {
    const kept = this.runningViews.get(e);
    if (kept && e.procStart !== null && this.probe.holds?.stillRunning(e.pid, e.procStart) === true) return kept;
    const view = this.judgedView(e);
    // Held only once seen running with the start the entry records (checked again on the held descriptor): from
    // then on the verdict depends on the entry alone until that process is gone.
    if (view.status !== 'gone' && e.procStart !== null && this.probe.holds?.hold(e.pid, e.procStart))
      this.runningViews.set(e, view);
    else this.runningViews.delete(e);
    if (view.status === 'gone') this.goneEntries.add(e);
    else this.goneEntries.delete(e);
    return view;
  }

  /**
   * Entries last judged gone (a SIGKILLed or crashed CLI's file, left behind): the process they name cannot come
   * back (a new one with that pid has another start), so one of them does not make every tick judge every
   * process by path; the held checks judge them again (the reason can change when the pid is reused).
   */
  private goneEntries = new WeakSet<RegistryEntry>();

  /**
   * Processes this domain judged running (by pid and start): null while they run, then the moment it first judged
   * them gone. A kill changes no file, so a process seen running is dated gone from when it was seen gone (at most
   * one held check after the last look that found it running), not by its last sign of life, which for an idle
   * Claude can be long before.
   */
  private readonly watchedLives = new Map<string, number | null>();

  /** When this domain saw the process gone, if it saw it run before; null when it never saw it run. */
  private seenGoneAt(e: RegistryEntry, status: string): number | null {
    const key = `${e.pid}:${e.procStart ?? ''}`;
    if (status === 'busy' || status === 'idle' || status === 'waiting') {
      if (!this.watchedLives.has(key)) {
        this.watchedLives.set(key, null);
        if (this.watchedLives.size > MAX_WATCHED_LIVES)
          this.watchedLives.delete(this.watchedLives.keys().next().value as string);
      }
      return null;
    }
    if (status !== 'gone' || !this.watchedLives.has(key)) return null;
    let at = this.watchedLives.get(key) ?? null;
    if (at === null) this.watchedLives.set(key, (at = this.clock()));
    return at;
  }

  private judgedView(e: RegistryEntry): ProcessView {
    const v = judgeProcess(e, this.probe);
    const seenGone = this.seenGoneAt(e, v.status);
    // Gone and never seen running by this domain: dated by its last sign of life on disk (said as such).
    const since =
      v.status === 'gone'
        ? (seenGone ?? lastSignOfLife(e))
        : (e.statusUpdatedAt ?? e.updatedAt ?? e.startedAt ?? e.mtimeMs);
    return {
      pid: e.pid,
      sessionId: e.sessionId,
      status: v.status,
      reason: v.reason,
      since,
      ...(v.status === 'gone' ? { goneDatedBy: seenGone !== null ? 'seen-gone' : 'last-sign-of-life' } : {}),
      entrypoint: e.entrypoint,
      version: e.version,
      kind: e.kind,
      name: e.name,
      tmux: e.tmux,
      messagingSocketPath: e.messagingSocketPath,
      tmuxWhere: this.placeOf(e),
      cwd: e.cwd,
      waitingFor: e.waitingFor,
      procStart: e.procStart,
      startedAt: e.startedAt,
      registryRel: e.rel,
    };
  }

  /**
   * Verdicts are computed when the registry is read and on the liveness tick, not on every
   * publish: a transcript catch-up publishes hundreds of times, each would re-read /proc.
   * Returns whether any session's verdict moved (the tick publishes only then).
   */
  private judgeAll(): boolean {
    const by = new Map<string, ProcessView>();
    // Sessions that more than one still-running process names (rare: two terminals resumed one session).
    let several: Map<string, ProcessView[]> | null = null;
    // The live Claudes by the tmux pane the registry places them in: a dead one's pane may be one of these now.
    const holders = new Map<string, ProcessView[]>();
    for (const e of this.entries) {
      const pv = this.withHeldPrompt(this.processView(e));
      if (pv.tmux !== null && processRank(pv) === 0) holders.set(pv.tmux, [...(holders.get(pv.tmux) ?? []), pv]);
      const prev = by.get(e.sessionId);
      if (prev) {
        several ??= new Map();
        const all = several.get(e.sessionId) ?? [prev];
        all.push(pv);
        several.set(e.sessionId, all);
        // The one choice rule (choice.ts): live first, then one whose hooks read this root, then the newest.
        if (compareChoice(prev, pv, this.hooksHere) <= 0) continue;
      }
      by.set(e.sessionId, pv);
    }
    // Copies, never the kept views: the chosen one says which others run the session, and where its hooks read.
    const otherViews = new Map<number, ProcessView>();
    several?.forEach((all, sid) => {
      const { chosen, others } = chooseProcess(all, this.hooksHere);
      // A prompt of another of its processes is the session's need (one Claude asks at a time; the oldest wait first).
      const peer =
        chosen && chosen.status !== 'waiting'
          ? (all
              .filter((v) => v.pid !== chosen.pid && v.status === 'waiting')
              .sort((x, y) => (x.since ?? 0) - (y.since ?? 0) || x.pid - y.pid)[0] ?? null)
          : null;
      if (chosen && others.length > 0)
        by.set(sid, { ...chosen, alsoPids: others, ...(peer ? { waitingPeer: peer } : {}) });
      for (const v of all) if (v.pid !== chosen?.pid) otherViews.set(v.pid, v);
    });
    const othersMoved = !sameOthers(this.otherViews, otherViews);
    if (othersMoved) this.otherViews = otherViews;
    by.forEach((pv, sid) => {
      if (pv.cwd === null || !stillRuns(pv) || this.hooksHere(pv.cwd) !== false) return;
      // Kept with the view it copies: a judgement that keeps a held process's view keeps this one too.
      let away = this.awayViews.get(pv);
      if (!away) this.awayViews.set(pv, (away = { ...pv, elsewhere: pv.cwd }));
      by.set(sid, away);
    });
    // A session whose process exited, unless another process of it (a resume) is registered now. An entry that has
    // ended too loses to it when it started before (the file a killed process left behind, beside the resume that
    // then exited cleanly): a session whose newer process was seen never falls back to an older one.
    for (const [sid, pv] of this.departed) {
      const registered = by.get(sid);
      if (registered && compareChoice(registered, pv) <= 0) continue;
      by.set(sid, { ...pv, tmuxWhere: this.placeOf(pv) });
    }
    if (holders.size > 0) this.markTakenPanes(by, holders);
    const prev = this.procViews;
    this.procViews = by;
    if (othersMoved) this.othersPending = true;
    if (prev.size !== by.size || othersMoved) return true;
    for (const [sid, pv] of by) {
      const old = prev.get(sid);
      // What the probe and the clock can move between two registry reads; the rest comes from the entry.
      if (
        !old ||
        old.status !== pv.status ||
        old.reason !== pv.reason ||
        old.since !== pv.since ||
        old.pid !== pv.pid ||
        old.tmuxWhere !== pv.tmuxWhere ||
        (old.elsewhere ?? null) !== (pv.elsewhere ?? null) ||
        !sameHolder(old.paneNow, pv.paneNow) ||
        !samePeer(old.waitingPeer, pv.waitingPeer) ||
        !samePids(old.alsoPids, pv.alsoPids)
      )
        return true;
    }
    return false;
  }

  /**
   * A session whose process has ended, in a tmux pane the registry now places another live Claude in (a plain
   * `claude` started where the killed one ran): its view names that Claude (ProcessView.paneNow), so J does not land
   * in that Claude's prompt and the advice is r. The same pane is the registry's whole `session:@window.%pane` (ids
   * repeat across tmux servers, the session name tells them apart), and not two processes known to be on different
   * servers ($TMUX, read while they ran).
   */
  private markTakenPanes(by: Map<string, ProcessView>, holders: ReadonlyMap<string, ProcessView[]>): void {
    by.forEach((pv, sid) => {
      if (pv.tmux === null || stillRuns(pv)) return;
      const deadSocket = this.tmuxSockets.get(`${pv.pid}:${pv.procStart ?? ''}`) ?? null;
      const holder = (holders.get(pv.tmux) ?? [])
        .filter((h) => h.pid !== pv.pid)
        .find((h) => {
          const socket = deadSocket === null ? null : this.tmuxSocketOf(h.pid, h.procStart);
          return deadSocket === null || socket === null || socket === deadSocket;
        });
      if (holder) by.set(sid, { ...pv, paneNow: { pid: holder.pid, name: holder.name, sessionId: holder.sessionId } });
    });
  }

  /** A reader the views list: something read, or a problem to say (else the session has no transcript view). */
  private listed(r: TranscriptReader): boolean {
    return !(r.nothingRead && (r.factsIfAny?.lastLineMs ?? null) === null && r.problemText === null);
  }

  /**
   * Each session the snapshot lists, in its order (registered processes first, then sessions known only by their
   * transcript), with its transcript reader when that is listed.
   */
  private eachSession(fn: (sid: string, pv: ProcessView | null, r: TranscriptReader | null) => void): void {
    this.procViews.forEach((pv, sid) => {
      const r = this.readers.get(sid);
      fn(sid, pv, r && this.listed(r) ? r : null);
    });
    this.readers.forEach((r, sid) => {
      if (!this.procViews.has(sid) && this.listed(r)) fn(sid, null, r);
    });
  }

  /** Fills the scratch read state for `r` (null: no transcript in the view). */
  private readState(sid: string, r: TranscriptReader | null): ReadState | null {
    if (!r) return null;
    const s = this.scratchRead;
    s.version = r.version;
    s.subagentsVersion = this.subagents.version(sid);
    s.behind = r.behind;
    s.problem = r.problemText;
    return s;
  }

  /**
   * Whether a followed session's transcript is this project's: one of its OMC sessions or of its run history (their
   * transcripts are followed wherever the Claude ran), else the session's Claude process, when its hooks read this
   * root (hooksHere: the rule that tells a Claude working elsewhere; unknown counts, as for the join). Made only when
   * a transcript has a problem to say.
   */
  private transcriptOwner(): (sid: string) => boolean {
    const index = sessionIndex(this.opts.sessions.getSnapshot()).byKey;
    let history: Set<string> | null = null;
    return (sid) => {
      if (index.get(sid)?.kind === 'session') return true;
      history ??= new Set(this.opts.history?.ids() ?? []);
      if (history.has(sid)) return true;
      const pv = this.procViews.get(sid);
      return pv !== undefined && this.hooksHere(pv.cwd) !== false;
    };
  }

  /** Some followed transcript had a problem at the last publish (said or not: transcriptOwner decides). */
  private heldProblems = false;

  private publish(): void {
    this.pushStopFacts();
    const problems = [...this.registryProblems];
    // The readers cover every Claude of the registry (the machine's): a transcript's problem is this project's
    // only when its Claude is (ownsTranscript), else every project's monitor would say it.
    let owns: ((sid: string) => boolean) | null = null;
    this.readers.forEach((r, sid) => {
      const message = r.problemText;
      if (message && (owns ??= this.transcriptOwner())(sid))
        problems.push({ path: `${this.label}/${r.rel}`, message, severity: 'warning' });
    });
    this.subagents.eachProblem((sid, rel, message) => {
      if ((owns ??= this.transcriptOwner())(sid))
        problems.push({ path: `${this.label}/${rel}`, message, severity: 'warning' });
    });
    this.heldProblems = owns !== null;
    // Republish only on change: the liveness timer runs every 2 s and must not repaint an idle screen. Compared
    // field by field against what was last published (published-views.ts: no key string, no view per session).
    let changed =
      this.othersPending ||
      this.registryMissing !== this.lastRegistryMissing ||
      problems.length !== this.lastProblems.length ||
      problems.some((p, i) => p.path !== this.lastProblems[i]?.path || p.message !== this.lastProblems[i]?.message);
    let at = 0;
    if (!changed)
      this.eachSession((sid, pv, r) => {
        if (changed) return;
        const prev = this.published.get(sid);
        changed = this.publishedOrder[at] !== sid || !prev || !sameListing(prev, pv, this.readState(sid, r));
        at += 1;
      });
    if (!changed && at === this.publishedOrder.length) return;
    // A session whose view did not change keeps its object, so its row is not re-rendered.
    const round = (this.publishRound += 1);
    const by = new Map<string, ClaudeSessionView>();
    const order: string[] = [];
    this.eachSession((sid, pv, r) => {
      const read = this.readState(sid, r);
      let entry = this.published.get(sid);
      if (!entry || !sameView(entry, pv, read)) {
        entry = { view: this.freshView(sid, pv, r), process: pv, read: read && { ...read }, round };
        this.published.set(sid, entry);
      }
      entry.round = round;
      by.set(sid, entry.view);
      order.push(sid);
    });
    for (const [sid, entry] of this.published) if (entry.round !== round) this.published.delete(sid);
    this.publishedOrder = order;
    this.lastProblems = problems;
    this.lastRegistryMissing = this.registryMissing;
    this.othersPending = false;
    this.version += 1;
    this.cell.set({
      version: this.version,
      configDir: this.dir,
      rule: this.config.rule,
      bySession: by,
      ...(this.otherViews.size > 0 ? { others: this.otherViews } : {}),
      problems,
      registryMissing: this.registryMissing,
    });
  }

  private freshView(sid: string, pv: ProcessView | null, r: TranscriptReader | null): ClaudeSessionView {
    let transcript: TranscriptView | null = null;
    if (r) {
      const st = r.state();
      transcript = {
        rel: r.rel,
        facts: this.subagents.facts(sid, st.facts, r.version),
        subagents: this.subagents.summary(sid),
        subagentsReading: this.subagents.reading(sid),
        transcriptReading: r.behind,
        size: st.size,
        partialFrom: st.partialFrom,
        longLines: st.longLines + this.subagents.longLines(sid),
        problem: st.problem,
      };
      const subPartial = this.subagents.partial(sid);
      if (subPartial !== null) transcript.subagentsPartial = subPartial;
    }
    const waiting = pv?.status === 'waiting' ? waitingFact(pv, transcript?.facts ?? null) : null;
    return { sessionId: sid, process: pv, transcript, waiting };
  }

  /** Following the shared registry (its reads and ticks); null when this domain reads and ticks itself. */
  private unfollow: (() => void) | null = null;

  private ensureWatching(): void {
    const shared = this.opts.registry;
    if (shared) {
      this.unfollow ??= shared.follow({
        registry: () => {
          if (this.disposed) return;
          this.readRegistryNow();
          this.syncTranscripts();
        },
        tick: (heldCheck) => this.tick(heldCheck),
      });
      return;
    }
    this.watch('sessions', () => {
      // Coalesce a burst (a status change rewrites the file: several events).
      if (this.registryTimer) return;
      this.registryTimer = setTimeout(() => {
        this.registryTimer = null;
        if (this.disposed) return;
        this.readRegistryNow();
        this.syncTranscripts();
      }, 25);
    });
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(++this.ticks % HELD_CHECK_TICKS === 0), LIVENESS_MS);
      this.timer.unref();
    }
  }

  /** `heldCheck`: the processes held open are asked too (every HELD_CHECK_TICKS-th tick). */
  private tick(heldCheck: boolean): void {
    if (this.disposed) return;
    // The sessions/ dir may appear later (first CLI start): watch it then (a shared reader does that itself).
    if (!this.opts.registry && !this.watchers.has('sessions')) {
      const moved = this.readRegistryNow();
      this.ensureWatching();
      // Only when the registry directory has just appeared: re-reading every wanted transcript every tick
      // while it is absent (Claude Code never ran here, or an older CLI) cost idle CPU for nothing. Until
      // then transcripts follow their project directories' watches, as they do once it exists.
      if (this.watchers.has('sessions')) this.syncTranscripts();
      else this.watchProjectDirs();
      if (this.judgeAll() || moved) this.publish();
      return;
    }
    // Idle, this is the whole tick: when every registered process is held, one read per process every
    // HELD_CHECK_MS, and a publish only when a verdict moved. Transcripts are not looked at (their directory
    // watches announce growth), nor are the readers' directories walked unless one of them still lacks its watch.
    this.watchProjectDirs();
    if (!heldCheck && this.allHeld()) return;
    if (this.heldStillRunning()) return;
    if (this.judgeAll()) {
      // A process found gone without a registry event (a SIGKILL leaves its entry): its session is judged by
      // its recorded flags from now on, not by the live process's OMC nor the project's.
      this.findInstalls();
      this.publish();
    }
  }

  /** Liveness ticks of this domain's own timer (not counted when it follows a shared registry). */
  private ticks = 0;

  /**
   * Every registered process was judged running and is held open, or judged gone: only a SIGKILL or a crash can
   * change a verdict without a registry event, and the held check (every HELD_CHECK_MS) is what finds that.
   * Nothing is read here.
   */
  private allHeld(): boolean {
    if (!this.probe.holds) return false;
    for (const e of this.entries)
      if (!this.goneEntries.has(e) && (!this.runningViews.has(e) || e.procStart === null)) return false;
    return true;
  }

  /** Every registered process was judged running and its held descriptor says it still is: nothing can have moved. */
  private heldStillRunning(): boolean {
    const holds = this.probe.holds;
    if (!holds) return false;
    for (const e of this.entries)
      if (!this.runningViews.has(e) || e.procStart === null || holds.stillRunning(e.pid, e.procStart) !== true)
        return false;
    return true;
  }

  private listDir(sid: string, rel: string): void {
    const d = path.posix.dirname(rel);
    const sids = this.readerDirs.get(d);
    if (sids) sids.add(sid);
    else this.readerDirs.set(d, new Set([sid]));
  }

  private unlistDir(sid: string, rel: string): void {
    const d = path.posix.dirname(rel);
    const sids = this.readerDirs.get(d);
    if (sids?.delete(sid) && sids.size === 0) this.readerDirs.delete(d);
  }

  private watchProjectDirs(): void {
    if (!this.readersMoved && this.allDirsWatched) return;
    const projects = statSync(this.dir, 'projects')?.ctimeMs ?? -1;
    if (!this.readersMoved && projects === this.projectsTried) return;
    this.projectsTried = projects;
    this.readersMoved = false;
    const dirs = this.readerDirs;
    let all = true;
    // Over a copy of the directories (a few): a read below publishes, and what follows may change the readers.
    for (const [d, sids] of [...dirs]) {
      const fresh = this.watch(d, (file) => {
        if (!file) return this.readTranscripts();
        const sid = file.replace(/\.jsonl$/, '');
        if (this.readers.has(sid)) this.readTranscripts(new Set([sid]));
      });
      // A directory that appeared after the last read may already hold lines no event will announce.
      if (fresh) this.readTranscripts([...sids]);
      if (!this.watchers.has(d)) all = false;
    }
    this.allDirsWatched = all;
    for (const [d, w] of this.watchers)
      if (d !== 'sessions' && !dirs.has(d)) {
        w.close();
        this.watchers.delete(d);
      }
  }

  /** One plain fs.watch per directory (no recursion, no chokidar walk); missing dirs are retried by the tick. */
  /** Returns true when a new watch was set up. */
  private watch(rel: string, onEvent: (file: string | null) => void): boolean {
    if (this.watchers.has(rel) || this.disposed) return false;
    try {
      const w = fs.watch(path.join(this.dir, rel), { persistent: false }, (_t, f) => onEvent(f ? String(f) : null));
      w.on('error', () => {
        w.close();
        this.watchers.delete(rel);
        this.allDirsWatched = false; // the tick sets it up again
        this.projectsTried = null;
      });
      this.watchers.set(rel, w);
      return true;
    } catch {
      return false; // not there yet: the tick tries again
    }
  }

  /** The config directory read now (useConfig may have switched it). */
  get configRead(): ClaudeConfigDir {
    return this.config;
  }

  /**
   * Reads `config` from now on (config-look.ts: the project's Claudes run with it). Another directory than the one
   * read: everything read of the old one is dropped (its processes, transcripts, exits seen, watches) and the new one
   * read afresh, so no row keeps a status the new directory did not say. The first call also settles a domain made
   * with `settleFirst`. A domain following a shared registry (a fleet's) keeps its directory.
   */
  useConfig(config: ClaudeConfigDir): void {
    if (this.disposed || this.opts.registry) return;
    const wasSettled = this.settled;
    this.settled = true;
    const moved = config.dir !== this.dir;
    if (moved) this.forget();
    this.config = config;
    this.dir = config.dir;
    this.label = labelOf(config);
    // The subagent files wait for `live` as they did for the old directory (read at once once it is live).
    if (moved)
      this.subagents = this.subagentTracker(this.live && this.opts.deferUntilLive === true && !this.deferredStarted);
    if (moved || config.rule !== this.cell.getSnapshot().rule) this.lastRegistryMissing = null; // publish once
    if (!this.scanAsked) return;
    if (moved || !wasSettled) this.scan();
    else this.publish();
  }

  /** Drops what was read of the directory read until now (useConfig). */
  private forget(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.registryTimer) clearTimeout(this.registryTimer);
    this.registryTimer = null;
    if (this.catchUp) clearImmediate(this.catchUp);
    this.catchUp = null;
    this.probe.holds?.retain(new Set());
    this.subagents.dispose();
    this.entries = [];
    this.procViews = new Map();
    this.registryProblems = [];
    this.registryMissing = true;
    this.readers.clear();
    this.readerDirs.clear();
    this.readersMoved = true;
    this.allDirsWatched = false;
    this.projectsTried = null;
    this.behind.clear();
    this.departed.clear();
    this.installs.clearProcesses();
    // Not "gone": the processes of the old directory were not seen to end, they are no longer looked at.
    this.liveSessions = new Set();
    this.runningViews = new WeakMap();
    this.goneEntries = new WeakSet();
    this.awayViews = new WeakMap();
    this.wantedFrom = null;
  }

  dispose(): void {
    this.disposed = true;
    this.unfollowTmux();
    this.unfollow?.();
    if (!this.opts.registry) this.probe.holds?.retain(new Set());
    this.subagents.dispose();
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.timer) clearInterval(this.timer);
    if (this.registryTimer) clearTimeout(this.registryTimer);
    if (this.catchUp) clearImmediate(this.catchUp);
  }
}

/** The same other processes, as far as a prompt's attribution reads them (who, where, whether it runs). */
function sameOthers(a: ReadonlyMap<number, ProcessView>, b: ReadonlyMap<number, ProcessView>): boolean {
  if (a.size !== b.size) return false;
  for (const [pid, v] of b) {
    const o = a.get(pid);
    if (
      !o ||
      o.sessionId !== v.sessionId ||
      o.status !== v.status ||
      o.name !== v.name ||
      o.tmux !== v.tmux ||
      o.tmuxWhere !== v.tmuxWhere
    )
      return false;
  }
  return true;
}
