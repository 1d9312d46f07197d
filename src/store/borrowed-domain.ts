/**
 * A domain one owner reads and disposes for many stores (the fleet's machine-wide files: OMC's usage cache is the
 * machine's, not a project's). In each store's domain list it stands for the shared one: its problems count and
 * its changes are heard there, but a store's start, polls and close read nothing and stop nothing of it; closing
 * the store only stops its own listening.
 */
import type { Domain, Problem } from './types.js';

export function borrowed(shared: Domain): Domain {
  const stops: Array<() => void> = [];
  return {
    name: shared.name,
    wants: () => false,
    scan: () => undefined,
    refresh: () => undefined,
    problems: (): readonly Problem[] => shared.problems?.() ?? [],
    subscribe: (listener) => {
      const stop = shared.subscribe?.(listener) ?? (() => undefined);
      stops.push(stop);
      return stop;
    },
    dispose: () => {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
