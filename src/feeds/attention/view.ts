/**
 * The attention view every surface reads: the conditions that need the user
 * now, split into the ones not acknowledged (the "needs you: N" count of the
 * header, the title, `status --tmux`, `watch --json` and `--json`) and the
 * ones acknowledged that still hold (listed apart in the inbox, never counted).
 */
import { factsOf, needsYou, type AttentionInput } from './engine.js';
import { sessionJson, type NeedItem } from './needs.js';

export interface AttentionView {
  /** Not acknowledged, oldest first: what the count counts. */
  open: readonly NeedItem[];
  /** Acknowledged and still holding, oldest first. */
  acked: readonly NeedItem[];
  count: number;
}

export const EMPTY_VIEW: AttentionView = { open: [], acked: [], count: 0 };

export type IsAcked = (id: string) => boolean;
export const NOTHING_ACKED: IsAcked = () => false;

/** `needs` already oldest first (needsYou, IncrementalFacts.needsYou). */
export function splitAcked(needs: readonly NeedItem[], isAcked: IsAcked): AttentionView {
  const open: NeedItem[] = [];
  const acked: NeedItem[] = [];
  for (const n of needs) (isAcked(n.id) ? acked : open).push(n);
  return { open, acked, count: open.length };
}

/** The one-shot computation (`--json`, `status` without a live monitor): the same model, from one picture. */
export function attentionOf(input: AttentionInput, isAcked: IsAcked = NOTHING_ACKED): AttentionView {
  return splitAcked(needsYou(factsOf(input)), isAcked);
}

/** One item as the JSON surfaces write it (`--json`, `watch --json`). */
export function needJson(n: NeedItem, acked: boolean) {
  return {
    id: n.id,
    kind: n.kind,
    reason: n.reason,
    text: n.text,
    since: n.since === null ? null : new Date(n.since).toISOString(),
    ...sessionJson(n.session),
    name: n.name,
    tmux: n.tmux,
    mode: n.mode,
    team: n.team,
    worker: n.worker,
    path: n.path,
    waiting_on: n.waitingOn,
    action: n.action,
    acknowledged: acked,
  };
}
