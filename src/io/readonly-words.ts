/**
 * The one wording of a refusal under --readonly, whichever key or pane refuses: what is disabled, and what that
 * spares the user ("nothing is written"). Two wordings for the same refusal read as two different rules.
 */
export function readonlyRefusal(what: string, spared = 'nothing is written'): string {
  return `--readonly: ${what} is disabled (${spared})`;
}

/** What a write refused under --readonly (a save reaching the store) says: nothing happened on disk. */
export const READONLY_NOTHING_WRITTEN = '--readonly: nothing was written';
