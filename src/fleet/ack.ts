/**
 * `a` on a fleet row: acknowledges what needs the user in that row's session, where the acknowledgement is kept —
 * this machine's file for a local project (the monitor, `status --tmux` and every omc-top here read it), the host's
 * own file for a `--host` project (`omc-top ack` there). Only items listed as open now are acknowledged.
 */
import type { NeedItem } from '../feeds/attention/needs.js';
import { rowIdentity } from '../feeds/row.js';
import type { LocalRoot } from './local.js';
import type { FleetRow } from './model.js';

export interface AckResult {
  ok: boolean;
  text: string;
}

/** The open items of one row's session (the session-less state and a directory named legacy kept apart). */
export const rowItems = (open: readonly NeedItem[], row: FleetRow): NeedItem[] =>
  open.filter((n) => n.session === rowIdentity(row));

const what = (items: readonly NeedItem[]) => (items.length === 1 ? items[0]!.reason : `${items.length} items`);

export async function ackLocalRow(root: LocalRoot | undefined, row: FleetRow, now: number): Promise<AckResult> {
  if (!root) return { ok: false, text: 'that project is no longer watched' };
  const acks = root.monitor.acks;
  if (!acks) return { ok: false, text: 'acknowledgements are not kept here' };
  const items = rowItems(root.monitor.view.getSnapshot().open, row);
  if (items.length === 0) return { ok: false, text: 'nothing in this session needs you now' };
  await acks.ack(
    items.map((n) => n.id),
    now,
  );
  if (acks.problem) return { ok: false, text: `acknowledge: ${acks.problem}` };
  return { ok: true, text: `acknowledged: ${what(items)} (back in the count only if it arises anew)` };
}
