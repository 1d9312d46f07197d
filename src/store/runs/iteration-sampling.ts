import type { OmcStore } from '../store.js';
import { IterationSamples, samplesDir } from './samples.js';
import { WATCHED_RUN_MODES } from './ledger.js';

/**
 * The TUI only: samples every live watched loop's iteration into
 * $XDG_STATE_HOME/omc-top/ (never --json, never --readonly, never tests that do not ask),
 * and feeds them to the history for runs whose state is gone. Returns a stop function.
 */
export function enableIterationSamples(store: OmcStore, env: NodeJS.ProcessEnv = process.env): () => void {
  const runs = store.runs;
  if (store.readonly) return () => {};
  const samples = new IterationSamples(samplesDir(env), store.root);
  runs.setSampler((mode, sid, started) => samples.iterationsOf(mode, sid, started));
  const watched = new Set<string>(WATCHED_RUN_MODES);
  const take = () => {
    // Not during the progressive first read: each slice is a snapshot, and each would rewrite (and fsync) the
    // file; the snapshot that ends the read has every session.
    if (store.status.getSnapshot().reading) return;
    const snap = store.sessions.getSnapshot();
    for (const s of snap.sessions)
      for (const m of s.modes)
        if (m.active && watched.has(m.mode) && m.iteration !== null)
          samples.record(m.mode, s.kind === 'legacy' ? null : s.id, m.startedMs, m.iteration, store.clock());
    try {
      samples.flush();
    } catch {
      /* samples are a convenience: a full disk must not disturb the monitor */
    }
  };
  take();
  const offSessions = store.sessions.subscribe(take);
  let wasReading = !!store.status.getSnapshot().reading;
  const offStatus = store.status.subscribe(() => {
    const reading = !!store.status.getSnapshot().reading;
    if (wasReading && !reading) take();
    wasReading = reading;
  });
  return () => {
    offSessions();
    offStatus();
  };
}
