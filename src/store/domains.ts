/**
 * Which slices of .omc a store reads besides sessions. Panes that need more
 * data (notepad, project memory, wiki, teams) register their domain here so
 * the TUI and --json see the same thing.
 */
import type { OmcStore } from './store.js';

export function addStandardDomains(_store: OmcStore): void {
  // Filled in as the notepad, memory, wiki and team slices land.
}
