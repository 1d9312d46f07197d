/**
 * Kept drafts do not stay forever (src/store/drafts/old-drafts.ts): a start of the monitor deletes the drafts
 * older than 30 days, of every root, and nothing else in the state directory; doctor counts them, deleting nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { KeptDrafts } from '../../src/store/drafts/kept-drafts.js';
import { DRAFT_MAX_AGE_DAYS, dropOldDrafts, draftsLine } from '../../src/store/drafts/old-drafts.js';
import { stateDirCheck } from '../../src/commands/doctor-state.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.now();

function keep(drafts: KeptDrafts, target: string, ageDays: number): string {
  const { name } = drafts.keepSync(
    { target, keptAt: NOW - ageDays * DAY, why: 'hangup', item: {}, fields: { text: 'typed' } },
    { text: 100 },
  );
  const file = path.join(drafts.dir, name);
  const at = new Date(NOW - ageDays * DAY);
  fs.utimesSync(file, at, at);
  return file;
}

describe('drafts older than their age', () => {
  it(`are counted by doctor and deleted at a start after ${DRAFT_MAX_AGE_DAYS} days, of every root; nothing else goes`, ({
    tempDir,
  }) => {
    const base = tempDir('omc-top-old-drafts-');
    const dir = path.join(base, 'state', 'omc-top');
    const one = new KeptDrafts(dir, path.join(base, 'a', '.omc'));
    const two = new KeptDrafts(dir, path.join(base, 'b', '.omc'));
    const fresh = keep(one, 'notepad-working', 29);
    const oldNote = keep(one, 'note-0123456789abcdef', 31);
    const goneRoot = keep(two, 'memory-directive', 90);
    // Another file of the state directory, as old: not a draft, never touched here.
    const other = path.join(dir, 'acks-0123456789abcdef.json');
    fs.writeFileSync(other, '{}');
    fs.utimesSync(other, new Date(NOW - 90 * DAY), new Date(NOW - 90 * DAY));

    expect(one.has('note-0123456789abcdef')).toBe(true);
    const line =
      'kept drafts: 3 drafts of unsaved text (offered back in the editor they were typed in); 2 older than 30 days are removed at the next start of the monitor';
    expect(draftsLine(dir, NOW)).toBe(line);
    const doctor = stateDirCheck({ HOME: base, XDG_STATE_HOME: path.join(base, 'state'), XDG_CACHE_HOME: base });
    expect(doctor.details).toContain(line);
    // doctor looks only.
    expect([fresh, oldNote, goneRoot].every((f) => fs.existsSync(f))).toBe(true);

    expect(dropOldDrafts(dir, NOW)).toBe(2);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.existsSync(oldNote)).toBe(false);
    expect(fs.existsSync(goneRoot)).toBe(false);
    expect(fs.existsSync(other)).toBe(true);
    expect(new KeptDrafts(dir, path.join(base, 'a', '.omc')).has('note-0123456789abcdef')).toBe(false);
    expect(draftsLine(dir, NOW)).toBe(
      'kept drafts: 1 draft of unsaved text (offered back in the editor they were typed in); each is removed 30 days after it was kept',
    );
  });
});
