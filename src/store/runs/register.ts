import type { OmcStore } from '../store.js';
import { RunsDomain, type RunsDomainOptions } from './domain.js';

/** Adds the run history domain (ledger, ended-session summaries) to the store. */
export function registerRuns(store: OmcStore, opts: Omit<RunsDomainOptions, 'root'> = {}): RunsDomain {
  return store.addDomain(new RunsDomain({ root: store.root, ...opts }));
}

export function runsOf(store: OmcStore): RunsDomain | undefined {
  return store.getDomain<RunsDomain>('runs');
}
