/**
 * One file of omc-top's own that is rewritten often (the iteration samples and the status cache, each up to once
 * a second while loops run): the write leaves the main thread (atomicWrite), at most one is in flight, and
 * contents handed in meanwhile replace each other, so the newest is written as soon as the one in flight ends and
 * no two writes race for the file. An exit cannot wait for the pool: flushSync writes the newest content
 * synchronously and drops the write in flight.
 */
import { atomicWrite, atomicWriteSync, sweepStaleTemps, unlinkUnder } from './write.js';

/** A temp this old is no write in flight (a write takes milliseconds): one left by a monitor that was killed. */
export const STALE_TEMP_MS = 60_000;

export class LatestFileWrite {
  /** The newest content not yet known to be on disk (queued, in flight, or failed); null when the file has it. */
  private newest: string | null = null;
  /** `newest` has not been handed to a write yet. */
  private queued = false;
  private inFlight: Promise<void> | null = null;
  /** Bumped by flushSync: a write still in the pool then must not rename its older content over the file. */
  private generation = 0;
  /** The temp file of the write in flight (rel to root), for an exit to remove. */
  private tempRel: string | null = null;
  /** The stale temps of an earlier, killed monitor were looked for (once, at the first write). */
  private swept = false;

  constructor(
    private readonly root: string,
    private readonly rel: string,
    /** A background write failed: the content stays unconfirmed (the next write or flushSync carries it). */
    private readonly onError: (e: unknown) => void = () => {},
    /** The background write (a test wraps the real one to see how many run at once). */
    private readonly writeInPool: typeof atomicWrite = atomicWrite,
  ) {}

  /** Something is not yet known to be on disk. */
  get unconfirmed(): boolean {
    return this.newest !== null;
  }

  /** Hands `content` to the background writer; returns at once. */
  write(content: string): void {
    if (!this.swept) {
      this.swept = true;
      sweepStaleTemps(this.root, this.rel, STALE_TEMP_MS);
    }
    this.newest = content;
    this.queued = true;
    if (!this.inFlight) this.startNext();
  }

  /**
   * Writes the newest content now, synchronously (`content` when given, else what is unconfirmed); a write in
   * the pool is dropped and its temp removed. True when a write was made. Throws when it fails.
   */
  flushSync(content?: string): boolean {
    if (content !== undefined) this.newest = content;
    this.generation++;
    this.removeTemp();
    if (this.newest === null) return false;
    atomicWriteSync(this.root, this.rel, this.newest);
    this.newest = null;
    this.queued = false;
    return true;
  }

  /**
   * Forgets what is not yet written and drops the write in flight (its temp removed, its rename refused): for an
   * owner about to remove the file, which must not come back after.
   */
  drop(): void {
    this.generation++;
    this.removeTemp();
    this.newest = null;
    this.queued = false;
  }

  /** Resolves when no write is in flight (tests, and a caller that can wait). */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  /** The temp of the write in flight, now: an exit will not wait for that write to remove it. */
  private removeTemp(): void {
    if (this.tempRel === null) return;
    try {
      unlinkUnder(this.root, this.tempRel);
    } catch {
      /* the write in flight removes it itself when it is refused the rename */
    }
  }

  private startNext(): void {
    if (!this.queued || this.newest === null) return;
    const content = this.newest;
    this.queued = false;
    const generation = this.generation;
    this.inFlight = this.writeInPool(this.root, this.rel, content, {
      // Asked right before the rename (the directory's fsync follows it): from here an exit need not write it again.
      commit: () => {
        if (generation !== this.generation) return false;
        if (!this.queued && this.newest === content) this.newest = null;
        return true;
      },
      onTemp: (rel) => (this.tempRel = rel),
    })
      .then(
        () => {},
        (e: unknown) => {
          if (this.newest === null && generation === this.generation) this.newest = content; // the rename failed
          try {
            this.onError(e);
          } catch {
            /* a reporter that throws must not leave the writer stuck */
          }
        },
      )
      .finally(() => {
        this.tempRel = null;
        this.inFlight = null;
        this.startNext();
      });
  }
}
