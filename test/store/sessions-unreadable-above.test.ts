/**
 * A directory above the sessions (`.omc` itself, `state`, `state/sessions`) that omc-top may no longer list while it
 * watches (a chmod by the owner, omc-top run as another user): the sessions seen before are what omc-top last saw of
 * them, now `unreadable` with an `unknown` verdict, never gone ("loop stopped", "No sessions yet"). The directory is
 * one problem line and one "needs you" item, the same on every surface, and all is back once it can be listed. The
 * refusal is injected as the kernel gives it (test/helpers/read-faults.ts: the directory and everything under it);
 * the real-user case runs the bundle as nobody (test/e2e/unreadable.e2e.test.ts).
 */
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { writeLiveRalph } from '../helpers/fixtures.js';
import { refuseReads, type ReadFault } from '../helpers/read-faults.js';
import { rowText } from '../../src/panes/sessions/rows.js';
import { loopValues } from '../../src/feeds/status-line.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { attentionOf } from '../../src/feeds/attention/view.js';
import { factsOf } from '../../src/feeds/attention/engine.js';
import { EMPTY_CANCEL_RECORDS } from '../../src/store/cancel/cancel-records.js';
import { sessionCounts } from '../../src/ui/chrome.js';
import type { OmcStore } from '../../src/store/store.js';

const S = 'a1b2c3d4-0000-4000-8000-0000000000a1';

let fault: ReadFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

const input = (store: OmcStore) => ({
  sessions: store.sessions.getSnapshot(),
  teams: store.teams.getSnapshot(),
  cancels: { version: 0, entries: new Map() },
  cancelRecords: EMPTY_CANCEL_RECORDS,
  problems: store.problems.getSnapshot(),
  claude: store.claude.getSnapshot(),
});

const fact = (store: OmcStore, kind: string, key: string) => factsOf(input(store)).byKind.get(kind)?.get(key)?.value;

describe.for<[string, string]>([
  ['', '.omc'],
  ['state', 'state'],
  ['state/sessions', 'state/sessions'],
])('%s refused while watched (shown as %s)', ([rel, shown]) => {
  it('keeps the session seen before, unreadable, with one line and one item for the directory', ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    expect(store.sessions.getSnapshot().sessions.map((s) => [s.id, s.status])).toEqual([[S, 'enforced']]);

    const dir = path.join(p.root, rel);
    fault = refuseReads('EACCES', (abs) => abs === dir || abs.startsWith(`${dir}/`));
    store.sessions.scan(); // what the watcher's rescan (or a poll tick) does
    const snap = store.sessions.getSnapshot();
    // Still there, not "No sessions yet": unknown, with the last progress seen.
    expect(snap.sessions.map((s) => s.id)).toEqual([S]);
    const s = snap.sessions[0]!;
    expect(s).toMatchObject({ status: 'unreadable', unreadableAbove: shown, verdict: { decision: 'unknown' } });
    expect(s.unreadable?.[0]).toBe(shown);
    expect(s.modes.map((m) => [m.mode, m.status])).toEqual([['ralph', 'unreadable']]);
    expect(rowText(s, Date.now(), 100, false).modes).toContain('ralph 3/10 (unreadable)');
    expect(snap.unreadableDirs).toEqual([shown]);
    // Counted once: the session stands for the directory it was seen in.
    expect(loopValues(snap)).toEqual({ loops: '? unreadable', active: 0 });
    expect(sessionCounts(snap)).toMatchObject({ running: 0, unreadable: 1 });
    // One problem line for the directory, not one more per file under it.
    const lines = snap.problems.map((x) => x.path);
    expect(lines).toContain(shown);
    expect(lines.filter((x) => x.startsWith(`${rel === '' ? '' : `${rel}/`}`) && x !== shown && x.includes(S))).toEqual(
      [],
    );
    // One item that needs you, the directory's: the same as a fresh `status` (which knows no session there) counts.
    const v = attentionOf(input(store));
    expect(v.open.map((n) => [n.id, n.session])).toEqual([[`unreadable:@${shown}`, null]]);
    // watch --json's facts: the session and its loop are unknown, not gone (no "loop stopped").
    expect(fact(store, 'session', S)).toBe('unreadable');
    expect(fact(store, 'mode', `${S}/ralph`)).toBe('unknown');
    expect(fact(store, 'unreadable-dir', shown)).toBe('unreadable');
    const doc = JSON.parse(
      JSON.stringify(buildJsonReport({ root: p.root, rootRule: 't', notices: [], sessions: snap })),
    ) as { unreadable_dirs: string[]; sessions: { id: string; status: string; unreadable: string[] }[] };
    expect(doc.unreadable_dirs).toEqual([shown]);
    expect(doc.sessions).toMatchObject([{ id: S, status: 'unreadable' }]);

    // Listed again: the loop as it is, nothing unknown left.
    fault.restore();
    fault = null;
    store.sessions.scan();
    const back = store.sessions.getSnapshot();
    expect(back.sessions.map((x) => [x.id, x.status, x.unreadableAbove])).toEqual([[S, 'enforced', undefined]]);
    expect(back.unreadableDirs).toEqual([]);
    expect(back.problems).toEqual([]);
    expect(attentionOf(input(store)).count).toBe(0);
  });
});

describe('a directory above the sessions refused from the start', () => {
  it('knows no session: the directory alone is one unknown and one item', ({ emptyProject: p, newStore }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    fault = refuseReads('EACCES', (abs) => abs === p.root || abs.startsWith(`${p.root}/`));
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    const snap = store.sessions.getSnapshot();
    expect(snap.sessions).toEqual([]);
    expect(snap.unreadableDirs).toEqual(['.omc']);
    expect(loopValues(snap)).toEqual({ loops: '? unreadable', active: 0 });
    expect(sessionCounts(snap)).toMatchObject({ unreadable: 1 });
    expect(attentionOf(input(store)).open.map((n) => n.id)).toEqual(['unreadable:@.omc']);
  });
});
