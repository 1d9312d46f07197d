/**
 * One project's background jobs (`claude --bg`): the jobs of the machine's `jobs/` directory (bg-jobs-reader.ts)
 * whose cwd is this project or inside it. The job's process is the registry entry of kind "bg" with that session id
 * (the Claude domain's join). The reader is this domain's own, or the one a fleet shares among its projects.
 */
import { isInside } from '../../io/safe-fs/index.js';
import { SnapshotCell } from '../../io/snapshot-cell.js';
import type { Domain, Problem } from '../types.js';
import { BgJobsReader, type BgJob } from './bg-jobs-reader.js';
import type { ClaudeConfigDir } from './config-dir.js';

export { MAX_JOBS, parseJobState, type BgJob } from './bg-jobs-reader.js';

export interface BgJobsSnapshot {
  version: number;
  jobs: BgJob[];
  problems: Problem[];
}

export class BgJobsDomain implements Domain {
  readonly name = 'claude-jobs';
  readonly cell = new SnapshotCell<BgJobsSnapshot>({ version: 0, jobs: [], problems: [] });
  /** What reads `jobs/`: this domain's own, or the fleet's (then its owner reads and disposes it). */
  reader: BgJobsReader;
  private readonly owned: boolean;
  private unfollow: () => void;
  private lastKey = '';

  constructor(
    private readonly opts: {
      config: ClaudeConfigDir;
      projectDir: string | null;
      live?: boolean;
      shared?: BgJobsReader;
    },
  ) {
    this.owned = !opts.shared;
    this.reader = opts.shared ?? new BgJobsReader({ config: opts.config, live: opts.live });
    this.unfollow = this.reader.onChange(() => this.publish());
  }

  subscribe = (l: () => void) => this.cell.subscribe(l);
  getSnapshot = () => this.cell.getSnapshot();
  wants(): boolean {
    return false;
  }
  refresh(): void {}

  /** Lists `jobs/` again with its own reader; with a shared one, shows what that one last read. */
  scan(): void {
    if (this.owned) this.reader.read(null);
    else this.publish();
  }

  private publish(): void {
    const project = this.opts.projectDir;
    const jobs: BgJob[] = [];
    const problems: Problem[] = [];
    for (const [id, f] of this.reader.files) {
      const j = f.value;
      if (j && (project === null || (j.cwd !== null && (j.cwd === project || isInside(project, j.cwd))))) jobs.push(j);
      if (f.problem)
        problems.push({
          path: `${this.reader.dir}/jobs/${id}/state.json`,
          message: f.problem,
          severity: 'warning',
        });
    }
    jobs.sort((a, b) => (b.updatedMs ?? 0) - (a.updatedMs ?? 0));
    const key = JSON.stringify([jobs, problems]);
    if (key === this.lastKey) return;
    this.lastKey = key;
    const prev = this.cell.getSnapshot();
    this.cell.set({ version: prev.version + 1, jobs, problems });
  }

  /**
   * Reads `config`'s `jobs/` from now on (the monitor follows the project's Claudes to another config directory,
   * config-look.ts): the old directory's jobs are dropped. A shared reader (the fleet's) stays its owner's.
   */
  useConfig(config: ClaudeConfigDir): void {
    if (!this.owned || config.dir === this.reader.dir) return;
    this.unfollow();
    this.reader.dispose();
    this.reader = new BgJobsReader({ config, live: this.opts.live });
    this.unfollow = this.reader.onChange(() => this.publish());
    this.reader.read(null);
    this.publish();
  }

  problems(): readonly Problem[] {
    return this.cell.getSnapshot().problems;
  }

  dispose(): void {
    this.unfollow();
    if (this.owned) this.reader.dispose();
  }
}
