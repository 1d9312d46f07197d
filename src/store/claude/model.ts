/** Immutable snapshot shapes of the Claude domain (what panes and --json read). */
import type { Problem } from '../types.js';
import type { ProcessStatus } from './process-status.js';
import type { SubagentsPartial, SubagentsSummary } from './subagents.js';
import type { ToolCall, TranscriptFacts } from './transcript-facts.js';

export type GoneDatedBy = 'seen-gone' | 'last-sign-of-life';

export interface ProcessView {
  pid: number;
  sessionId: string;
  status: ProcessStatus;
  reason: string;
  /**
   * Epoch ms of the last status change; for gone, as `goneDatedBy` says: when this omc-top process saw it gone, or
   * its last sign of life on disk (registry.ts `lastSignOfLife`) when it never saw it run.
   */
  since: number | null;
  /**
   * What dates a gone process: `seen-gone`, the moment this omc-top process, which had seen it running, found it
   * gone; `last-sign-of-life`, the last time the CLI wrote its registry entry (this process never saw it run, so it
   * knows no better). Absent unless gone.
   */
  goneDatedBy?: GoneDatedBy;
  entrypoint: string | null;
  version: string | null;
  kind: string | null;
  /** Claude Code's name for the session (registry `name`: derived "proj-87", or the user's /rename). */
  name: string | null;
  /** The registry's "session:@window.%pane" when the CLI runs under tmux. */
  tmux: string | null;
  /** The session's inbox socket (registry `messagingSocketPath`); null or absent when none is registered. */
  messagingSocketPath?: string | null;
  /** The same place in names ("main:2 claude") when tmux could tell, else the registry's text; null outside tmux. */
  tmuxWhere: string | null;
  cwd: string | null;
  waitingFor: string | null;
  procStart: string | null;
  startedAt: number | null;
  /** Relative to the config dir. */
  registryRel: string;
  /**
   * The other registered processes of this session not known to have ended (two terminals resumed it), ascending;
   * absent or empty when this one runs it alone. This one is the choice of store/claude/choice.ts.
   */
  alsoPids?: readonly number[];
  /**
   * Its working directory when its hooks read another `.omc` than this root (store/hook-root.ts): a `claude
   * --resume` typed in another project. Nothing will continue or end this root's loop then. Absent or null: they
   * read this root, or that is not known.
   */
  elsewhere?: string | null;
  /**
   * For a process that has ended (gone, exited): the live Claude the registry now places in the very tmux pane it ran
   * in (a plain `claude` started there since). J would land in that Claude's prompt, so it is not offered: the loop is
   * resumed with r in a new window (join-words.ts `paneTakenText`). Absent or null: nobody, or not known.
   */
  paneNow?: PaneHolder | null;
  /**
   * Another process of this session (`alsoPids`) that waits on a prompt (the registry's `waiting`) while this one,
   * the one shown, does not: the session waits for you (life.ts `lifeOf`, attention.ts), credited to that process,
   * and J goes to it. Absent or null: none.
   */
  waitingPeer?: ProcessView | null;
}

/** A live Claude in a pane: its pid, Claude's name for its session, and the session's id. */
export interface PaneHolder {
  pid: number;
  name: string | null;
  sessionId: string;
}

export interface TranscriptView {
  /** Relative to the config dir. */
  rel: string;
  /** The session's facts, its subagents' usage folded in (subagents.ts). */
  facts: TranscriptFacts;
  /** The subagents' own figures (per agent, per type); null when it has none. */
  subagents: SubagentsSummary | null;
  /**
   * The session has subagent files not read to their end yet (the monitor reads them after it is live): `facts`
   * and `subagents` are then a lower bound, and every surface that shows cost says so.
   */
  subagentsReading?: boolean;
  /**
   * The session's own transcript is not read to its end yet (a big one is read mostly after the monitor is live):
   * a lower bound too, said on every surface (store/cost/spend.ts `readingOf`).
   */
  transcriptReading?: boolean;
  size: number;
  /** The summary covers bytes from here on; 0 = the whole file. */
  partialFrom: number;
  /**
   * Lines over 4 MB not read, in the transcript and its subagent files (transcript-reader.ts MAX_PARSED_LINE): their
   * usage is in no figure, a lower bound for good. Absent: none.
   */
  longLines?: number;
  /**
   * Its subagent files over 64 MB, each read from its last 64 MB only (as the transcript over it is): how many and
   * the bytes before those parts, never counted; a lower bound for good. Absent: none.
   */
  subagentsPartial?: SubagentsPartial;
  problem: string | null;
}

/** What a waiting Claude process waits on, and where to answer it. */
export interface WaitingFact {
  /** The registry's words ("permission prompt", "input needed", …). */
  for: string;
  /** When it began waiting (the registry's statusUpdatedAt). */
  sinceMs: number | null;
  /** The tool call without a result that the dialog is about; null when the transcript shows none. */
  call: ToolCall | null;
  /** Further calls without a result. */
  more: number;
  /** Claude Code's name for the session. */
  name: string | null;
  /** tmux session:window as its status bar names it (life.ts `tmuxPlaceOf`). */
  where: string | null;
  /** One line: `permission prompt: Bash rm -rf ./cache`. */
  text: string;
}

export interface ClaudeSessionView {
  sessionId: string;
  /**
   * The session's Claude process. `status: "exited"` when omc-top saw its registry entry go (a clean exit):
   * the last entry's fields, `since` = when. Never set for a process omc-top did not see.
   */
  process: ProcessView | null;
  transcript: TranscriptView | null;
  /** Set while the process waits for the user. */
  waiting: WaitingFact | null;
}

export interface ClaudeSnapshot {
  version: number;
  configDir: string;
  rule: string;
  /** Keyed by Claude's session id (= OMC's session directory name). */
  bySession: ReadonlyMap<string, ClaudeSessionView>;
  /**
   * The processes a session's view does not stand for (two terminals resumed one session: `alsoPids`), by pid: a
   * permission prompt names the Claude that asked (asker.ts), which may be one of these. Absent: none.
   */
  others?: ReadonlyMap<number, ProcessView>;
  /** Registry entries whose session OMC does not know, e.g. a CLI started without OMC. */
  problems: readonly Problem[];
  registryMissing: boolean;
}
