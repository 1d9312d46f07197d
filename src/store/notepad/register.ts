import type { OmcStore } from '../store.js';
import { NotepadDomain } from './domain.js';

/** Adds the notepad domain (`<root>/notepad.md`) to the store; the Notepad pane finds it by name. */
export function registerNotepad(store: OmcStore): NotepadDomain {
  return store.addDomain(new NotepadDomain({ root: store.root, clock: store.clock, readonly: store.readonly }));
}

/** The store's notepad domain (registered by addStandardDomains). */
export function notepadOf(store: OmcStore): NotepadDomain | undefined {
  return store.getDomain<NotepadDomain>('notepad');
}
