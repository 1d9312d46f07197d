/**
 * One remote machine of the fleet: `omc-top watch --json --snapshot --rows`
 * run there over the user's own OpenSSH (their config, agent, ControlMaster:
 * only `-T` and `-o BatchMode=yes` are added, so a password prompt can never
 * hang the view), its stream parsed as hostile input, its rows kept by
 * session. A dropped connection is shown with its age and the next retry and
 * retried with back-off; a host without omc-top, or with one too old for the
 * row stream, says how to install it. A stream that goes silent without
 * closing (a laptop that slept, a NAT that dropped the flow) is told from a
 * quiet one by the `alive` lines the watch there writes: after
 * MISSED_ALIVE_LINES of them missed the host is lost and ssh restarted. Cancel
 * and pause run `omc-top cancel` there, whose exit code says whether it took;
 * one that does not answer in REMOTE_COMMAND_BOUND_MS is killed and said to be
 * unknown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { endChild, trackChild } from '../io/child-end.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanLine, truncate } from '../io/sanitize.js';
import { VERSION } from '../version.js';
import { remoteCwdArgs, shellQuote, type HostSpec } from '../config/host-spec.js';
import type { FleetGroup, FleetRow } from './model.js';
import { byAttention, groupNeedNote } from './model.js';
import { LineSplitter, MAX_LINE_BYTES, parseRemoteLine, type RemoteLine } from './remote-lines.js';
import { problemWords } from './problem-words.js';
import type { Problem } from '../store/types.js';
import { formatBytes } from '../io/safe-fs/index.js';
import { noLoopWords, rowIdentity, rowLabel, type RowModel } from '../feeds/row.js';
import { cancelTargetOf } from '../store/cancel/target.js';
import type { NeedItem } from '../feeds/attention/needs.js';
import { IDLE_LINE_MS } from '../feeds/json-line.js';
import { SIGNAL_TTL_MS } from '../store/cancel/signal.js';
import { CONNECT_ALLOWANCE_MS, SilenceWatch, START_BOUND_MS, silentAfterMs } from './remote-silence.js';
import { docPath } from '../io/doc-path.js';

/** What `watch` says at start about a bad config file (commands/watch.ts). */
const CONFIG_LINE = /^omc-top watch: config: /;

/** Who pushes for a remote project: this side (`fleet`), an omc-top there (`other`), or not said (yet). */
export type RemotePusher = 'fleet' | 'other' | 'unknown';

/** Retry delays after a drop: 1 s doubling to 30 s; back to 1 s once a connection went live. */
export const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000] as const;
/** Sessions kept per host; a stream naming more gets a problem line per extra row, not memory. */
export const MAX_REMOTE_ROWS = 20_000;
/** Problem lines of a host's project kept (a stream can name any number; the header says the count kept). */
export const MAX_REMOTE_PROBLEMS = 500;
/** Problem lines kept per host (the newest); the rest are counted. */
const MAX_PROBLEMS = 5;
/** The oldest remote omc-top whose stream has what a fleet row needs (`--rows`, `version` in ready). */
export const MIN_REMOTE_VERSION = '0.1.0';

/**
 * How long `omc-top cancel` (or `ack`) there may go unanswered before its ssh is killed: the 30 s of OMC's cancel
 * signal it writes (its own window: past it OMC no longer honours that signal, so a later answer would be about
 * something over) plus the connect allowance. The command itself does its work and checks it in well under a second.
 */
export const REMOTE_COMMAND_BOUND_MS = SIGNAL_TTL_MS + CONNECT_ALLOWANCE_MS;

export type RemotePhase = 'connecting' | 'live' | 'lost' | 'missing' | 'too-old';

export interface SshCommand {
  /** The ssh binary (default: `ssh` from PATH). */
  bin: string;
  /** Options before the destination (tests: `-F <their own config>`); nothing by default. */
  args: string[];
}

export interface RemoteHostOptions {
  spec: HostSpec;
  ssh?: SshCommand;
  clock?: () => number;
  /** Sessions kept (default MAX_REMOTE_ROWS; tests lower it). */
  maxRows?: number;
  /**
   * This side pushes (it has push channels): the stream is asked to take the project's push lease there
   * (`watch --push-lease`, fleet-lease.ts) and says whether an omc-top there pushes instead.
   */
  pushLease?: boolean;
  /** Tests shorten these: START_BOUND_MS, REMOTE_COMMAND_BOUND_MS. */
  startBoundMs?: number;
  commandBoundMs?: number;
  onChange(): void;
}

