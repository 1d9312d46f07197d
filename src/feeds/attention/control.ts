/**
 * What the full-screen app needs of the attention layer (attention-terminal.ts
 * starts it next to the app): the attention view for the header's count and
 * the inbox, a way to acknowledge items, and the notifier's on/off switch for
 * the toggle key. Optional everywhere: `--json`, scripts and most tests run
 * without it.
 */
import type { Subscribable } from '../../store/types.js';
import type { NeedItem } from './needs.js';
import type { AttentionView } from './view.js';
import type { NotifySwitch } from '../notify/switch-words.js';

export interface AttentionControl {
  monitor: {
    count: Subscribable<number>;
    view: Subscribable<AttentionView>;
    /** omc-top's acknowledgements file; null where nothing can be acknowledged. */
    acks: { ack(ids: readonly string[], now: number): Promise<void>; problem: string | null } | null;
  };
  /** The `N` switch; null where nothing notifies. */
  notifier: NotifySwitch | null;
}

/** The items not yet acknowledged that belong to a session (the sessions list's acknowledge key). */
export function openNeedsOf(attention: AttentionControl | null | undefined, session: string): NeedItem[] {
  return attention ? attention.monitor.view.getSnapshot().open.filter((n) => n.session === session) : [];
}

/**
 * Acknowledges items: they leave the count (here, in every other omc-top and in `status --tmux`) until
 * their condition arises anew. Resolves to the message to show.
 */
export async function acknowledge(
  attention: AttentionControl | null | undefined,
  items: readonly NeedItem[],
  now: number,
): Promise<string> {
  const acks = attention?.monitor.acks;
  if (!acks) return 'nothing to acknowledge here (acknowledgements are kept by the full-screen monitor)';
  if (items.length === 0) return 'nothing here needs you';
  await acks.ack(
    items.map((n) => n.id),
    now,
  );
  const what = items.length === 1 ? (items[0] as NeedItem).reason : `${items.length} items`;
  return `acknowledged: ${what} (back in the count only if it arises anew)`;
}
