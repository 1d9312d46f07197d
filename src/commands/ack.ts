/**
 * `omc-top ack <item-id>… [--cwd DIR | --root DIR]`: acknowledges what needs you in a project, as the inbox's
 * `a` does: the ids go into omc-top's acknowledgements file for that root (locked, merged), which every omc-top
 * on this machine reads. What a fleet or a serve page on another machine runs over ssh for this machine's items
 * (the ids come from `watch --json`'s attention lines). Only ids shaped as items are taken.
 *
 * Exit codes: 0 recorded; 1 the file could not be written; 2 usage (no id, a malformed id) or no .omc found.
 */
import { AckFile } from '../feeds/attention/acks.js';
import { ownStateDir } from '../io/state-dir.js';
import { printErr, printOut } from '../io/output.js';
import { cleanLine } from '../io/sanitize.js';
import { noRootMessage, resolveOmcRoot } from '../store/root.js';
import { parseArgs, UsageError, rootFlag } from './args.js';

export const ACK_EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export const ACK_USAGE = `Usage: omc-top ack <item-id>... [--cwd DIR | --root DIR]

Acknowledges items that need you (the inbox's a), by the ids watch --json lists
in its attention lines: they leave the count until they arise anew.
Exit: 0 recorded, 1 not written, 2 usage or no .omc.`;

/** The flags this command takes: each is in `--help` (test/unit/help-flags.test.ts). */
export const FLAGS = { cwd: 'value', root: 'value', help: 'bool' } as const;

/** At most this many ids per call (the acknowledgements file keeps 2,000). */
export const MAX_ACK_IDS = 100;

/** `<kind>:<subject>@<occurrence>` of a kind the attention model has (feeds/attention/needs.ts), printable. */
const ITEM_ID =
  /^(waiting|orphaned|idle-loop|cancel-not-taken|team-stalled|team-failed|worker-dead):[^\x00-\x1f\x7f]{1,590}$/;

export async function runAckCommand(argv: readonly string[], cwd = process.cwd()): Promise<number> {
  const args = parseArgs(argv, FLAGS);
  if (args.flags.has('help')) {
    printOut(ACK_USAGE + '\n');
    return ACK_EXIT.ok;
  }
  const ids = args.positionals;
  if (ids.length === 0) throw new UsageError('ack needs at least one item id (watch --json lists them)');
  if (ids.length > MAX_ACK_IDS) throw new UsageError(`at most ${MAX_ACK_IDS} ids at once`);
  const bad = ids.find((id) => !ITEM_ID.test(id) || !id.includes('@'));
  if (bad !== undefined) throw new UsageError(`not an item id: ${JSON.stringify(cleanLine(bad).slice(0, 80))}`);
  const res = resolveOmcRoot({
    cwd: (args.flags.get('cwd') as string | undefined) ?? cwd,
    rootOverride: rootFlag(args),
  });
  if (!res.exists) {
    printErr(`omc-top ack: ${cleanLine(noRootMessage(res))}\n`);
    return ACK_EXIT.usage;
  }
  const acks = new AckFile(ownStateDir(), res.root);
  acks.load();
  // Said apart: "acknowledged" for an id already in the file would claim a change that did not happen.
  const already = new Set(ids.filter((id) => acks.has(id))).size;
  const fresh = new Set(ids).size - already;
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
  const items = (n: number) => (n === 1 ? '1 item' : `${n} items`);
  if (fresh === 0) printOut(`already acknowledged: ${items(already)} (nothing changed)\n`);
  else printOut(`acknowledged ${items(fresh)}${already > 0 ? ` (${items(already)} already were)` : ''}\n`);
  return ACK_EXIT.ok;
}
