/**
 * What an omc-top from before the settled word (10dc441 and earlier: no `settled`, no `followedBy`) does to the
 * record of the cancels when it records a cancel of its own (`omc-top cancel`, its monitor's `c`): under the same
 * lock it reads the record, keeps of each entry only the fields it knows, puts its own entry in place of an older one
 * of that session, keeps the newest entries of the last day, and writes the whole file back (its
 * `parseCancelRecords` and `serializeCancelRecords` at 10dc441, restated for the tests). Every field it does not know
 * is gone from the record after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { withFileLock } from '../../src/io/file-lock.js';
import { cancelRecordsFileName } from '../../src/store/cancel/cancel-records.js';

/** The fields of an entry the older omc-top reads and writes, in its order. */
export interface OlderCancelEntry {
  key: string;
  modes: string[];
  requestedMs: number;
  expiresMs: number;
  notEnded: string[];
  failed: string | null;
}

const DAY_MS = 24 * 3_600_000;
const MAX_ENTRIES = 200;

export async function olderOmcTopRecordsCancel(stateDir: string, root: string, mine: OlderCancelEntry): Promise<void> {
  const name = cancelRecordsFileName(root);
  fs.mkdirSync(stateDir, { recursive: true });
  await withFileLock(stateDir, name, () => {
    const file = path.join(stateDir, name);
    const had = fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { cancels: Array<Record<string, unknown>> }).cancels
      : [];
    const entries = new Map<string, OlderCancelEntry>();
    for (const e of had)
      entries.set(e.key as string, {
        key: e.key as string,
        modes: e.modes as string[],
        requestedMs: e.requestedMs as number,
        expiresMs: e.expiresMs as number,
        notEnded: (e.notEnded as string[] | undefined) ?? [],
        failed: (e.failed as string | null | undefined) ?? null,
      });
    const was = entries.get(mine.key);
    if (!was || was.requestedMs <= mine.requestedMs) entries.set(mine.key, mine);
    const now = Date.now();
    const kept = [...entries.values()]
      .filter((e) => e.requestedMs > now - DAY_MS)
      .sort((a, b) => a.requestedMs - b.requestedMs)
      .slice(-MAX_ENTRIES);
    // Its write: a new file renamed over the record.
    const tmp = `${file}.older-${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ version: 1, root, cancels: kept }));
    fs.renameSync(tmp, file);
  });
}
