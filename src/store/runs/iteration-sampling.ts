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
  return store.sessions.subscribe(take);
}
