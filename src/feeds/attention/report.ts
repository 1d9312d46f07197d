/**
 * The `attention` key of `--json`: the same view the monitor's header counts
 * (the model over one read, omc-top's acknowledgements applied), with every
 * item that holds now: open ones first, then the acknowledged ones.
 */
import { ownStateDir } from '../../io/state-dir.js';
import type { OmcStore } from '../../store/store.js';
import { AckFile } from './acks.js';
import { attentionInput } from './monitor.js';
import { attentionOf, needJson } from './view.js';

export function attentionReport(store: OmcStore, env: NodeJS.ProcessEnv = process.env) {
  const acks = new AckFile(ownStateDir(env), store.root);
  const view = attentionOf(attentionInput(store), (id) => acks.has(id));
  return {
    needs_you: view.count,
    items: [...view.open.map((n) => needJson(n, false)), ...view.acked.map((n) => needJson(n, true))],
    acknowledgements_problem: acks.problem,
    cancel_records_problem: store.cancelRecords.getSnapshot().problem,
  };
}
