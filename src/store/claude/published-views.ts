/**
 * What each session's published view was built from, kept field by field so the domain can tell whether a
 * publish changes anything without building a key string or a view per session. A transcript catch-up publishes
 * after every slice (hundreds of times for 200 transcripts of 10 MB) and each slice moves one or two sessions:
 * the per-session keys and views the domain built for all 200 were young garbage that outlived the slice's
 * scavenges, was promoted, and left the old generation fragmented after the read (the collection V8 runs half
 * a minute later then costs ~0.3 s of CPU).
 */
import type { ClaudeSessionView, PaneHolder, ProcessView } from './model.js';

/**
 * A transcript's state as far as a view depends on it: its reader's and subagents' versions, whether it is still
 * behind (a last slice of skipped lines changes no fact, only that), its problem. The domain fills one scratch object per session while comparing and copies it only into a new entry.
 */
export interface ReadState {
  version: number;
  subagentsVersion: number;
  behind: boolean;
  problem: string | null;
}

export interface PublishedView {
  view: ClaudeSessionView;
  process: ProcessView | null;
  /** null: no transcript in the view. */
  read: ReadState | null;
  /** The publish that last listed this session (entries not listed are dropped). */
  round: number;
}

/** What decides whether the domain publishes at all (the listing: status, timing, process, transcript state). */
export function sameListing(p: PublishedView, pv: ProcessView | null, read: ReadState | null): boolean {
  const a = p.process;
  return (
    Object.is(a?.status, pv?.status) &&
    Object.is(a?.since, pv?.since) &&
    Object.is(a?.goneDatedBy, pv?.goneDatedBy) &&
    Object.is(a?.pid, pv?.pid) &&
    Object.is(a?.reason, pv?.reason) &&
    Object.is(a?.tmuxWhere, pv?.tmuxWhere) &&
    (a?.elsewhere ?? null) === (pv?.elsewhere ?? null) &&
    sameHolder(a?.paneNow, pv?.paneNow) &&
    samePeer(a?.waitingPeer, pv?.waitingPeer) &&
    samePids(a?.alsoPids, pv?.alsoPids) &&
    sameRead(p.read, read)
  );
}

/** What decides whether a session's view object is rebuilt (else the published one is kept, and its row is not re-rendered). */
export function sameView(p: PublishedView, pv: ProcessView | null, read: ReadState | null): boolean {
  const a = p.process;
  return (
    sameListing(p, pv, read) &&
    Object.is(a?.tmux, pv?.tmux) &&
    Object.is(a?.name, pv?.name) &&
    Object.is(p.read?.problem, read?.problem)
  );
}

/** The same live Claude in a dead process's pane (absent and null are the same). */
export function sameHolder(a: PaneHolder | null | undefined, b: PaneHolder | null | undefined): boolean {
  if (!a || !b) return !a === !b;
  return a.pid === b.pid && a.name === b.name && a.sessionId === b.sessionId;
}

/** The same other process waiting on a prompt, in the same episode (absent and null are the same). */
export function samePeer(a: ProcessView | null | undefined, b: ProcessView | null | undefined): boolean {
  if (!a || !b) return !a === !b;
  return (
    a.pid === b.pid &&
    a.status === b.status &&
    a.since === b.since &&
    a.waitingFor === b.waitingFor &&
    a.name === b.name &&
    a.tmuxWhere === b.tmuxWhere
  );
}

function sameRead(a: ReadState | null, b: ReadState | null): boolean {
  if (a === null || b === null) return a === b;
  return a.version === b.version && a.subagentsVersion === b.subagentsVersion && a.behind === b.behind;
}

/** The other processes of a session, compared without building anything (absent and empty are the same). */
export function samePids(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
  const n = a?.length ?? 0;
  if (n !== (b?.length ?? 0)) return false;
  for (let i = 0; i < n; i++) if (a?.[i] !== b?.[i]) return false;
  return true;
}
