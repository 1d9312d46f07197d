/**
 * The one object the UI talks to: owns the domains (sessions, notepad, …),
 * the tree watcher that feeds them, and a status cell (watch mode, messages).
 * Free of React; the UI subscribes with useSyncExternalStore.
 */
import { SnapshotCell } from './emitter.js';
import type { OmcInstall, RulesVersion } from './omc-install.js';
import { SessionsDomain } from './sessions/domain.js';
import { startTreeWatcher, type TreeWatcher, type WatchMode } from './tree-watcher.js';
import type { Clock, Domain, Problem, WatchEvent } from './types.js';

export interface StoreStatus {
  watchMode: WatchMode;
  watchDetail: string;
}

export interface OmcStoreOptions {
  root: string;
  /** Project directory (git top-level or cwd), for layouts that live beside the project (4.x team runtime). */
  projectDir?: string;
  /** How the root was found (OmcStore only records it). */
  rootRule?: string;
  readonly?: boolean;
  clock?: Clock;
  watch?: 'auto' | 'poll' | 'none';
  /** Which OMC runs the hooks (detectOmcInstall): its rules decide the session statuses. */
  omc?: OmcInstall;
}

export class OmcStore {
  readonly root: string;
  readonly projectDir: string | null;
  readonly rootRule: string;
  readonly readonly: boolean;
  readonly omc: OmcInstall | null;
  readonly clock: Clock;
  readonly sessions: SessionsDomain;
  readonly status = new SnapshotCell<StoreStatus>({ watchMode: 'starting', watchDetail: 'starting' });
  /** Every domain's problems, one list, kept current. */
  readonly problems = new SnapshotCell<readonly Problem[]>([]);
  private readonly domains: Domain[] = [];
  private watcher: TreeWatcher | null = null;
  private readonly watchKind: 'auto' | 'poll' | 'none';

  constructor(opts: OmcStoreOptions) {
    this.root = opts.root;
    this.projectDir = opts.projectDir ?? null;
    this.rootRule = opts.rootRule ?? 'unknown';
    this.omc = opts.omc ?? null;
    this.readonly = opts.readonly ?? false;
    this.clock = opts.clock ?? Date.now;
    this.watchKind = opts.watch ?? 'auto';
    this.sessions = new SessionsDomain({
      root: this.root,
      clock: this.clock,
      rules: opts.omc ? (opts.omc.rules as RulesVersion) : undefined,
      projectDir: this.projectDir,
    });
    this.addDomain(this.sessions);
  }

  /** A registered domain by name (e.g. 'notepad'), for the pane that shows it. */
  getDomain<D extends Domain>(name: string): D | undefined {
    return this.domains.find((d) => d.name === name) as D | undefined;
  }

  /** Adds another slice of .omc (notepad, memory, wiki, teams). Call before start(). */
  addDomain<D extends Domain>(d: D): D {
    this.domains.push(d);
    d.subscribe?.(() => this.collectProblems());
    return d;
  }

  private collectProblems(): void {
    const all: Problem[] = [];
    for (const d of this.domains) if (d.problems) all.push(...d.problems());
    const prev = this.problems.getSnapshot();
    const same =
      prev.length === all.length && prev.every((p, i) => p.path === all[i]?.path && p.message === all[i]?.message);
    if (!same) this.problems.set(all);
  }

  /**
   * Synchronous first read of everything (so the first frame has data), then
   * start watching. With `deferWatch`, the watcher starts on the next
   * macrotask: chokidar's initial walk (thousands of lstat calls at 2,000
   * sessions) then runs after the first frame is on screen, not before it.
   * Nothing is missed: once the watcher is ready every domain rescans.
   */
  start(opts: { deferWatch?: boolean; progressive?: boolean } = {}): void {
    if (opts.progressive) {
      this.startProgressively();
      return;
    }
    for (const d of this.domains) d.scan();
    this.collectProblems();
    if (this.watchKind === 'none') {
      this.status.set({ watchMode: 'off', watchDetail: 'not watching (one-shot)' });
      return;
    }
    if (opts.deferWatch) {
      setTimeout(() => {
        if (!this.closed) this.startWatching();
      }, 0);
    } else {
      this.startWatching();
    }
  }

  /**
   * For the full-screen app: read in slices of ~40 ms, sessions first (the
   * pane on screen), yielding between slices so the first frame is drawn
   * after the first slice and keys work while a big tree is still being read.
   * The watcher starts when every domain has been read; its ready-rescan picks
   * up whatever changed meanwhile.
   */
  private startProgressively(): void {
    const queue = [...this.domains];
    this.status.set({ watchMode: 'starting', watchDetail: 'reading .omc' });
    const slice = () => {
      if (this.closed) return;
      const deadline = performance.now() + 40;
      // One domain per slice at most: the first slice ends with sessions read
      // (or partly read), so the first frame is drawn before anything else.
      const d = queue[0] as Domain;
      const done = d.scanStep ? d.scanStep(deadline) : (d.scan(), true);
      if (done) queue.shift();
      this.collectProblems();
      if (queue.length > 0) {
        setImmediate(slice);
        return;
      }
      if (this.watchKind === 'none') this.status.set({ watchMode: 'off', watchDetail: 'not watching (one-shot)' });
      else this.startWatching();
    };
    slice();
  }

  private closed = false;

  private startWatching(): void {
    this.watcher = startTreeWatcher({
      root: this.root,
      mode: this.watchKind === 'poll' ? 'poll' : 'auto',
      wants: (rel, isDir) => this.domains.some((d) => d.wants(rel, isDir)),
      isLeafDir: (rel) => this.domains.some((d) => d.isLeafDir?.(rel) ?? false),
      onEvents: (events, edge) => this.dispatch(events, edge),
      onRescan: () => {
        for (const d of this.domains) d.scan();
      },
      onMode: (watchMode, watchDetail) => this.status.set({ watchMode, watchDetail }),
    });
  }

  private dispatch(events: readonly WatchEvent[], edge: 'leading' | 'trailing'): void {
    for (const d of this.domains) {
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
          this.status.set({ ...this.status.getSnapshot(), watchDetail: `${d.name}: ${(err as Error).message}` });
        }
      }
    }
  }

  /** Every domain's additions to the --json document. */
  reportExtras(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const d of this.domains) Object.assign(out, d.report?.() ?? {});
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.watcher?.close();
    this.watcher = null;
    for (const d of this.domains) d.dispose?.();
  }
}
