/** Writes N finished ralph sessions (distinct start times, newest first in the list) into a temp project. */
import path from 'node:path';
import { liveRalph, ralphStateFile, writeLiveRalph, writeOmcJson } from './fixtures.js';

export const sessionId = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;

/** Session n started n minutes before `now`, so the list shows them in order 1, 2, 3, … */
export function writeFinishedSessions(root: string, count: number, now = Date.now()): string[] {
  const ids: string[] = [];
  for (let n = 1; n <= count; n++) {
    const id = sessionId(n);
    ids.push(id);
    const started = new Date(now - n * 60_000).toISOString();
    writeOmcJson(path.join(root, 'state', 'sessions', id, 'ralph-state.json'), {
      active: false,
      iteration: 3,
      max_iterations: 10,
      started_at: started,
      last_checked_at: started,
      completed_at: started,
      session_id: id,
      prompt: `task number ${n}`,
    });
  }
  return ids;
}

/** Makes session `id` a live ralph loop, which sorts it above every finished one. */
export function makeLive(root: string, id: string, now = Date.now()): void {
  writeLiveRalph(
    { root },
    { sessionId: id, iteration: 4, max: 10, startedAt: now - 30_000, checkedAt: now, prompt: 'now running' },
  );
}

/** Writes `count` live ralph loops, loop i at iteration i with id `s<i, four digits>-0000-4000-8000-000000000000`. */
export function writeLiveLoops(root: string, count: number): void {
  for (let i = 0; i < count; i++) {
    const sid = `s${String(i).padStart(4, '0')}-0000-4000-8000-000000000000`;
    writeOmcJson(ralphStateFile(root, sid), liveRalph({ sessionId: sid, iteration: i, max: 10 }));
  }
}
