/**
 * Who pushes for a project when several omc-top run on it (the monitor, `serve`, the fleet view): the one that
 * holds its push lease, a small file in omc-top's own state directory naming the holder's pid and start time.
 * A process takes the lease when nobody live holds it (at start, before a message, and when the lease file is
 * replaced or removed: LeasedPush watches it), and sends only while
 * it holds it; the others stay quiet, so the user gets each message once. "Live" is the status cache's rule
 * (io/heartbeat.ts): the holder runs, is not stopped (Ctrl-Z, `kill -STOP`), and showed life within
 * SILENT_AFTER_MS; while it holds the lease it sets the file's modification time every HEARTBEAT_MS. So a monitor
 * stopped in a shell or stuck does not keep `serve` beside it from pushing; once resumed, it finds another named
 * in the lease (its beat stops, and its next message asks the lease first) and stays quiet.
 * Under --readonly nothing is written: such a process pushes only while no live process holds the lease.
 * Taking is done by one process at a time: it first creates a marker beside the lease (O_EXCL), so two processes
 * that found the lease free at the same instant cannot both write it and both read back their own name. The same
 * marker guards the ledger the lease file carries (ledger.ts: what was pushed, what is due), which every omc-top on
 * the project reads and writes (`settle`), and which outlives each holder: a release keeps it, a taker carries it.
 * The lease file must be a plain file: a symlink (or a directory, a FIFO) in its place cannot be read or written
 * safely, and if each process then counted the lease as free, every omc-top on the project would push. So such a
 * lease is refused and nobody pushes for the project until it is removed: one problem line says so on each surface
 * that pushes (`leaseRefusal`, which doctor asks too).
 */
import path from 'node:path';
import { heartbeatSilence, HEARTBEAT_MS, lastBeat } from '../../../io/heartbeat.js';
import { ownStartIdentity, runningStartIdentity, type StartIdentity } from '../../../io/process-start.js';
import {
  atomicWriteSync,
  createMarkerUnder,
  ensureOwnDir,
  readJsonSync,
  statSync,
  touchUnder,
  unlinkUnder,
} from '../../../io/safe-fs/index.js';
import { shownPath } from '../../../io/shown-path.js';
import { rootFileName } from '../../../io/state-dir.js';
import { isLive } from '../../../store/permissions/liveness.js';
import { EMPTY_LEDGER, ledgerEmpty, ledgerOf, pruned, sameLedger, type Ledger } from './ledger.js';

interface Holder {
  pid: number;
  start: string | null;
  /** When it wrote the lease (epoch ms); absent in a lease written before the heartbeat (its time alone counts). */
  at?: number;
}

/** The lease as read: its holder, and when that holder last showed life (io/heartbeat.ts). */
type ReadHolder = Holder & { beat: number };

const isHolder = (v: unknown): v is Holder =>
  typeof v === 'object' &&
  v !== null &&
  Number.isSafeInteger((v as Holder).pid) &&
  (v as Holder).pid > 0 &&
  ((v as Holder).start === null || typeof (v as Holder).start === 'string');

/** Taking the lease is a read and a write: a marker older than this was left by a process that died doing it. */
const TAKING_STALE_MS = 5_000;

/** A lease file with its ledger: a few dozen item ids and a few messages at most (ledger.ts bounds them). */
const LEASE_MAX_BYTES = 64 * 1024;

/**
 * Why the lease file of `root` in `dir` is refused (null: it is a plain file, or absent): something other than a
 * plain file is in its place. The line says pushes are held, as they are (PushLease).
 */
export function leaseRefusal(dir: string, root: string): string | null {
  const name = rootFileName('push-lease', root);
  const st = statSync(dir, name);
  if (!st || st.isFile()) return null;
  const what = st.isSymbolicLink()
    ? 'a symlink'
    : st.isDirectory()
      ? 'a directory'
      : st.isFIFO()
        ? 'a FIFO'
        : 'not a plain file';
  return `the push lease ${shownPath(path.join(dir, name))} is ${what}: refused; pushes held for this project (no omc-top on it pushes until it is removed)`;
}

/** The lease file as read: its holder (null: none, or none that parses) and its ledger. */
interface LeaseFile {
  holder: ReadHolder | null;
  ledger: Ledger;
}

export class PushLease {
  /** The lease file's name in the state directory (LeasedPush watches it). */
  readonly name: string;
  private readonly taking: string;
  private readonly pid: number;
  private readonly start: string | null;
  private readonly startIdentity: (pid: number) => StartIdentity;
  private readonly clock: () => number;
  /** The heartbeat, running while this process holds the lease. */
  private heart: NodeJS.Timeout | null = null;

