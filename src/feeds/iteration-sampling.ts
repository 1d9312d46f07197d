import type { OmcStore } from '../store/store.js';
import { deltaSince, LEGACY_KEY, type SessionView, type SessionsSnapshot } from '../store/sessions/model.js';
import { sessionIndex } from '../store/sessions/view-index.js';
import { IterationSamples, samplesDir } from '../store/runs/samples.js';
import { WATCHED_RUN_MODES } from '../store/runs/ledger.js';

/**
 * At most one samples write (an fsync) per second however fast loops iterate; the last one is never lost. The
 * write runs off the main thread (a change arriving meanwhile is not kept from the screen); the one at exit or
 * stop is synchronous, since nothing waits for the pool then.
 */
export const SAMPLES_FLUSH_MS = 1000;

/**
 * The TUI only: samples every live watched loop's iteration, and every other live mode's window, into
 * $XDG_STATE_HOME/omc-top/ (never --json, never --readonly, never tests that do not ask),
 * and feeds them to the history for runs whose state is gone. Returns a stop function
 * (which writes what is pending).
 *
 * A snapshot costs the sessions that changed: the sessions domain keeps an unchanged session's
 * SessionView object and says which views are new (its delta), so only views not seen in the previous snapshot
 * are sampled (a loop's
 * "last seen" is when its state was last seen changing).
 */
