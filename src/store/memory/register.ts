import type { OmcStore } from '../store.js';
import { MemoryDomain } from './domain.js';

/** Adds project memory (project-memory.json) to the store; the memory pane reads and edits it. */
export function registerMemory(store: OmcStore): MemoryDomain {
  return store.addDomain(new MemoryDomain({ root: store.root, clock: store.clock, readonly: store.readonly }));
}

/** The store's memory domain (registered by addStandardDomains). */
export function memoryOf(store: OmcStore): MemoryDomain | undefined {
  return store.getDomain<MemoryDomain>('memory');
}
