import type { OmcStore } from '../store.js';

/** Adds the memory domain to the store (not built yet). */
export function registerMemory(_store: OmcStore): void {}
