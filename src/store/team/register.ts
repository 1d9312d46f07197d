import type { OmcStore } from '../store.js';

/** Adds the team domain to the store (not built yet). */
export function registerTeams(_store: OmcStore): void {}
