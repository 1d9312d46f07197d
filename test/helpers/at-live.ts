/**
 * What a surface shows "at live": the store started as the app starts it (progressive, watching), and a reading
 * taken at the first notification once the status says live (nothing left to read before live, the watches up).
 * Tests of what is read before live and what after (issue 26) compare this reading with the final one.
 */
import type { OmcStore } from '../../src/store/store.js';
import { waitFor } from './fixtures.js';

export interface AtLiveOptions {
  /**
   * Also take it on the Claude cell's notifications, whichever cell tells first: the status cell notifies once per
   * turn, so by its first notification after live a slice read after live may already have arrived.
   */
  alsoOnClaude?: boolean;
}

/** Starts `store` as the app does and resolves with `take()` as it was when the status first read live. */
export async function takeAtLive<T>(store: OmcStore, take: () => T, opts: AtLiveOptions = {}): Promise<T> {
  let atLive: { value: T } | null = null;
  const capture = () => {
    const st = store.status.getSnapshot();
    if (atLive === null && !st.reading && st.watchMode !== 'starting') atLive = { value: take() };
  };
  const stops = [store.status.subscribe(capture), ...(opts.alsoOnClaude ? [store.claude.subscribe(capture)] : [])];
  store.start({ progressive: true });
  const taken = await waitFor(() => atLive, { what: 'the monitor live', timeoutMs: 30_000 });
  for (const stop of stops) stop();
  return taken.value;
}
