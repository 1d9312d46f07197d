/** Whether polling is the user's choice: one answer for the footer and the problem lines. */
import type { StoreStatus } from './store.js';

/**
 * Polling the user asked for (`--poll`) with the root there: their choice, said as a quiet fact (the footer's
 * `polling`, doctor's line, the fleet header's note), never a problem line. Polling omc-top fell back to (no watch
 * left, watching refused) says why as a problem, and a root that is not there is one whatever the mode.
 */
export function pollingByChoice(status: Pick<StoreStatus, 'watchMode' | 'pollChosen' | 'rootAbsence'>): boolean {
  return status.watchMode === 'polling' && status.pollChosen === true && (status.rootAbsence ?? null) === null;
}
