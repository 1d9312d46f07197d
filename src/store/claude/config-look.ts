/**
 * A Claude started in the project after the monitor, with another CLAUDE_CONFIG_DIR than the one the monitor reads:
 * its registry entry and transcripts are in a directory the monitor does not read, and its hooks run the OMC enabled
 * there. The moment such a Claude is known is when its first hook writes its session into `.omc` (a session id new to
 * the monitor): then, once, the project's Claudes are looked at (claudes-here.ts). One that runs with another config
 * directory is said as a problem line with the command that reads it, and the OMC is looked for again from the
 * processes (`onNewSession`: omc-recheck.ts's look that reads them). Nothing is read at rest: no timer, no tick.
 */
import { SnapshotCell } from '../../io/snapshot-cell.js';
import type { SessionsSnapshot } from '../sessions/model.js';
import type { Domain, Problem } from '../types.js';
import { configDirHints } from './project-config.js';

export interface ClaudeConfigLookOptions {
  sessions: { getSnapshot(): SessionsSnapshot; subscribe(l: () => void): () => void };
  projectDir: string;
  /** The environment the monitor's Claude side reads with (its config directory). */
  env: NodeJS.ProcessEnv;
  /** A session new to the monitor appeared (after the first read): the OMC is looked for again from the processes. */
  onNewSession?: () => void;
  /** How the hints are found (default: the project's live Claudes, configDirHints). */
  hints?: (projectDir: string, env: NodeJS.ProcessEnv) => string[];
}

export class ClaudeConfigLook implements Domain {
  readonly name = 'claude-config';
  private readonly cell = new SnapshotCell<readonly Problem[]>([]);
  private known: Set<string> | null = null;
  private lastList: readonly unknown[] | null = null;
  private readonly off: () => void;

  constructor(private readonly o: ClaudeConfigLookOptions) {
    this.off = o.sessions.subscribe(() => this.sessionsChanged());
  }

  wants = () => false;
  scan = () => undefined;
  refresh = () => undefined;
  problems = (): readonly Problem[] => this.cell.getSnapshot();
  subscribe = (l: () => void) => this.cell.subscribe(l);
  dispose = () => this.off();

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
    if (!fresh) return;
    const hints = (this.o.hints ?? configDirHints)(this.o.projectDir, this.o.env);
    const next: Problem[] = hints.map((message) => ({ path: 'Claude config', message, severity: 'warning' }));
    const prev = this.cell.getSnapshot();
    if (prev.length !== next.length || prev.some((p, i) => p.message !== next[i]?.message)) this.cell.set(next);
    this.o.onNewSession?.();
  }
}