export function enableIterationSamples(store: OmcStore, env: NodeJS.ProcessEnv = process.env): () => void {
  const runs = store.runs;
  if (store.readonly) {
    // Writes nothing, but reads what other monitors recorded: a cancelled loop's spend stays under its mode here too.
    readRecordedWindows(store, env);
    return () => {};
  }
  const samples = new IterationSamples(samplesDir(env), store.root);
  runs.setSampler((mode, sid, started) => samples.iterationsOf(mode, sid, started));
  runs.setSeenWindows(samples);
  const watched = new Set<string>(WATCHED_RUN_MODES);
  const seen = new WeakSet<SessionView>();
  /** What was last sampled per session and mode (`startedMs:iteration`): a view that changed for another reason
   * (the clock crossing OMC's stale line, a prompt rewritten) samples nothing. Without it, at more live loops than
   * the samples keep (MAX_RUNS) each such view re-added an evicted run: a write and an fsync per transition. */
  const lastSampled = new Map<string, string>();
  /** The loops this process has seen live (by sample key), checked at each snapshot until their state goes. */
  const watching = new Map<string, { mode: string; sid: string | null; startedMs: number | null }>();
  /** The watched loops' keys by their session's key: a change looks at the loops of the sessions it changed. */
  const watchedOf = new Map<string, Set<string>>();
  const sessionKey = (s: SessionView): string => (s.kind === 'legacy' ? LEGACY_KEY : s.id);
  /** A watched loop whose state is gone or no longer active (in `view`, its session's view now, or none). */
  const checkEnd = (k: string, view: SessionView | undefined): boolean => {
    const w = watching.get(k);
    if (!w) return false;
    if (view?.modes.some((m) => m.active && m.mode === w.mode && m.startedMs === w.startedMs)) return false;
    watching.delete(k);
    const sk = w.sid ?? LEGACY_KEY;
    const set = watchedOf.get(sk);
    set?.delete(k);
    if (set?.size === 0) watchedOf.delete(sk);
    return samples.sawEnd(w.mode, w.sid, w.startedMs, store.clock());
  };
  let lastFlush = 0;
  let timer: NodeJS.Timeout | null = null;
  /** `now`: the synchronous write (exit, stop); otherwise handed to the background writer. */
  const flush = (now: boolean) => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastFlush = Date.now();
    try {
      if (now) samples.flush();
      else samples.flushSoon();
    } catch {
      /* samples are a convenience: a full disk must not disturb the monitor */
    }
  };
  let taken: SessionsSnapshot | null = null;
  const take = () => {
    const snap = store.sessions.getSnapshot();
    // After the snapshot seen last, only its delta's views can be new: a change costs that change.
    const delta = deltaSince(taken, snap);
    taken = snap;
    let recorded = false;
    // Bounded: sessions that went away leave their entries; forgetting them all costs one re-sample each.
    if (lastSampled.size > 2 * snap.sessions.length + 256) lastSampled.clear();
    // Indexed loops: see "Cold loops" in docs/ARCHITECTURE.md.
    const views = delta ? delta.changed : snap.sessions;
    for (let i = 0; i < views.length; i++) {
      const s = views[i]!;
      if (seen.has(s)) continue;
      seen.add(s);
      const sid = s.kind === 'legacy' ? null : s.id;
      for (let j = 0; j < s.modes.length; j++) {
        const m = s.modes[j]!;
        if (!m.active) continue;
        // A watched loop's iteration; any other live mode with a start (no iteration in its state: ultrawork,
        // ralplan, OMC 5.5's autopilot) is sampled for its window only, its sign of life a change of its state.
        const iteration = watched.has(m.mode) ? m.iteration : null;
        if (iteration === null && m.startedMs === null) continue;
        const key = `${sid ?? ''}\u0000${m.mode}`;
        const mark = iteration !== null ? `${m.startedMs}:${iteration}` : `${m.startedMs}:~${m.updatedMs}`;
        if (lastSampled.get(key) === mark) continue;
        lastSampled.set(key, mark);
        recorded = samples.record(m.mode, sid, m.startedMs, iteration, store.clock()) || recorded;
        const wk = `${key}\u0000${m.startedMs}`;
        watching.set(wk, { mode: m.mode, sid, startedMs: m.startedMs });
        const sk = sessionKey(s);
        const set = watchedOf.get(sk) ?? new Set<string>();
        set.add(wk);
        watchedOf.set(sk, set);
      }
    }
    // A loop seen live whose state is gone (OMC's /cancel, omc-top's cancel, its end) or no longer active: its
    // window ends now, as seen. After a delta only the loops of the sessions it changed or removed are looked at (a
    // change costs that change, whatever number of loops are watched); otherwise each watched loop is looked up.
    if (watching.size > 0) {
      if (delta) {
        for (const v of delta.changed) {
          const keys = watchedOf.get(sessionKey(v));
          if (keys) for (const k of [...keys]) recorded = checkEnd(k, v) || recorded;
        }
        for (const v of delta.removed) {
          const keys = watchedOf.get(sessionKey(v));
          if (keys) for (const k of [...keys]) recorded = checkEnd(k, undefined) || recorded;
        }
      } else {
        const index = sessionIndex(snap);
        for (const [k, w] of [...watching]) recorded = checkEnd(k, index.byKey.get(w.sid ?? LEGACY_KEY)) || recorded;
      }
    }
    if (!recorded || timer) return;
    const wait = lastFlush + SAMPLES_FLUSH_MS - Date.now();
    if (wait <= 0) flush(false);
    else (timer = setTimeout(() => flush(false), wait)).unref();
  };
  take();
  const unsub = store.sessions.subscribe(take);
  // The process may end with a write pending or still in the pool (q, a signal): write it on the way out. The
  // store tells its subscribers a macrotask after a snapshot is set, so the last one may not have been taken yet.
  const last = () => {
    try {
      take();
    } catch {
      /* as flush: the samples must not disturb an exit */
    }
    flush(true);
  };
  process.on('exit', last);
  return () => {
    unsub();
    process.off('exit', last);
    last();
  };
}

/**
 * A one-shot (`--json`): the loop windows the TUI recorded, read and never written, so a loop whose OMC 5.5
 * state file is gone keeps its spend under its mode there as on the Cost pane.
 */
export function readRecordedWindows(store: OmcStore, env: NodeJS.ProcessEnv = process.env): void {
  store.runs.setSeenWindows(new IterationSamples(samplesDir(env), store.root));
}
