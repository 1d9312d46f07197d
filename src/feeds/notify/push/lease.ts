/**
 * Who pushes for a project when several omc-top run on it (the monitor, `serve`, the fleet view): the one that
 * holds its push lease, a small file in omc-top's own state directory naming the holder's pid and start time.
 * A process takes the lease when nobody live holds it (at start, and again before a message when the holder
 * is gone), and sends only while it holds it; the others stay quiet, so the user gets each message once.
 * Under --readonly nothing is written: such a process pushes only while no live process holds the lease.
 * Taking is done by one process at a time: it first creates a marker beside the lease (O_EXCL), so two processes
 * that found the lease free at the same instant cannot both write it and both read back their own name.
 */
import { ownStartIdentity, runningStartIdentity, type StartIdentity } from '../../../io/process-start.js';
import {
  atomicWriteSync,
  createMarkerUnder,
  ensureOwnDir,
  readJsonSync,
  statSync,
  unlinkUnder,
} from '../../../io/safe-fs/index.js';
import { rootFileName } from '../../../io/state-dir.js';
import { isLive } from '../../../store/permissions/liveness.js';

interface Holder {
  pid: number;
  start: string | null;
}

const isHolder = (v: unknown): v is Holder =>
  typeof v === 'object' &&
  v !== null &&
  Number.isSafeInteger((v as Holder).pid) &&
  (v as Holder).pid > 0 &&
  ((v as Holder).start === null || typeof (v as Holder).start === 'string');

/** Taking the lease is a read and a write: a marker older than this was left by a process that died doing it. */
const TAKING_STALE_MS = 5_000;

export class PushLease {
  private readonly name: string;
  private readonly taking: string;
  private readonly pid: number;
  private readonly start: string | null;
  private readonly startIdentity: (pid: number) => StartIdentity;

  constructor(
    private readonly dir: string,
    root: string,
    private readonly opts: { readonly?: boolean; pid?: number; startIdentity?: (pid: number) => StartIdentity } = {},
  ) {
    this.name = rootFileName('push-lease', root);
    this.taking = `${this.name}.taking`;
    this.pid = opts.pid ?? process.pid;
    const own = opts.pid === undefined ? ownStartIdentity() : null;
    this.start = typeof own === 'string' && own !== 'absent' ? own : null;
    this.startIdentity = opts.startIdentity ?? runningStartIdentity;
    this.mayPush();
  }

  private holder(): Holder | null {
    const r = readJsonSync(this.dir, this.name, 4096);
    return r.ok && isHolder(r.value) ? r.value : null;
  }

  /** This process may send for the project now: it holds the lease, or nobody live does (then it takes it). */
  mayPush(): boolean {
    const h = this.holder();
    if (h && h.pid === this.pid) return true;
    if (h && isLive(this.startIdentity, h.pid, h.start)) return false;
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
      const now = this.holder();
      if (now && now.pid !== this.pid && isLive(this.startIdentity, now.pid, now.start)) return false;
      atomicWriteSync(this.dir, this.name, JSON.stringify({ pid: this.pid, start: this.start, at: Date.now() }));
    } catch {
      return true;
    } finally {
      if (marked === 'marked') this.unmarkTaking();
    }
    return this.holder()?.pid === this.pid;
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

  /** Gives the lease up (at exit), so another omc-top on the project pushes at once. */
  release(): void {
    if (this.opts.readonly || this.holder()?.pid !== this.pid) return;
    try {
      unlinkUnder(this.dir, this.name);
    } catch {
      /* best effort: the next holder checks the pid anyway */
    }
  }
}
