/**
 * `omc-top ack <item-id>… [--cwd DIR | --root DIR]`: acknowledges what needs you in a project, as the inbox's
 * `a` does: the ids go into omc-top's acknowledgements file for that root (locked, merged), which every omc-top
 * on this machine reads. What a fleet or a serve page on another machine runs over ssh for this machine's items
 * (the ids come from `watch --json`'s attention lines). Only ids of items that hold now are taken: the tree is read
 * as `--json` reads it (feeds/one-read.ts, the attention model), so an id that names nothing (mistyped, or an item
 * whose condition has ended since) is said to name nothing, never "acknowledged".
 *
 * Exit codes: 0 recorded (or already acknowledged); 1 the file could not be written; 2 usage (no id, a malformed
 * id, an id no item has now) or no .omc found.
 */
import { fitHelp } from './help-width.js';
import { AckFile } from '../feeds/attention/acks.js';
import { attentionNow } from '../feeds/attention/report.js';
import type { AttentionView } from '../feeds/attention/view.js';
import { oneReadStore } from '../feeds/one-read.js';
import { ownStateDir } from '../io/state-dir.js';
import { printErr, printOut } from '../io/output.js';
import { cleanLine } from '../io/sanitize.js';
import { resolveRootAndOmc } from '../store/omc-root.js';
import { noRootMessage } from '../store/root.js';
import { parseArgs, UsageError, rootFlag } from './args.js';
import { shownArg } from '../io/shown-arg.js';

export const ACK_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const ACK_USAGE = `Usage: omc-top ack <item-id>... [--cwd DIR | --root DIR]

Acknowledges items that need you (the inbox's a), by the ids watch --json lists
in its attention lines (and --json in attention.items): they leave the count
until they arise anew. An id no item has now (its condition ended) is refused.
Exit: 0 recorded, 1 not written, 2 usage, an id no item has, or no .omc.`;

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = { cwd: 'value', root: 'value', help: 'bool' } as const;

/** At most this many ids per call (the acknowledgements file keeps 2,000). */
export const MAX_ACK_IDS = 100;

/** `<kind>:<subject>@<occurrence>` of a kind the attention model has (feeds/attention/needs.ts), printable. */
const ITEM_ID =
  /^(waiting|orphaned|idle-loop|cancel-not-taken|team-stalled|team-failed|worker-dead|unreadable|gate):[^\x00-\x1f\x7f]{1,590}$/;

/** How many of the ids that hold now the refusal lists (the rest: where to see them all). */
const LISTED_IDS = 10;

/** Where a user sees every id (the refusal's hint). */
const WHERE_IDS = 'omc-top --json lists them (attention.items[].id), as watch --json --snapshot does';

/** The refusal of ids no item has now, with the ids that do (the open ones first, as --json lists them). */
export function noSuchItemLines(unknown: readonly string[], view: AttentionView): string[] {
  const shown = (id: string) => shownArg(id.slice(0, 120));
  const lines = unknown.map((id) => `omc-top ack: no item has the id ${shown(id)} now (nothing acknowledged)`);
  const held = [...view.open, ...view.acked].map((n) => n.id);
  if (held.length === 0) lines.push('omc-top ack: nothing needs you here now');
  else {
    lines.push(`omc-top ack: the items here now (${WHERE_IDS}):`);
    for (const id of held.slice(0, LISTED_IDS)) lines.push(`  ${cleanLine(id)}`);
    if (held.length > LISTED_IDS) lines.push(`  … ${held.length - LISTED_IDS} more`);
  }
  return lines;
}

export async function runAckCommand(argv: readonly string[], cwd = process.cwd()): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    printOut(fitHelp(ACK_USAGE) + '\n');
    return ACK_EXIT.ok;
  }
  const ids = args.positionals;
  if (ids.length === 0) throw new UsageError('ack needs at least one item id (watch --json lists them)');
  if (ids.length > MAX_ACK_IDS) throw new UsageError(`at most ${MAX_ACK_IDS} ids at once`);
  const bad = ids.find((id) => !ITEM_ID.test(id) || !id.includes('@'));
  if (bad !== undefined) throw new UsageError(`not an item id: ${shownArg(bad.slice(0, 80))}`);
  // The root and the OMC that judges found as --json finds them: the items are the ones it lists.
  const { res, omc, claudeEnv } = resolveRootAndOmc({
    cwd: (args.flags.get('cwd') as string | undefined) ?? cwd,
    rootOverride: rootFlag(args),
  });
  if (!res.exists) {
    printErr(`omc-top ack: ${cleanLine(noRootMessage(res))}\n`);
    return ACK_EXIT.usage;
  }
  const acks = new AckFile(ownStateDir(), res.root);
  acks.load();
  const store = oneReadStore(res, omc, true, claudeEnv);
  store.start();
  const view = attentionNow(store, acks);
  await store.close();
  const holding = new Set([...view.open, ...view.acked].map((n) => n.id));
  const unknown = [...new Set(ids)].filter((id) => !holding.has(id));
  if (unknown.length > 0) {
    printErr(noSuchItemLines(unknown, view).join('\n') + '\n');
    return ACK_EXIT.usage;
  }
  // Said apart: "acknowledged" for an id already in the file would claim a change that did not happen.
  const already = new Set(ids.filter((id) => acks.has(id))).size;
  const fresh = new Set(ids).size - already;
  const items = (n: number) => (n === 1 ? '1 item' : `${n} items`);
  if (fresh === 0) {
    printOut(`already acknowledged: ${items(already)} (nothing changed)\n`);
    return ACK_EXIT.ok;
  }
  try {
    await acks.ack(ids, Date.now());
  } catch (e) {
    printErr(`omc-top ack: ${cleanLine((e as Error).message)}\n`);
    return ACK_EXIT.failed;
  }
  if (acks.problem) {
    printErr(`omc-top ack: ${cleanLine(acks.problem)}\n`);
    return ACK_EXIT.failed;
  }
  printOut(`acknowledged ${items(fresh)}${already > 0 ? ` (${items(already)} already were)` : ''}\n`);
  return ACK_EXIT.ok;
}
