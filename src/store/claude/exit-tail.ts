/**
 * Whether a session's Claude Code exited, from the end of its transcript only: the exit figures (the last
 * cost-state line, with no conversation after it) are written as the CLI exits, so they sit in the transcript's
 * last lines. `status` (no monitor running) reads no transcript whole, yet must judge a loop whose Claude is gone
 * as the monitor does — orphaned — where the registry no longer names that process.
 */
import path from 'node:path';
import { readLogTailSync } from '../../io/safe-fs/index.js';
import type { SessionsSnapshot } from '../sessions/model.js';
import { activeLoop } from './attention.js';
import { transcriptRel } from './config-dir.js';
import type { ClaudeSessionView, ClaudeSnapshot } from './model.js';
import { emptyFacts, FactsBuilder, type ExitFigures } from './transcript-facts.js';

/** Enough for the exit figures and the few lines after them; a transcript is read no further back. */
const TAIL_BYTES = 64 * 1024;

export function exitInTail(configDir: string, rel: string): ExitFigures | null {
  const r = readLogTailSync(configDir, rel, 0, TAIL_BYTES);
  if (!r.ok || r.text === '') return null;
  const lines = r.text.split('\n');
  // A tail that starts inside a line: that first piece is not a line.
  if (r.start > 0) lines.shift();
  const b = new FactsBuilder();
  for (const text of lines) {
    if (text === '' || text.length > TAIL_BYTES) continue;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      continue;
    }
    if (v && typeof v === 'object' && !Array.isArray(v)) b.add(v as Record<string, unknown>, text);
  }
  return b.facts.exit;
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
