import type { OmcStore } from '../store.js';

/** Adds the notepad domain to the store (not built yet). */
export function registerNotepad(_store: OmcStore): void {}