  constructor(
    private readonly dir: string,
    private readonly root: string,
    private readonly opts: {
      readonly?: boolean;
      pid?: number;
      startIdentity?: (pid: number) => StartIdentity;
      /** The store's clock (epoch ms): what is written as `at`, set as the beat, and judged against. */
      clock?: () => number;
      /** A beat of this holder found items due (recorded by another omc-top on the project): push them. */
      onDue?: () => void;
      /** The lease file turned into something that is not a plain file (pushes held), or back (one line each). */
      onProblem?: (line: string) => void;
    } = {},
  ) {
    this.name = rootFileName('push-lease', root);
    this.taking = `${this.name}.taking`;
    this.pid = opts.pid ?? process.pid;
    const own = opts.pid === undefined ? ownStartIdentity() : null;
    this.start = typeof own === 'string' && own !== 'absent' ? own : null;
    this.startIdentity = opts.startIdentity ?? runningStartIdentity;
    this.clock = opts.clock ?? Date.now;
    this.mayPush();
  }

  /** The refusal last said (leaseRefusal), so that each change is one line. */
  private refusedSaid: string | null = null;

  /**
   * Whether the lease file is refused (not a plain file): then this process neither takes nor holds the lease, and
   * writes nothing there; it says so once, and once more when the file is fine again.
   */
  private refused(): boolean {
    const why = leaseRefusal(this.dir, this.root);
    if (why !== this.refusedSaid) {
      if (why) this.opts.onProblem?.(why);
      else
        this.opts.onProblem?.(
          `the push lease ${shownPath(path.join(this.dir, this.name))} is a plain file again: pushes resume`,
        );
      this.refusedSaid = why;
    }
    return why !== null;
  }

  private read(): LeaseFile {
    const r = readJsonSync(this.dir, this.name, LEASE_MAX_BYTES);
    if (!r.ok) return { holder: null, ledger: EMPTY_LEDGER };
    const ledger = ledgerOf(r.value);
    if (!isHolder(r.value)) return { holder: null, ledger };
    const { pid, start } = r.value;
    const at = typeof r.value.at === 'number' && Number.isFinite(r.value.at) ? r.value.at : undefined;
    return { holder: { pid, start, at, beat: lastBeat(at ?? null, r.read.mtimeMs) }, ledger };
  }

  private holder(): ReadHolder | null {
    return this.read().holder;
  }

  /** Another process holds the lease and vouches for it: it runs, is not stopped, and showed life lately. */
  private heldByLive(h: ReadHolder | null): boolean {
    if (!h || h.pid === this.pid) return false;
    return heartbeatSilence(h, this.clock(), (pid) => isLive(this.startIdentity, pid, h.start)) === null;
  }

  /** This process may send for the project now: it holds the lease, or nobody live does (then it takes it). */
  mayPush(): boolean {
    // Not a plain file: nobody can hold it, so nobody pushes (rather than everybody).
    if (this.refused()) return this.lost();
    const h = this.holder();
    if (h && h.pid === this.pid) return this.holding();
    if (this.heldByLive(h)) return this.lost();
    if (this.opts.readonly) return true;
    try {
      // omc-top's state directory is the root of the contained write, which cannot create its own root: a process
      // that had written nothing there yet (the fleet view) recorded no lease and pushed beside the monitor.
      ensureOwnDir(this.dir);
    } catch {
      return true; // cannot record it: pushing twice beats not pushing
    }
    const marked = this.markTaking();
    if (marked === 'busy') return false; // another process is taking it this instant: it will push
    try {
      // Looked at again under the marker: another may have taken it between the first look and the marker.
      const now = this.read();
      if (this.heldByLive(now.holder)) return this.lost();
      this.writeLease(now.ledger); // what the last holder pushed and what is due go on with the lease
    } catch {
      return true;
    } finally {
      if (marked === 'marked') this.unmarkTaking();
    }
    return this.holder()?.pid === this.pid ? this.holding() : this.lost();
  }

  private writeLease(ledger: Ledger): void {
    const now = this.clock();
    const l = pruned(ledger, now);
    atomicWriteSync(this.dir, this.name, JSON.stringify({ pid: this.pid, start: this.start, at: now, ...l }));
    // Its time is the clock's too (the store's clock seam may differ from the filesystem's): the beat is the later.
    touchUnder(this.dir, this.name, now);
  }

  /**
   * The ledger changed by a process that does not hold the lease: the holder's name, `at` and beat stay as they
   * were (its modification time is set back), so a write by another never makes a silent holder look alive.
   */
  private writeLedgerOnly(holder: ReadHolder | null, ledger: Ledger): void {
    const l = pruned(ledger, this.clock());
    const named = holder
      ? { pid: holder.pid, start: holder.start, ...(holder.at === undefined ? {} : { at: holder.at }) }
      : {};
    atomicWriteSync(this.dir, this.name, JSON.stringify({ ...named, ...l }));
    if (holder) touchUnder(this.dir, this.name, holder.beat);
  }

