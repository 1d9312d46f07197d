/**
 * A sessions snapshot looked up by key (the directory name; LEGACY_KEY for the session-less row), and how many
 * sessions hold each mode, kept by each domain's delta: a consumer that needs "which view is session X" at every
 * change (the Cost pane's loops, its budget guard) pays for what changed, not a Map of every session built again.
 *
 * One index per domain (SessionsSnapshot.lineage), updated in place to the snapshot asked for: what it returns is
 * valid until a later snapshot of that domain is asked for. A snapshot that does not follow the last one asked
 * (or has no lineage or delta) is indexed from scratch.
 */
import { sessionKey, type SessionView, type SessionsSnapshot } from './model.js';

export interface SessionIndex {
  readonly byKey: ReadonlyMap<string, SessionView>;
  /** Each mode name any session's state files hold (active or not), with how many sessions hold it. */
  readonly modes: ReadonlyMap<string, number>;
}

interface Kept {
  version: number;
  byKey: Map<string, SessionView>;
  modes: Map<string, number>;
}

const byLineage = new WeakMap<object, Kept>();
/** Snapshots without a lineage (made by hand, tests): indexed once each. */
const unowned = new WeakMap<SessionsSnapshot, Kept>();

export function sessionIndex(snap: SessionsSnapshot): SessionIndex {
  if (!snap.lineage) {
    let kept = unowned.get(snap);
    if (!kept) unowned.set(snap, (kept = fromScratch(snap)));
    return kept;
  }
  const kept = byLineage.get(snap.lineage);
  if (kept && kept.version === snap.version) return kept;
  const delta = snap.delta;
  if (kept && delta?.gone && delta.from === kept.version) {
    for (const g of delta.gone) {
      const k = sessionKey(g);
      if (kept.byKey.get(k) !== g) continue;
      kept.byKey.delete(k);
      countModes(kept.modes, g, -1);
    }
    // A changed session's previous view is among `gone`: taken out above.
    for (const v of delta.changed) {
      kept.byKey.set(sessionKey(v), v);
      countModes(kept.modes, v, 1);
    }
    kept.version = snap.version;
    return kept;
  }
  const fresh = fromScratch(snap);
  byLineage.set(snap.lineage, fresh);
  return fresh;
}

function fromScratch(snap: SessionsSnapshot): Kept {
  const kept: Kept = { version: snap.version, byKey: new Map(), modes: new Map() };
  for (const v of snap.sessions) {
    kept.byKey.set(sessionKey(v), v);
    countModes(kept.modes, v, 1);
  }
  return kept;
}

/** A session counts once per mode name, however many of its files name it. */
function countModes(modes: Map<string, number>, v: SessionView, sign: 1 | -1): void {
  for (let i = 0; i < v.modes.length; i++) {
    const m = (v.modes[i] as SessionView['modes'][number]).mode;
    let first = true;
    for (let j = 0; j < i; j++) if ((v.modes[j] as SessionView['modes'][number]).mode === m) first = false;
    if (!first) continue;
    const n = (modes.get(m) ?? 0) + sign;
    if (n > 0) modes.set(m, n);
    else modes.delete(m);
  }
}
