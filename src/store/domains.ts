/**
 * Which slices of .omc a store reads besides sessions. Each pane that needs
 * more data (notepad, project memory, wiki, teams) registers its domain here,
 * so the TUI and --json read exactly the same things.
 */
import { registerClaude } from './claude/register.js';
import { registerMemory } from './memory/register.js';
import { registerNotepad } from './notepad/register.js';
import type { OmcStore } from './store.js';
import { registerTeams } from './team/register.js';
import { registerWiki } from './wiki/register.js';

/** `live: false` for one-shot reads (--json): no watches or timers outside the tree watcher. */
export function addStandardDomains(store: OmcStore, opts: { live?: boolean } = {}): void {
  registerNotepad(store);
  registerMemory(store);
  registerWiki(store);
  registerTeams(store);
  registerClaude(store, { live: opts.live ?? true });
}
