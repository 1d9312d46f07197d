/**
 * The `attention` key of `--json`: the same view the monitor's header counts
 * (the model over one read, omc-top's acknowledgements applied), with every
 * item that holds now: open ones first, then the acknowledged ones.
 */
import { ownStateDir } from '../../io/state-dir.js';
import type { OmcStore } from '../../store/store.js';
import { AckFile } from './acks.js';
import { attentionInput } from './monitor.js';
import { attentionOf, needJson, type AttentionView } from './view.js';

/** The items that hold now over one read of the store, split by `acks`: what `--json` lists and `ack` accepts. */
export const attentionNow = (store: OmcStore, acks: AckFile): AttentionView =>
  attentionOf(attentionInput(store), (id) => acks.has(id));

export function attentionReport(store: OmcStore, env: NodeJS.ProcessEnv = process.env) {
  const acks = new AckFile(ownStateDir(env), store.root);
  const view = attentionNow(store, acks);
  return {
    needs_you: view.count,
    items: [...view.open.map((n) => needJson(n, false)), ...view.acked.map((n) => needJson(n, true))],
    acknowledgements_problem: acks.problem,
    cancel_records_problem: store.cancelRecords.getSnapshot().problem,
  };
}
