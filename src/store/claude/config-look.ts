/**
 * Which Claude config directory a running monitor reads, looked at again when it may have changed: a Claude started
 * in the project after the monitor, with another CLAUDE_CONFIG_DIR, writes its registry entry and transcripts under
 * that directory, and its hooks run the OMC enabled there. The moment such a Claude is known is when its first hook
 * writes its session into `.omc` (a session id new to the monitor): then, once, the project's Claudes are looked at
 * (claudes-here.ts) and the directory is chosen by the rule the start uses (project-config.ts: the one most of them
 * use). Another one than the Claude side reads is switched to (`use`: the Claude side drops the old directory's rows
 * and reads the new one), the other directories in use are said as problem lines with the command that reads them,
 * and the OMC is looked for again from the processes (`onNewSession`: omc-recheck.ts's look that reads them).
 *
 * `firstLookInScan`: the monitor's start does not wait for the look (a /proc scan, 3–6 ms at ~100 processes): the
 * store reads this domain in a slice of its own after the first frame, just before the Claude side, which reads
 * nothing until `use` says which directory. Nothing is read at rest: no timer, no tick.
 */
import { SnapshotCell } from '../../io/snapshot-cell.js';
import type { SessionsSnapshot } from '../sessions/model.js';
import type { Domain, Problem } from '../types.js';
import type { ClaudeConfigDir } from './config-dir.js';
import { configReadWords, projectClaudeConfig, type ProjectClaudeConfig } from './project-config.js';

export interface ClaudeConfigLookOptions {
  sessions: { getSnapshot(): SessionsSnapshot; subscribe(l: () => void): () => void };
  projectDir: string;
  /** The environment the monitor's Claude side was started with (whose directory wins a tie). */
  env: NodeJS.ProcessEnv;
  /** The directory the Claude side reads now. */
  current: () => ClaudeConfigDir;
  /** Read `config` from now on (ClaudeDomain.useConfig); called at every look, the first one settles the Claude side. */
  use: (config: ClaudeConfigDir) => void;
  /** A session new to the monitor appeared (after the first read): the OMC is looked for again from the processes. */
  onNewSession?: () => void;
  /** The first look is made by scan() (the store's slice after the first frame), not before the monitor starts. */
  firstLookInScan?: boolean;
  /** How the directory is chosen (default: from the project's live Claudes, projectClaudeConfig). */
  choose?: (projectDir: string, env: NodeJS.ProcessEnv) => ProjectClaudeConfig;
}

export class ClaudeConfigLook implements Domain {
  readonly name = 'claude-config';
  private readonly cell = new SnapshotCell<readonly Problem[]>([]);
  private known: Set<string> | null = null;
  private lastList: readonly unknown[] | null = null;
  private looked = false;
  private readonly off: () => void;

  constructor(private readonly o: ClaudeConfigLookOptions) {
    this.off = o.sessions.subscribe(() => this.sessionsChanged());
  }

  wants = () => false;
  refresh = () => undefined;
  problems = (): readonly Problem[] => this.cell.getSnapshot();
  subscribe = (l: () => void) => this.cell.subscribe(l);
  dispose = () => this.off();

  /** The deferred first look (firstLookInScan); otherwise the start looked already (omc-root.ts). */
  scan = (): void => {
    if (!this.o.firstLookInScan || this.looked) return;
    // The OMC found at the start was judged without looking at the processes (the start's look includes their
    // --plugin-dir and their directory's plugin): looked for again as the start would have, when there are any.
    const { switched, claudes } = this.look();
    if (switched || claudes > 0) this.o.onNewSession?.();
  };

  private sessionsChanged(): void {
    const snap = this.o.sessions.getSnapshot();
    // Only while the first read is done (its sessions are the ones there at the start, looked at then), and only
    // when the list is another one of another length: a new session adds one (a loop's iteration changes none).
    if (snap.scanning || snap.sessions === this.lastList) return;
    const grew = this.lastList === null || snap.sessions.length !== this.lastList.length;
    this.lastList = snap.sessions;
    if (!grew) return;
    const ids = new Set(snap.sessions.map((s) => s.id));
    const first = this.known === null;
    const fresh = !first && [...ids].some((id) => !(this.known as Set<string>).has(id));
    this.known = ids;
    // A deferred first look not made yet is the one that will see this Claude.
    if (!fresh || (this.o.firstLookInScan && !this.looked)) return;
    this.look();
    this.o.onNewSession?.();
  }

  /** Looks at the project's Claudes, switches the Claude side when they use another directory. */
  private look(): { switched: boolean; claudes: number } {
    this.looked = true;
    const pc = (this.o.choose ?? projectClaudeConfig)(this.o.projectDir, this.o.env);
    const switched = pc.config.dir !== this.o.current().dir;
    this.o.use(pc.config);
    const next: Problem[] = pc.notes.map((message) => ({ path: 'Claude config', message, severity: 'warning' }));
    // Said as long as the directory read is not omc-top's own (chosenBy), not only at the look that switched: a
    // later look (a new session) that finds the same directory keeps the line.
    const read = configReadWords(pc);
    if (read) next.unshift({ path: 'Claude config', message: read, severity: 'info' });
    const prev = this.cell.getSnapshot();
    if (prev.length !== next.length || prev.some((p, i) => p.message !== next[i]?.message)) this.cell.set(next);
    return { switched, claudes: pc.claudes.length };
  }
}