/**
 * How to put omc-top on a machine: the tarball, or this omc-top's own bundle folder. The bin loads the app and status
 * bundles from beside its real path, so the folder's files go together and the PATH gets a link to the bin (a lone
 * copy of the bin prints its version and fails at the first command that needs the app).
 */
export function installHint(dest: string): string {
  const dir = (() => {
    try {
      return path.dirname(fileURLToPath(import.meta.url));
    } catch {
      return 'dist';
    }
  })();
  // Short enough for the host's line on a wide screen; the installed fleet.md has the commands.
  return `install it there: npm install -g <the omc-top tarball>, or copy ${dir}/*.mjs to ${dest} together and link its omc-top.mjs onto the PATH (Node 20.19+; ${docPath('fleet.md')})`;
}

function older(version: string, min: string): boolean {
  if (version === 'dev') return false;
  const a = version.split('.').map((x) => Number.parseInt(x, 10));
  const b = min.split('.').map((x) => Number.parseInt(x, 10));
  for (let i = 0; i < 3; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (!Number.isFinite(x)) return true;
    if (x !== y) return x < y;
  }
  return false;
}

const secs = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

/** Closes this side of an ended child's pipes (another process it started may still hold the other side). */
const letGo = (child: ChildProcess) => {
  child.stdout?.destroy();
  child.stderr?.destroy();
};

/** Resolves once `child` has exited (at once if it has). */
const exitOf = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });

/** The refusal of a second cancel, pause or ack while the first is still waiting for its answer there. */
const stillWaiting = (what: string, leftMs: number) =>
  `${what} is still waiting for its answer (at most ${secs(leftMs)} more): not sent again`;

