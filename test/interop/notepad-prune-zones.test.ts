/**
 * omc-top's "due for pruning" is what OMC 5.5.0's real notepad_prune removes, in every time zone. OMC stamps an
 * entry in UTC but reads the stamp back as local time against a local calendar cutoff, so outside UTC an entry comes
 * due hours before or after seven days of true age, and across a DST change the cutoff moves by an hour. Entries
 * stamped around the cutoff, in zones either side of UTC (half-hour offsets too) and across New York's DST end;
 * OMC prunes its copy, and the entries it kept must be exactly the ones omc-top does not call due.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { entryStamp } from '../../src/store/notepad/format.js';
import { EMPTY_NOTEPAD, isDue, parseNotepad, type NotepadSnapshot } from '../../src/store/notepad/model.js';
import { initNotepadPane } from '../../src/panes/notepad/reducer.js';
import { notepadPane } from '../../src/panes/notepad/index.js';
import type { OmcStore } from '../../src/store/store.js';
import { loadOmcNotepad, type OmcNotepad } from '../helpers/omc-notepad.js';

const ZONES = ['UTC', 'Asia/Seoul', 'Asia/Kolkata', 'America/St_Johns', 'America/Los_Angeles', 'Pacific/Kiritimati'];
const HOUR = 3_600_000;
/** Offsets from seven days before `now`, either side of every zone's shift (up to ±14 h) and of a DST hour. */
const AROUND = [-15, -13.5, -9.5, -9, -8.5, -5.5, -3.5, -1, -0.5, 0.5, 1, 3.5, 5.5, 8.5, 9, 9.5, 13.5, 15];

let omc: OmcNotepad;
let dir: string;
const savedTz = process.env.TZ;
beforeAll(async () => {
  omc = await loadOmcNotepad();
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-prune-zones-')));
  execFileSync('git', ['init', '-q', dir]);
  fs.mkdirSync(path.join(dir, '.omc'));
});
afterAll(() => {
  vi.useRealTimers();
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A notepad whose Working Memory holds one entry per stamp, written as OMC writes it (UTC stamps). */
function notepadWith(stamps: readonly string[]): string {
  const entries = stamps.map((s, i) => `### ${s}\nentry ${i}`).join('\n\n');
  return (
    '# Notepad\n<!-- Auto-managed by OMC. Manual edits preserved in MANUAL section. -->\n\n' +
    '## Priority Context\n<!-- ALWAYS loaded. Keep under 500 chars. Critical discoveries only. -->\n\n' +
    `## Working Memory\n<!-- Session notes. Auto-pruned after 7 days. -->\n${entries}\n\n` +
    '## MANUAL\n<!-- User content. Never auto-pruned. -->\n'
  );
}

/** The bodies OMC's prune keeps, and the ones omc-top would keep (not due), at `now` in the zone set now. */
function keptBoth(now: number, stamps: readonly string[]): { omc: string[]; ours: string[] } {
  const text = notepadWith(stamps);
  const file = path.join(dir, '.omc', 'notepad.md');
  fs.writeFileSync(file, text);
  vi.useFakeTimers({ toFake: ['Date'], now });
  omc.pruneOldEntries(dir, 7);
  vi.useRealTimers();
  const left = parseNotepad(fs.readFileSync(file, 'utf8')).sections.working.entries.map((e) => e.body.trim());
  const ours = parseNotepad(text)
    .sections.working.entries.filter((e) => !isDue(e, now, 7))
    .map((e) => e.body.trim());
  return { omc: left, ours };
}

describe("notepad prune: omc-top's due entries are OMC's pruned ones in any time zone", () => {
  it.each(ZONES)('%s: entries stamped around seven days back', (zone) => {
    process.env.TZ = zone;
    const now = Date.parse('2026-12-04T19:45:00Z');
    const stamps = AROUND.map((h) => entryStamp(now - 7 * 24 * HOUR + h * HOUR));
    const { omc: kept, ours } = keptBoth(now, stamps);
    expect(ours).toEqual(kept);
    // The case this guards: outside UTC, OMC's cut is not at seven days of true age.
    if (zone !== 'UTC') expect(kept.length).not.toBe(AROUND.filter((h) => h >= 0).length);
  });

  it('America/New_York across the end of DST: the local cutoff is 7 × 24 + 1 hours back', () => {
    process.env.TZ = 'America/New_York';
    // Now is 12:00 EST; seven calendar days back is 12:00 EDT, 169 hours back. OMC reads each stamp as local time:
    // the two after 12:00 stay, though 12:30 and 12:50 EDT are more than 7 × 24 hours before now.
    const now = Date.parse('2026-11-05T17:00:00Z');
    const stamps = ['2026-10-29 11:30', '2026-10-29 11:50', '2026-10-29 12:30', '2026-10-29 12:50'];
    const { omc: kept, ours } = keptBoth(now, stamps);
    expect(ours).toEqual(kept);
    expect(kept).toEqual(['entry 2', 'entry 3']);
  });

  it('a stamp V8 rolls over (February 30) is kept by its rolled date; one it cannot read (month 13) goes', () => {
    process.env.TZ = 'UTC';
    const now = Date.parse('2026-03-04T12:00:00Z');
    const { omc: kept, ours } = keptBoth(now, ['2026-02-30 10:00', '2026-13-01 10:00', '2026-03-03 10:00']);
    expect(ours).toEqual(kept);
    expect(kept).toEqual(['entry 0', 'entry 2']);
  });

  it('the pane repaints when an entry comes due, though that falls between two age steps (Asia/Kolkata, UTC+5:30)', () => {
    process.env.TZ = 'Asia/Kolkata';
    // OMC stamped it at 18:15 UTC; its prune reads 18:15 IST (12:45 UTC), so it comes due 7 days later at 12:45 UTC,
    // half an hour off the entry's hourly age steps (the next one at 13:15 UTC).
    const snap: NotepadSnapshot = {
      ...EMPTY_NOTEPAD,
      sections: parseNotepad(notepadWith(['2026-11-27 18:15'])).sections,
    };
    const entry = snap.sections.working.entries[0]!;
    const now = Date.parse('2026-12-04T12:30:20Z');
    const due = Date.parse('2026-12-04T12:45:00Z');
    // OMC keeps an entry at exactly its cutoff: due from the millisecond after.
    expect([isDue(entry, now), isDue(entry, due), isDue(entry, due + 1)]).toEqual([false, false, true]);
    const store = { notepad: { getSnapshot: () => snap } } as unknown as OmcStore;
    expect(notepadPane.nextTick!(initNotepadPane(), store, now)).toBe(due + 1 - now);
    expect(notepadPane.nextTick!({ ...initNotepadPane(), tab: 'priority' }, store, now)).toBe(due + 1 - now);
  });
});
