/**
 * c / p with no session listed because there is no `.omc` to read: none made yet (the monitor waits for OMC's root)
 * or one that is not a readable directory. Nothing is there a cancel could act on, so the keys are not offered in
 * the footer, and pressed (or in `?`) they say why at once, as the keys on an unreadable session do.
 */
import type { OmcStore } from '../../store/store.js';
import { rootWriteBlock } from '../../ui/not-known.js';

export function rootlessCancelRefusal(store: OmcStore, verb: 'cancel' | 'pause'): string | null {
  // In the footer's and the problem line's own words: not made yet, or gone (moved away or removed) and waited for.
  const status = store.status.getSnapshot();
  if (status.rootAbsence?.code === 'missing') return `${verb}: ${status.watchDetail}: no OMC loop to ${verb}`;
  const blocked = rootWriteBlock(store);
  return blocked === null ? null : `${verb}: ${blocked}`;
}