export class RemoteHost {
  readonly spec: HostSpec;
  phase: RemotePhase = 'connecting';
  /** Why it is not live, in words (ssh's own message, the install command). */
  message = '';
  version: string | null = null;
  project = '';
  private rows = new Map<string, RowModel>();
  /**
   * A reconnection's snapshot of the rows, until its `ready` replaces the last connection's (null: none pending).
   * Until then the old rows stay on screen as not live; after it they are exactly what the host reports now, so a
   * session that ended or was removed while the stream was down leaves (no line ever says it went).
   */
  private nextRows: Map<string, RowModel> | null = null;
  /** The project's problem lines there (its monitor's), by their key on the wire, as its stream last said. */
  private fileProblems = new Map<string, Problem>();
  /** This connection's snapshot of them, until its `ready` replaces the last connection's (null: taken). */
  private nextProblems: Map<string, Problem> | null = null;
  private problems: string[] = [];
  private problemCount = 0;
  private child: ChildProcess | null = null;
  private stderr = '';
  private lostAt: number | null = null;
  /** When the stream last said anything while it was live: the rows are as of then once it is not (leaveLive). */
  private heardLiveAt: number | null = null;
  private retryAt: number | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private attempt = 0;
  private stopped = false;
  private readonly ssh: SshCommand;
  private readonly clock: () => number;
  /** What needs the user there now, as the host's attention lines last said. */
  private open: NeedItem[] = [];
  private acked: NeedItem[] = [];
  /** Every item id seen since the first attention line (null before it): an id not in it is entering. */
  private known: Set<string> | null = null;
  private readonly needListeners = new Set<(entering: NeedItem[]) => void>();
  /** Who pushes for the project there, as the stream last said (`--push-lease`). */
  pusher: RemotePusher = 'unknown';
  /** That machine's plan quota as its stream last said it (narrow words: no countdown to go stale), or null. */
  private quota: string | null = null;
  /** The watch there has no `.omc` to read (not made yet, or gone): its words; null while it reads one. */
  private rootWaiting: string | null = null;
  /** When the plan's rate limit there ends, as the same line said (epoch ms), or null. */
  private quotaLimitedUntilMs: number | null = null;
  /** The remote omc-top knows `--push-lease` (false once it said it does not: an older omc-top). */
  private leaseKnown = true;
  /** How often the stream there writes `alive` when quiet (its ready line, or an alive line seen); null: unknown. */
  private aliveMs: number | null = null;
  /** This connection's `ready` came (before it, the connect allowance applies). */
  private readyHere = false;
  /** Why this connection was ended for its silence (kept as the lost message once ssh exits). */
  private silentMessage: string | null = null;
  /** The one timer that checks the stream's silence (remote-silence.ts). */
  private readonly silence: SilenceWatch;
  /** Cancels, pauses and acks there still waiting for their answer, by what they act on: when each gives up. */
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly opts: RemoteHostOptions) {
    this.spec = opts.spec;
    this.ssh = opts.ssh ?? { bin: 'ssh', args: [] };
    this.clock = opts.clock ?? Date.now;
    this.silence = new SilenceWatch(
      this.clock,
      () => (this.child && !this.stopped ? this.silenceBound() : null),
      (bound) => this.silenced(bound),
    );
  }

  private sshArgs(command: string): string[] {
    return [...this.ssh.args, '-T', '-o', 'BatchMode=yes', '--', this.spec.destination, command];
  }

  start(): void {
    if (this.stopped || this.child) return;
    this.clearRetry();
    if (this.phase !== 'lost') this.phase = 'connecting';
    this.stderr = '';
    this.pusher = 'unknown';
    this.readyHere = false;
    this.rootWaiting = null; // a connection says it again, before its ready, while it is so
    this.silentMessage = null;
    this.nextProblems = new Map();
    // A first connection's rows are shown as they come; a later one's replace the old at its `ready`.
    this.nextRows = this.rows.size > 0 ? new Map() : null;
    const lease = this.opts.pushLease === true && this.leaseKnown;
    const child = this.own(
      spawn(
        this.ssh.bin,
        this.sshArgs(
          `omc-top watch --json --snapshot --rows${lease ? ' --push-lease' : ''}${remoteCwdArgs(this.spec)}`,
        ),
        // With the lease, stdin stays open and is never written: its end tells the watch there that we are gone.
        { stdio: [lease ? 'pipe' : 'ignore', 'pipe', 'pipe'] },
      ),
    );
    this.child = child;
    const split = new LineSplitter(
      (line) => this.onLine(line),
      () => this.problem(`a line over ${formatBytes(MAX_LINE_BYTES)} was skipped`),
    );
    child.stdout?.on('data', (d: Buffer) => {
      // Any byte is a sign of life (a long line arrives in chunks); no timer is touched here.
      this.silence.heard();
      split.push(d);
    });
    child.stderr?.on('data', (d: Buffer) => {
      // Only the tail matters (the reason it ended); never unbounded.
      this.stderr = (this.stderr + d.toString('utf8')).slice(-4096);
    });
    child.on('error', (e) => {
      this.message = `ssh could not run: ${cleanLine(e.message)}`;
    });
    child.on('close', (code) => {
      if (this.child !== child) return;
      this.child = null;
      this.silence.stop();
      this.ended(code);
    });
    this.silence.begin();
    this.opts.onChange();
  }

  /**
   * How long this connection may say nothing: before `ready` the connect allowance plus the silence of a stream
   * that writes `alive` every IDLE_LINE_MS (every omc-top writes its rows and `ready` at start); after it, the
   * silence its `alive` period allows, or no bound for an omc-top there that writes no `alive` lines (its quiet
   * and a stall look the same).
   */
  private silenceBound(): number | null {
    if (!this.readyHere) return this.opts.startBoundMs ?? START_BOUND_MS;
    return this.aliveMs === null ? null : silentAfterMs(this.aliveMs);
  }

  /** Nothing for `bound`: the rows are no longer live; ssh is ended and started again with the back-off. */
  private silenced(bound: number): void {
    const child = this.child;
    // A too-old omc-top there is being ended already, for a reason of its own that stays on screen.
    if (!child || this.phase === 'too-old') return;
    this.leaveLive();
    this.silentMessage = this.readyHere
      ? `no line for ${secs(bound)} (the omc-top there writes one every ${secs(this.aliveMs ?? IDLE_LINE_MS)} even when quiet): the connection stalled; ssh restarted`
      : `no line for ${secs(bound)} before its ready line: ssh or the omc-top there hangs; ssh restarted`;
    if (this.phase !== 'lost') this.lostAt = this.silence.lastLineAt;
    this.phase = 'lost';
    this.message = this.silentMessage;
    this.opts.onChange();
    // Its close (ended) schedules the retry; the rows stay, shown as not live, until the new stream says more.
    // What ssh started (a wrapper's pipeline, a ProxyCommand) may hold its pipes open after it is gone: they are
    // let go, so that the close comes.
    void endChild(child).then(() => letGo(child));
  }

  private onLine(text: string): void {
    // Bytes already read may still arrive after stop(): nothing is reported for a stopped host.
    if (this.stopped) return;
    const l = parseRemoteLine(text);
    if (l.kind === 'bad') return this.problem(l.problem);
    if (l.kind === 'skip') return;
    if (l.kind === 'alive') {
      // An omc-top there whose ready line did not say: its alive lines do; from now its silence is bounded.
      if (this.aliveMs === null) {
        this.aliveMs = IDLE_LINE_MS;
        this.silence.rearm();
      }
      return;
    }
    if (l.kind === 'push-lease') {
      this.pusher = l.pusher;
      return this.opts.onChange();
    }
    if (l.kind === 'attention') return this.onAttention(l.open, l.acked);
    if (l.kind === 'problem') return this.onProblem(l);
    if (l.kind === 'root') {
      this.project = l.project;
      this.rootWaiting = l.waiting;
      return this.opts.onChange();
    }
    if (l.kind === 'quota') {
      this.quota = l.short;
      this.quotaLimitedUntilMs = l.limitedUntilMs;
      return this.opts.onChange();
    }
    if (l.kind === 'ready') {
      // This connection's snapshot listed every problem there now: the last connection's are let go.
      if (this.nextProblems !== null) this.fileProblems = this.nextProblems;
      this.nextProblems = null;
      // So were the rows: those of the last connection that this one did not list are gone there.
      if (this.nextRows !== null) this.rows = this.nextRows;
      this.nextRows = null;
      this.version = l.version;
      this.project = l.project;
      this.readyHere = true;
      if (l.aliveMs !== null) this.aliveMs = l.aliveMs;
      // From here the (shorter) silence bound holds: the timer set for the start bound is set anew, once.
      this.silence.rearm();
      if (l.version === null || older(l.version, MIN_REMOTE_VERSION)) {
        this.phase = 'too-old';
        this.message = `omc-top ${l.version ?? 'without a version'} on ${this.spec.destination} is too old for the fleet (needs ${MIN_REMOTE_VERSION}+, this is ${VERSION}): ${installHint(this.spec.destination)}`;
        if (this.child) void endChild(this.child);
      } else {
        this.phase = 'live';
        this.message = '';
        this.attempt = 0;
        this.lostAt = null;
      }
      this.opts.onChange();
      return;
    }
    this.project = l.project;
    // By identity: the session-less state and a directory named legacy are two rows (an older sender's
    // "legacy", which does not say which, stays one).
    const key = rowIdentity({ session: l.session, sessionless: l.sessionless ?? undefined });
    // Before a reconnection's `ready`: its snapshot, gathered apart (the old rows stay on screen until then).
    const into = this.nextRows ?? this.rows;
    if (l.row === null) into.delete(key);
    else if (into.has(key) || into.size < (this.opts.maxRows ?? MAX_REMOTE_ROWS)) into.set(key, l.row);
    // A stream can name any number of sessions; memory here cannot grow with it.
    else return this.problem(`more than ${this.opts.maxRows ?? MAX_REMOTE_ROWS} sessions: the rest are not shown`);
    if (into === this.rows) this.opts.onChange();
  }

  /**
   * The host's attention view: items not seen before are entering (the first line is only the baseline, as a
   * monitor's first picture is; after a reconnect, what arose while the stream was down is entering too).
   */
  private onAttention(open: NeedItem[], acked: NeedItem[]): void {
    this.open = open;
    this.acked = acked;
    const known = this.known;
    this.known = new Set([...open, ...acked].map((n) => n.id));
    const entering = known === null ? [] : open.filter((n) => !known.has(n.id));
    if (entering.length > 0) for (const l of [...this.needListeners]) l(entering);
    this.opts.onChange();
  }

  /** The project's problem lines there, as its stream last said them (the serve page's root lists them). */
  problemsNow(): Problem[] {
    return [...this.fileProblems.values()];
  }

  /** A problem line there listed (its snapshot), come or gone; at most MAX_REMOTE_PROBLEMS are kept. */
  private onProblem(l: Extract<RemoteLine, { kind: 'problem' }>): void {
    const into = l.snapshot && this.nextProblems !== null ? this.nextProblems : this.fileProblems;
    if (l.severity === null) into.delete(l.key);
    else if (into.has(l.key) || into.size < MAX_REMOTE_PROBLEMS)
      into.set(l.key, { path: l.path, message: l.message, severity: l.severity });
    if (into === this.fileProblems) this.opts.onChange();
  }

  /** Called with the items that newly need the user there (not acknowledged there). */
  onNeeds(l: (entering: NeedItem[]) => void): () => void {
    this.needListeners.add(l);
    return () => this.needListeners.delete(l);
  }

  /** That machine's plan quota as its stream last said it (the serve page's root line), or null. */
  quotaNow(): { short: string; limitedUntilMs: number | null } | null {
    return this.quota === null ? null : { short: this.quota, limitedUntilMs: this.quotaLimitedUntilMs };
  }

  /** What needs the user there now: open items (the count) and acknowledged ones still holding. */
  needs(): { open: readonly NeedItem[]; acked: readonly NeedItem[] } {
    return { open: this.open, acked: this.acked };
  }

  /**
   * This side may push the host's items now: the stream holds the project's lease there for us. An omc-top there
   * too old for `--push-lease` cannot say: we push (it may push too, its own way).
   */
  mayPush(): boolean {
    return this.pusher === 'fleet' || !this.leaseKnown;
  }

  private problem(p: string): void {
    this.problemCount++;
    this.problems.push(p);
    if (this.problems.length > MAX_PROBLEMS) this.problems.shift();
    this.opts.onChange();
  }

  private ended(code: number | null): void {
    if (this.stopped) return;
    this.leaveLive();
    // The remote watch's start-up line about its own config file is no reason for an end.
    const lines = this.stderr.trim().split('\n');
    const tail = truncate(cleanLine(lines.filter((l) => l && !CONFIG_LINE.test(l)).pop() ?? ''), 200);
    if (this.phase === 'too-old') {
      // Said already; try again rarely (the user may upgrade it).
    } else if (code === 127 || /omc-top: (command )?not found|omc-top: No such file/.test(this.stderr)) {
      this.phase = 'missing';
      this.message = `omc-top is not installed on ${this.spec.destination} (or not on a non-interactive ssh's PATH): ${installHint(this.spec.destination)}`;
    } else if (code === 2 && /unknown option --push-lease/.test(this.stderr) && this.leaseKnown) {
      // An omc-top there from before --push-lease: stream without it (it cannot say who pushes).
      this.leaseKnown = false;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        this.start();
      }, 0);
      return;
    } else if (code === 2 && /unknown option --rows/.test(this.stderr)) {
      this.phase = 'too-old';
      this.message = `omc-top on ${this.spec.destination} is too old for the fleet (no watch --rows; needs ${MIN_REMOTE_VERSION}+): ${installHint(this.spec.destination)}`;
    } else {
      if (this.phase !== 'lost') this.lostAt = this.clock();
      this.phase = 'lost';
      // Ended for its silence: that is the reason, not the signal ssh died of.
      this.message =
        this.silentMessage ?? (tail || (code === null ? 'the connection ended' : `ssh exited with status ${code}`));
    }
    const delay =
      this.phase === 'lost'
        ? BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]!
        : BACKOFF_MS[BACKOFF_MS.length - 1]!;
    this.attempt++;
    this.retryAt = this.clock() + delay;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.retryAt = null;
      this.start();
    }, delay);
    this.opts.onChange();
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryAt = null;
  }

  /** `r`: try now instead of at the next back-off step. */
  reconnect(): void {
    if (this.child) return;
    this.attempt = 0;
    this.start();
  }

  /** The stream stops being live (silent, closed): what it said last is as of its last byte. */
  private leaveLive(): void {
    if (this.phase === 'live') this.heardLiveAt = this.silence.lastLineAt || this.clock();
  }

  /** Needs a repaint every second while a countdown or "lost … ago" is on screen. */
  ticking(): boolean {
    return this.phase !== 'live';
  }

  /**
   * While the host is not live: the group header's note (`lost 20 s ago, retrying in 1 s`, `connecting…`) and why
   * (ssh's message, the silence, the install command); null while live. The fleet view and serve's page say it alike.
   */
  notLive(now = this.clock()): { note: string; why: string | null } | null {
    const retry = this.retryAt === null ? 'retrying now' : `retrying in ${secs(this.retryAt - now)}`;
    switch (this.phase) {
      case 'live':
        return null;
      case 'connecting':
        return { note: 'connecting…', why: null };
      case 'lost':
        return { note: `lost ${secs(now - (this.lostAt ?? now))} ago, ${retry}`, why: this.message };
      case 'missing':
        return { note: 'omc-top missing there', why: this.message };
      case 'too-old':
        return { note: 'omc-top too old there', why: this.message };
    }
  }

  group(): FleetGroup {
    const now = this.clock();
    const label = this.spec.label;
    const notes: string[] = [];
    let tone: FleetGroup['tone'] = 'normal';
    let detail: string | null = null;
    const down = this.notLive(now);
    if (down) {
      notes.push(down.note);
      if (this.phase !== 'connecting') {
        tone = 'error';
        detail = down.why;
      }
    }
    // No `.omc` there yet (omc-top there waits for OMC to make one) or no longer: why the group has no rows.
    if (this.rootWaiting !== null && !down) {
      notes.push('waiting for .omc there');
      if (tone === 'normal') tone = 'warn';
      detail ??= this.rootWaiting;
    }
    // That machine's plan quota (its monitor header's words), as the project line's last note.
    if (this.quota !== null) notes.push(this.quota);
    if (this.problemCount > 0) {
      if (tone === 'normal') tone = 'warn';
      notes.push(`${this.problemCount} bad line${this.problemCount === 1 ? '' : 's'} skipped`);
      detail ??= `last bad line: ${this.problems[this.problems.length - 1]}`;
    }
    // The project's problem lines there (what its monitor shows under its header), as a local project's group says.
    const said = problemWords(
      [...this.fileProblems.values()].map((p) => ({ ...p, root: this.project })),
      false,
    );
    if (said) {
      notes.push(said.note);
      detail ??= said.detail;
      if (tone !== 'error') tone = said.tone;
    }
    // What needs the user there in no session (a gate, a `.omc` it may not list): no row carries it, so the header
    // says it, as a local project's does; the count is the host monitor's, as its attention line last said it.
    for (const n of this.open) {
      const note = groupNeedNote(n);
      if (note === null || notes.includes(note)) continue;
      notes.push(note);
      if (tone === 'normal') tone = 'warn';
    }
    // Not live (a first connection aside, whose rows are this stream's own): every row is as the host last said.
    const asOf = down && this.phase !== 'connecting' ? (this.heardLiveAt ?? this.silence.lastLineAt) : null;
    const rows: FleetRow[] = [...this.rows.values()].map((r) => ({
      ...r,
      key: `remote|${label}|${rowIdentity(r)}`,
      host: label,
      rootId: `remote|${label}`,
      rootLabel: this.project,
      ...(asOf !== null ? { asOfMs: asOf } : {}),
    }));
    rows.sort(byAttention);
    return {
      key: `remote|${label}`,
      label: this.project || this.spec.dir || '~',
      host: label,
      notes,
      tone,
      detail,
      rows,
      needsYou: this.open.length,
    };
  }

  /** Every problem line kept (newest last), for tests and the message line. */
  problemLines(): readonly string[] {
    return this.problems;
  }

  /** The command `c` / `p` runs there for a row: `omc-top cancel <target> [--signal-only] [--cwd …]`. */
  cancelCommand(row: Pick<RowModel, 'session' | 'sessionless'>, pause: boolean): string {
    return `omc-top cancel ${cancelTargetOf(row)}${pause ? ' --signal-only' : ''}${remoteCwdArgs(this.spec)}`;
  }

  /**
   * Runs one omc-top command there: its exit code (null: ssh could not run, or no answer within the bound, `said`
   * says which) and first line. At the bound ssh is killed: whether the command ran there is then unknown.
   */
  private run(cmd: string, bound: number): Promise<{ code: number | null; said: string }> {
    return new Promise((resolve) => {
      const child = this.own(spawn(this.ssh.bin, this.sshArgs(cmd), { stdio: ['ignore', 'pipe', 'pipe'] }));
      let out = '';
      const take = (d: Buffer) => (out = (out + d.toString('utf8')).slice(-8192));
      const timer = setTimeout(() => {
        resolve({ code: null, said: `no answer in ${secs(bound)} (ssh killed): it may or may not have taken` });
        void endChild(child).then(() => letGo(child));
      }, bound);
      timer.unref?.();
      const done = (r: { code: number | null; said: string }) => {
        clearTimeout(timer);
        resolve(r);
      };
      child.stdout?.on('data', take);
      child.stderr?.on('data', take);
      child.on('error', (e) => done({ code: null, said: `ssh could not run: ${cleanLine(e.message)}` }));
      child.on('close', (code, signal) => {
        const first = truncate(cleanLine(out.trim().split('\n').filter(Boolean)[0] ?? ''), 200);
        // Ended by a signal (not ours: ours resolved at the bound), so no exit code says what happened there.
        if (code === null)
          done({
            code: null,
            said: `ssh ended by ${signal ?? 'a signal'} before an answer: it may or may not have taken${first ? ` (${first})` : ''}`,
          });
        else done({ code, said: first });
      });
    });
  }

  /**
   * Runs `work` unless the same thing (`key`) is still waiting for its answer there: then says so and sends no
   * second ssh (a hung one would stack up behind it).
   */
  private async once(
    key: string,
    busy: (until: number) => string,
    work: (bound: number) => Promise<{ ok: boolean; text: string }>,
  ): Promise<{ ok: boolean; text: string }> {
    const bound = this.opts.commandBoundMs ?? REMOTE_COMMAND_BOUND_MS;
    const until = this.inFlight.get(key);
    if (until !== undefined) return { ok: false, text: busy(until) };
    this.inFlight.set(key, this.clock() + bound);
    try {
      return await work(bound);
    } finally {
      this.inFlight.delete(key);
    }
  }

  /**
   * Why `c` / `p` on this row would be refused now, or null: a Claude with no OMC loop has nothing to cancel (its
   * prompt is answered there), and a cancel or pause of it may still be under way there.
   */
  cancelRefusal(row: Pick<RowModel, 'session' | 'sessionless' | 'noLoop'>, pause: boolean): string | null {
    if (row.noLoop === true) return noLoopWords(this.spec.label, pause ? 'pause' : 'cancel');
    const until = this.inFlight.get(`cancel ${cancelTargetOf(row)}`);
    return until === undefined ? null : this.busyText(row, until);
  }

  private busyText(row: Pick<RowModel, 'session' | 'sessionless'>, until: number): string {
    return stillWaiting(`a cancel of ${rowLabel(row).slice(0, 8)} on ${this.spec.label}`, until - this.clock());
  }

  /**
   * Acknowledges items there (`omc-top ack`, into that machine's acknowledgements file), then waits (bounded) for
   * the stream to list them as acknowledged: "seen there" only once it does.
   */
  async ack(ids: readonly string[], waitMs = 10_000): Promise<{ ok: boolean; text: string }> {
    const where = `on ${this.spec.label}`;
    const quoted = ids.map((id) => shellQuote(id)).join(' ');
    const what = ids.length === 1 ? '1 item' : `${ids.length} items`;
    const key = `ack ${[...ids].sort().join(' ')}`;
    return this.once(
      key,
      (until) => stillWaiting(`acknowledging ${what} ${where}`, until - this.clock()),
      (bound) => this.ackThere(ids, quoted, where, what, bound, waitMs),
    );
  }

  private async ackThere(
    ids: readonly string[],
    quoted: string,
    where: string,
    what: string,
    bound: number,
    waitMs: number,
  ): Promise<{ ok: boolean; text: string }> {
    const r = await this.run(`omc-top ack ${quoted}${remoteCwdArgs(this.spec)}`, bound);
    if (r.code === null) return { ok: false, text: `acknowledging ${where}: ${r.said}` };
    if (r.code === 127)
      return {
        ok: false,
        text: `omc-top is not installed on ${this.spec.destination}: ${installHint(this.spec.destination)}`,
      };
    // Exit 2 from ack itself (its lines start `omc-top ack:`): an id no item has there now (its condition ended
    // meanwhile), said in its words. From an omc-top there from before `ack`, which takes it for a project directory.
    if (r.code === 2)
      return {
        ok: false,
        text: r.said.includes('omc-top ack:')
          ? `acknowledging ${where} refused: ${r.said}`
          : `acknowledging ${where} refused (omc-top there too old for ack?): ${r.said}`,
      };
    if (r.code !== 0) return { ok: false, text: `acknowledging ${where} failed (exit ${r.code}): ${r.said}` };
    const seen = () => ids.every((id) => this.acked.some((n) => n.id === id));
    const deadline = this.clock() + waitMs;
    await new Promise<void>((resolve) => {
      const check = () => {
        if (seen() || this.stopped || this.clock() >= deadline) return resolve();
        setTimeout(check, 100).unref?.();
      };
      check();
    });
    return seen()
      ? { ok: true, text: `acknowledged ${what} ${where} (seen there; back in the count only if it arises anew)` }
      : { ok: true, text: `acknowledged ${what} ${where} (recorded there; its stream has not shown it yet)` };
  }

  /** Runs `omc-top cancel <target> [--signal-only]` there; its documented exit code says what happened. */
  cancel(
    row: Pick<RowModel, 'session' | 'sessionless' | 'noLoop'>,
    pause: boolean,
  ): Promise<{ ok: boolean; text: string }> {
    // No command for a row with nothing to cancel, whoever asks.
    if (row.noLoop === true)
      return Promise.resolve({ ok: false, text: noLoopWords(this.spec.label, pause ? 'pause' : 'cancel') });
    // A cancel and a pause of one row are one key: either still under way refuses the other.
    const key = `cancel ${cancelTargetOf(row)}`;
    return this.once(
      key,
      (until) => this.busyText(row, until),
      (bound) => this.cancelThere(row, pause, bound),
    );
  }

  private async cancelThere(
    row: Pick<RowModel, 'session' | 'sessionless'>,
    pause: boolean,
    bound: number,
  ): Promise<{ ok: boolean; text: string }> {
    const { code, said } = await this.run(this.cancelCommand(row, pause), bound);
    const where = `on ${this.spec.label}`;
    const what = pause ? 'pause' : 'cancel';
    if (code === null) return { ok: false, text: `${what} ${where}: ${said}` };
    switch (code) {
      case 0:
        return { ok: true, text: `${what} ${where} took effect (checked there): ${said}` };
      case 1:
        return { ok: false, text: `${what} ${where} did not take: ${said}` };
      case 3:
        return { ok: false, text: `${what} ${where} refused (--readonly there): ${said}` };
      case 4:
        return { ok: false, text: `nothing to ${what} ${where}: ${said}` };
      case 127:
        return {
          ok: false,
          text: `omc-top is not installed on ${this.spec.destination}: ${installHint(this.spec.destination)}`,
        };
      default:
        return { ok: false, text: `${what} ${where} failed (exit ${code})${said ? `: ${said}` : ''}` };
    }
  }

  /** Every ssh this host started and that has not exited (the stream, cancels under way). */
  private readonly children = new Set<ChildProcess>();

  private own(child: ChildProcess): ChildProcess {
    this.children.add(trackChild(child));
    child.once('exit', () => this.children.delete(child));
    child.once('error', () => this.children.delete(child));
    return child;
  }

  /**
   * Taken out of the fleet (its config entry removed): its stream ends now and it never reconnects, but a cancel or
   * ack under way there runs to its answer (each bounded by its own commandBoundMs, which kills it) so that what it
   * says is what happened there. Resolves once every ssh of this host has exited; `stop` still ends them at once.
   */
  retire(): Promise<void> {
    const stream = this.child;
    this.stopped = true;
    this.clearRetry();
    this.silence.stop();
    this.child = null;
    return Promise.all([...this.children].map((c) => (c === stream ? endChild(c) : exitOf(c)))).then(() => undefined);
  }

  /** Ends every ssh of this host for good (TERM, then KILL after a bound); resolves once all have exited. */
  stop(): Promise<void> {
    this.stopped = true;
    this.clearRetry();
    this.silence.stop();
    this.child = null;
    return Promise.all([...this.children].map((c) => endChild(c))).then(() => undefined);
  }
}
