/**
 * Which slices of .omc a store reads besides sessions. Each pane that needs
 * more data (notepad, project memory, wiki, teams) registers its domain here,
 * so the TUI and --json read exactly the same things.
 */
import { registerMemory } from './memory/register.js';
import { registerNotepad } from './notepad/register.js';
import { registerPrd } from './prd/register.js';
import { registerRuns } from './runs/register.js';
import type { OmcStore } from './store.js';
import { registerTeams } from './team/register.js';
import { registerWiki } from './wiki/register.js';

export function addStandardDomains(store: OmcStore): void {
  registerNotepad(store);
  registerMemory(store);
  registerWiki(store);
  registerTeams(store);
  registerPrd(store); // history: ralph PRD story progress
  registerRuns(store); // history: run ledger + ended-session summaries
}