  /**
   * Reads the ledger under the taking marker, taking the lease on the way when nobody live holds it, and writes
   * back what `change` makes of it (null: nothing to write). `change` is told whether this process holds the lease
   * (only a holder may push). Returns whether it holds it, or null when another process has the marker this
   * instant (the caller tries again shortly). Under --readonly nothing is written: `change` sees the ledger and
   * whether nobody live holds the lease, and what it makes of the ledger is not recorded. `take: false` (a process
   * that is ending or muted, recording what a channel took) changes the ledger without taking a free lease.
   */
  settle(change: (ledger: Ledger, holds: boolean) => Ledger | null, opts: { take?: boolean } = {}): boolean | null {
    const take = opts.take !== false;
    if (this.refused()) {
      change(EMPTY_LEDGER, false);
      return this.lost();
    }
    if (this.opts.readonly) {
      const r = this.read();
      const holds = take && !this.heldByLive(r.holder);
      change(r.ledger, holds);
      return holds;
    }
    try {
      ensureOwnDir(this.dir);
    } catch {
      change(EMPTY_LEDGER, take); // cannot record anything: pushing twice beats not pushing
      return take;
    }
    const marked = this.markTaking();
    if (marked === 'busy') return null;
    let holds = false;
    try {
      const r = this.read();
      holds = r.holder?.pid === this.pid || (take && !this.heldByLive(r.holder));
      const next = change(r.ledger, holds);
      if (holds && r.holder?.pid !== this.pid) this.writeLease(next ?? r.ledger);
      else if (next && !sameLedger(next, r.ledger)) {
        if (holds) this.writeLease(next);
        else this.writeLedgerOnly(r.holder, next);
      }
    } catch {
      /* not recorded: a holder that pushed may push it again, twice rather than never */
    } finally {
      if (marked === 'marked') this.unmarkTaking();
    }
    return holds ? this.holding() : this.lost();
  }

  /** Holds the lease: keeps its heartbeat going (an unref'd timer: it never keeps the process alive). */
  private holding(): true {
    if (!this.heart && !this.opts.readonly) {
      this.heart = setInterval(() => this.beat(), HEARTBEAT_MS);
      this.heart.unref?.();
    }
    return true;
  }

  /** Another holds it: nothing to vouch for any more. */
  private lost(): false {
    if (this.heart) clearInterval(this.heart);
    this.heart = null;
    return false;
  }

  /**
   * The heartbeat (every HEARTBEAT_MS while held): shows the others this holder still runs, by setting the lease's
   * modification time (one system call, no rewrite). A holder that was stopped or stuck long enough for another to
   * take the lease finds that one named here: it stops beating (its next message asks the lease and stays quiet),
   * never refreshing a lease that is not its own. Returns whether this process still holds the lease.
   */
  beat(): boolean {
    if (this.refused()) return this.lost();
    const { holder: h, ledger } = this.read();
    if (!h || h.pid !== this.pid) return this.lost();
    const now = this.clock();
    try {
      // A lease dated after now (the clock moved back) would stay "from the future" under a touch: written anew.
      if (!((h.at ?? -Infinity) <= now && touchUnder(this.dir, this.name, now))) this.writeLease(ledger);
    } catch {
      /* the next beat tries again; past the bound another omc-top may take it, and this one then stays quiet */
    }
    // Another omc-top saw an item while this one held the lease, and this one has not pushed it: push it now.
    if (ledger.due.length > 0) this.opts.onDue?.();
    return true;
  }

  /**
   * The taking marker: 'marked' when this process made it, 'busy' when another holds it, 'unmarked' when it could
   * not be made for another reason (then the lease is taken without it, as before it existed). A marker left by a
   * process that died while taking (a few milliseconds of work) is removed once it is older than TAKING_STALE_MS.
   */
  private markTaking(): 'marked' | 'busy' | 'unmarked' {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        if (createMarkerUnder(this.dir, this.taking)) return 'marked';
      } catch {
        return 'unmarked';
      }
      const st = statSync(this.dir, this.taking);
      if (st && Date.now() - st.mtimeMs < TAKING_STALE_MS) return 'busy';
      this.unmarkTaking();
    }
    return 'busy';
  }

  private unmarkTaking(): void {
    try {
      unlinkUnder(this.dir, this.taking);
    } catch {
      /* left behind: it goes stale and is removed by the next taker */
    }
  }

  /**
   * Gives the lease up (at exit), so another omc-top on the project pushes at once. Its ledger stays (the file
   * then names no holder): the next holder knows what was pushed, and pushes what is still due.
   */
  release(): void {
    this.lost();
    if (this.opts.readonly || leaseRefusal(this.dir, this.root) !== null) return;
    const marked = this.markTaking();
    try {
      const r = this.read();
      if (r.holder?.pid !== this.pid) return;
      const l = pruned(r.ledger, this.clock());
      if (ledgerEmpty(l)) unlinkUnder(this.dir, this.name);
      else atomicWriteSync(this.dir, this.name, JSON.stringify(l));
    } catch {
      /* best effort: the next holder checks the pid anyway */
    } finally {
      if (marked === 'marked') this.unmarkTaking();
    }
  }
}
