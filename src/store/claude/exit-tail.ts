/**
 * Whether a session's Claude Code exited, from the end of its transcript only: the exit figures (the last
 * cost-state line, with no conversation after it) are written as the CLI exits, so they sit in the transcript's
 * last lines. `status` (no monitor running) reads no transcript whole, yet must judge a loop whose Claude is gone
 * as the monitor does — orphaned — where the registry no longer names that process.
 */
import path from 'node:path';
import type { SessionsSnapshot } from '../sessions/model.js';
import { activeLoop } from './attention.js';
import { transcriptRel } from './config-dir.js';
import type { ClaudeSessionView, ClaudeSnapshot } from './model.js';
import { emptyFacts, FactsBuilder, type ExitFigures } from './transcript-facts.js';
import { TranscriptReader } from './transcript-reader.js';

/** Enough for the exit figures and the few lines after them; a transcript is read no further back. */
const TAIL_BYTES = 64 * 1024;

/**
 * The exit figures in the transcript's last TAIL_BYTES, read by the monitor's own reader (its line split and parse,
 * the line types it skips, a first piece that starts inside a line dropped): so `status` and the monitor judge the
 * same lines the same way.
 */
export function exitInTail(configDir: string, rel: string): ExitFigures | null {
  const reader = new TranscriptReader(configDir, rel, () => new FactsBuilder(), false, TAIL_BYTES);
  if (reader.refresh(TAIL_BYTES) === 'missing') return null;
  return reader.state().facts.exit;
}

/**
 * The registry-only picture with the exits the transcripts' tails show, for each session with an active loop whose
 * Claude process is not known running: what the monitor's full read would conclude about whether it exited, and
 * nothing else (its cost and its other facts stay unread).
 */
export function withExitsFromTails(
  snap: ClaudeSnapshot,
  sessions: SessionsSnapshot,
  projectDir: string | null,
): ClaudeSnapshot {
  let by: Map<string, ClaudeSessionView> | null = null;
  for (const s of sessions.sessions) {
    if (s.kind !== 'session' || !activeLoop(s)) continue;
    const known = snap.bySession.get(s.id);
    if (known?.process && known.process.status !== 'unknown') continue;
    const cwd = s.cwd ?? projectDir;
    if (!cwd || !path.isAbsolute(cwd)) continue;
    const rel = transcriptRel(cwd, s.id);
    const exit = exitInTail(snap.configDir, rel);
    if (!exit) continue;
    by ??= new Map(snap.bySession);
    by.set(s.id, {
      sessionId: s.id,
      process: known?.process ?? null,
      waiting: known?.waiting ?? null,
      transcript: { rel, facts: { ...emptyFacts(), exit }, subagents: null, size: 0, partialFrom: 0, problem: null },
    });
  }
  return by ? { ...snap, bySession: by } : snap;
}
