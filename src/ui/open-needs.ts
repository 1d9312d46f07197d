/**
 * Which sessions have something that needs the user and is not acknowledged, for a row's `!` mark. The mark is
 * the count's: an item acknowledged (here with `a`, in another omc-top, or by `omc-top ack`) leaves the count,
 * and the row stops saying it needs you. The app provides its attention layer; without one (a test, a pane
 * drawn alone) there is no count to follow and rows mark what the store's facts raise.
 */
import { createContext, useContext, useMemo, useSyncExternalStore } from 'react';
import type { AttentionControl } from '../feeds/attention/control.js';

export const AttentionContext = createContext<AttentionControl | null>(null);

const NONE = { subscribe: () => () => undefined, get: () => null };

/** The session keys with an open item, or null when no attention layer runs. */
export function useOpenNeedSessions(): ReadonlySet<string> | null {
  const attention = useContext(AttentionContext);
  const view = attention?.monitor.view;
  const snap = useSyncExternalStore(view?.subscribe ?? NONE.subscribe, view?.getSnapshot ?? NONE.get);
  return useMemo(() => {
    if (!snap) return null;
    const out = new Set<string>();
    for (const n of snap.open) if (n.session) out.add(n.session);
    return out;
  }, [snap]);
}
