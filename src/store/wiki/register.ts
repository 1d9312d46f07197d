import type { OmcStore } from '../store.js';

/** Adds the wiki domain to the store (not built yet). */
export function registerWiki(_store: OmcStore): void {}
