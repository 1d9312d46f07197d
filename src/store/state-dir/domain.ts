/**
 * omc-top's own state directory as a domain of the store: whether it can hold the acknowledgements, the cancel
 * records, the push lease, the permission listener and the status cache (health.ts). Nothing under .omc: it
 * wants no path. Its problem line reaches the monitor's problems, `--json`'s `problems` and `watch --json`'s
 * `problem` facts as every other problem does, and `report()` gives `--json` its `state_dir`.
 *
 * A directory can become unusable while omc-top runs (the disk fills, a remount read-only), and no event says
 * so: a watching store looks again every STATE_DIR_CHECK_MS. Every store of the process (a fleet holds one per
 * project) shares one timer and one look per directory, so the idle cost is one wake and a few system calls.
 */
import { ownDirFault, type OwnDirError } from '../../io/safe-fs/index.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import type { Domain, Problem } from '../types.js';
import { sameHealth, stateDirHealth, stateDirProblem, type StateDirHealth } from './health.js';

/** How often a watching store looks at the state directory again (the status cache's heartbeat is as often). */
export const STATE_DIR_CHECK_MS = 5_000;

interface Snapshot {
  health: StateDirHealth;
  problems: readonly Problem[];
}

/** The directories the watching stores of this process follow, and one timer for them all. */
const following = new Map<string, Set<(fault: OwnDirError | null) => void>>();
let shared: NodeJS.Timeout | null = null;

/** ownDirFault, or undefined when the look itself failed (the directory replaced under it): the last answer stands. */
function lookAt(dir: string): OwnDirError | null | undefined {
  try {
    return ownDirFault(dir);
  } catch {
    return undefined;
  }
}

function follow(dir: string, look: (fault: OwnDirError | null) => void): () => void {
  let set = following.get(dir);
  if (!set) following.set(dir, (set = new Set()));
  set.add(look);
  if (!shared) {
    shared = setInterval(() => {
      // One look per directory, handed to each store that follows it.
      for (const [dir, looks] of following) {
        const fault = lookAt(dir);
        if (fault !== undefined) for (const l of [...looks]) l(fault);
      }
    }, STATE_DIR_CHECK_MS);
    shared.unref();
  }
  return () => {
    set.delete(look);
    if (set.size === 0) following.delete(dir);
    if (following.size === 0 && shared) {
      clearInterval(shared);
      shared = null;
    }
  };
}

export class StateDirDomain implements Domain {
  readonly name = 'state-dir';
  private readonly cell: SnapshotCell<Snapshot>;
  private unfollow: (() => void) | null = null;
  private disposed = false;

  constructor(private readonly opts: { dir: string; live: boolean }) {
    this.cell = new SnapshotCell<Snapshot>({ health: stateDirHealth(opts.dir, null), problems: [] });
  }

  get dir(): string {
    return this.opts.dir;
  }

  getSnapshot = (): StateDirHealth => this.cell.getSnapshot().health;
  subscribe = (l: () => void) => this.cell.subscribe(l);
  problems = (): readonly Problem[] => this.cell.getSnapshot().problems;

  wants(): boolean {
    return false;
  }
  refresh(): void {}

  scan(): void {
    if (this.disposed) return;
    const fault = lookAt(this.opts.dir);
    if (fault !== undefined) this.show(fault);
    if (this.opts.live && !this.unfollow) this.unfollow = follow(this.opts.dir, (fault) => this.show(fault));
  }

  report(): Record<string, unknown> {
    return { state_dir: this.getSnapshot() };
  }

  dispose(): void {
    this.disposed = true;
    this.unfollow?.();
    this.unfollow = null;
  }

  private show(fault: OwnDirError | null): void {
    if (this.disposed) return;
    const health = stateDirHealth(this.opts.dir, fault);
    if (sameHealth(health, this.getSnapshot())) return;
    this.cell.set({ health, problems: fault ? [stateDirProblem(fault)] : [] });
  }
}
