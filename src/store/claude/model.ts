/** Immutable snapshot shapes of the Claude domain (what panes and --json read). */
import type { Problem } from '../types.js';
import type { ProcessStatus } from './process-status.js';
import type { SubagentsSummary } from './subagents.js';
import type { TranscriptFacts } from './transcript-facts.js';

export interface ProcessView {
  pid: number;
  sessionId: string;
  status: ProcessStatus;
  reason: string;
  /** Epoch ms of the last status change (for gone: when omc-top first saw it gone). */
  since: number | null;
  entrypoint: string | null;
  version: string | null;
  kind: string | null;
  name: string | null;
  tmux: string | null;
  /** The session's inbox socket (registry `messagingSocketPath`); null or absent when none is registered. */
  messagingSocketPath?: string | null;
  cwd: string | null;
  waitingFor: string | null;
  procStart: string | null;
  startedAt: number | null;
  /** Relative to the config dir. */
  registryRel: string;
}

export interface TranscriptView {
  /** Relative to the config dir. */
  rel: string;
  /** The session's facts, its subagents' usage folded in (subagents.ts). */
  facts: TranscriptFacts;
  /** The subagents' own figures (per agent, per type); null when it has none. */
  subagents: SubagentsSummary | null;
  size: number;
  /** The summary covers bytes from here on; 0 = the whole file. */
  partialFrom: number;
  problem: string | null;
}

export interface ClaudeSessionView {
  sessionId: string;
  process: ProcessView | null;
  transcript: TranscriptView | null;
}

export interface ClaudeSnapshot {
  version: number;
  configDir: string;
  rule: string;
  /** Keyed by Claude's session id (= OMC's session directory name). */
  bySession: ReadonlyMap<string, ClaudeSessionView>;
  /** Registry entries whose session OMC does not know, e.g. a CLI started without OMC. */
  problems: readonly Problem[];
  registryMissing: boolean;
}
