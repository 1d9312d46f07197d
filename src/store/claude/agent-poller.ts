/**
 * One session's Claude process looked at on demand, for commands that have
 * no live store (`omc-top cancel`, and its `--wait`): the registry entries
 * that name the session, judged as the claude domain judges them, and the
 * session's transcript read incrementally. Between two looks, an entry that
 * was live and is gone is a clean exit, seen at the second look.
 */
import type { AgentView } from '../cancel/tracker.js';
import { transcriptRel } from './config-dir.js';
import { judgeProcess, systemProbe, type LivenessProbe } from './process-status.js';
import { readRegistry, type RegistryEntry } from './registry.js';
import { TranscriptReader } from './transcript-reader.js';

export class AgentPoller {
  private reader: TranscriptReader | null = null;
  private last: { entry: RegistryEntry; status: AgentView['status'] } | null = null;
  private exitedAt: number | null = null;

  constructor(
    private readonly configDir: string,
    private readonly sessionId: string,
    /** Where the session runs when no registry entry says (its session-started cwd, or the project). */
    private readonly cwd: string | null,
    private readonly clock: () => number = Date.now,
    private readonly probe: LivenessProbe = systemProbe(),
  ) {}

  look(): AgentView {
    const now = this.clock();
    const mine = readRegistry(this.configDir).entries.filter((e) => e.sessionId === this.sessionId);
    // The live one wins over one a kill left behind, then the newest.
    const judged = mine
      .map((e) => ({ e, v: judgeProcess(e, this.probe) }))
      .sort((a, b) => rank(a.v.status) - rank(b.v.status) || (b.e.startedAt ?? 0) - (a.e.startedAt ?? 0));
    const top = judged[0];
    const cwd = top?.e.cwd ?? this.last?.entry.cwd ?? this.cwd;
    if (cwd && !this.reader) this.reader = new TranscriptReader(this.configDir, transcriptRel(cwd, this.sessionId));
    this.reader?.refresh();
    const facts = this.reader?.state().facts ?? null;
    const lastTurnEndMs = facts?.lastTurnEndMs ?? null;
    // The process seen last ended cleanly (its entry removed) and only an older one's file is left, one a kill left
    // behind before a resume: that one is not the session's process now. The seen one exited.
    const olderLeft =
      top?.v.status === 'gone' &&
      this.last !== null &&
      this.last.status !== 'gone' &&
      top.e.pid !== this.last.entry.pid &&
      (top.e.startedAt ?? 0) <= (this.last.entry.startedAt ?? 0);
    if (top && !olderLeft) {
      const status = top.v.status as AgentView['status'];
      this.last = { entry: top.e, status };
      this.exitedAt = null;
      const since = top.e.statusUpdatedAt ?? top.e.updatedAt ?? top.e.startedAt ?? top.e.mtimeMs;
      return { status, pid: top.e.pid, sinceMs: status === 'gone' ? now : since, lastTurnEndMs };
    }
    // Its entry went since the last look: the CLI removes it on a clean exit.
    if (this.last && this.last.status !== 'gone') {
      this.exitedAt ??= now;
      return { status: 'exited', pid: this.last.entry.pid, sinceMs: this.exitedAt, lastTurnEndMs };
    }
    if (facts?.exit) return { status: 'exited', pid: null, sinceMs: facts.exit.endMs, lastTurnEndMs };
    return { status: 'none', pid: null, sinceMs: null, lastTurnEndMs };
  }
}

const RANK: Record<string, number> = { busy: 0, waiting: 0, idle: 0, unknown: 1, gone: 2 };
const rank = (s: string) => RANK[s] ?? 3;
