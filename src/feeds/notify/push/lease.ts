/**
 * Who pushes for a project when several omc-top run on it (the monitor, `serve`, the fleet view): the one that
 * holds its push lease, a small file in omc-top's own state directory naming the holder's pid and start time.
 * A process takes the lease when nobody live holds it (at start, and again before a message when the holder
 * is gone), and sends only while it holds it; the others stay quiet, so the user gets each message once.
 * Under --readonly nothing is written: such a process pushes only while no live process holds the lease.
 */
import { ownStartIdentity, runningStartIdentity, type StartIdentity } from '../../../io/process-start.js';
import { atomicWriteSync, ensureOwnDir, readJsonSync, unlinkUnder } from '../../../io/safe-fs/index.js';
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

export class PushLease {
  private readonly name: string;
  private readonly pid: number;
  private readonly start: string | null;
  private readonly startIdentity: (pid: number) => StartIdentity;

  constructor(
    private readonly dir: string,
    root: string,
    private readonly opts: { readonly?: boolean; pid?: number; startIdentity?: (pid: number) => StartIdentity } = {},
  ) {
    this.name = rootFileName('push-lease', root);
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
      // omc-top's state directory may not exist yet (a machine where nothing was acknowledged so far).
      ensureOwnDir(this.dir);
      atomicWriteSync(this.dir, this.name, JSON.stringify({ pid: this.pid, start: this.start, at: Date.now() }), {
        mkdir: true,
      });
    } catch {
      return true; // cannot record it: pushing twice beats not pushing
    }
    // Two took it at once: the file says who won (the last rename).
    return this.holder()?.pid === this.pid;
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
