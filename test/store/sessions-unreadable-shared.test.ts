/**
 * The files every session's Stop hook may read besides its own (the session-less cancel signal in `state/`, a
 * mode's session-less copy there, the `~/.omc/state` fallback copies): when omc-top may not read one (OMC writes
 * 0600; another user's omc-top, or a disk error), a verdict it could change is unknown, never judged as if the file
 * were absent. The session says `unreadable` with the file named, on the row and in --json, and the file has its
 * problem line. A signal can only let the agent stop, so it hides only a verdict that blocks. Refusals are the
 * kernel's errors injected (test/helpers/read-faults.ts): the tests run as root, where a chmod stops no read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { liveRalph, writeLiveRalph, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { refuseReads, type ReadFault } from '../helpers/read-faults.js';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';
import { rowText } from '../../src/panes/sessions/rows.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { unreadableNeed } from '../../src/feeds/attention/needs.js';

const S = 'a1b2c3d4-0000-4000-8000-0000000000a1';
const DONE = 'a1b2c3d4-0000-4000-8000-0000000000d2';
const OTHER = 'a1b2c3d4-0000-4000-8000-0000000000e3';
const SHARED_SIGNAL = 'state/cancel-signal-state.json';

let fault: ReadFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

function open(p: TempProject, newStore: (o: OmcStoreOptions) => OmcStore, home: string | null = null) {
  const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir, home });
  store.start();
  return store;
}

const view = (store: OmcStore, id: string) => store.sessions.getSnapshot().sessions.find((x) => x.id === id);

type JsonDoc = {
  sessions: {
    id: string;
    status: string;
    unreadable: string[];
    verdict: { decision: string; rule: string; detail: string };
  }[];
  problems: { path: string; message: string }[];
};
const json = (store: OmcStore, root: string) =>
  JSON.parse(
    JSON.stringify(buildJsonReport({ root, rootRule: 't', notices: [], sessions: store.sessions.getSnapshot() })),
  ) as JsonDoc;

/**
 * A signal in force now, as OMC's state_clear writes it (generic form): both times from one reading of the clock, as
 * OMC takes them. Two readings can be a millisecond apart, and then expires_at is 30,001 ms after requested_at, past
 * the 30 s the Stop hook allows: the signal would not be in force (this test failed so under load).
 */
const signalNow = () => {
  const now = Date.now();
  return {
    active: true,
    requested_at: new Date(now).toISOString(),
    expires_at: new Date(now + 30_000).toISOString(),
    mode: 'ralph',
    source: 'state_clear',
  };
};

describe('the session-less cancel signal omc-top may not read', () => {
  it('makes a blocking verdict unknown with the file named, on the row and in --json; a finished one stays', ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    writeOmcJson(path.join(p.root, `state/sessions/${DONE}/ralph-state.json`), { active: false, session_id: DONE });
    const signal = path.join(p.root, SHARED_SIGNAL);
    writeOmcJson(signal, signalNow());
    // Read as it is, the signal lets S stop: what the refusal must not turn into "blocks for ralph".
    expect(view(open(p, newStore), S)?.verdict).toMatchObject({ decision: 'stop', rule: 'cancel-signal' });
    fault = refuseReads('EACCES', (abs) => abs === signal);
    const store = open(p, newStore);
    expect(fault.hits).toContain(signal);
    const s = view(store, S)!;
    expect(s.status).toBe('unreadable');
    expect(s.unreadable).toEqual([SHARED_SIGNAL]);
    expect(s.verdict).toMatchObject({ decision: 'unknown', rule: 'omc-top-cannot-read', mode: 'ralph' });
    expect(s.verdict!.detail).toContain(`omc-top cannot read ${SHARED_SIGNAL}: permission denied`);
    expect(rowText(s, Date.now(), 100, false).status.trim()).toBe('unreadable');
    // The "needs you" item says why, though the shared file's problem line is the store's, not the session's.
    expect(unreadableNeed(s)?.text).toMatch(new RegExp(`^omc-top cannot read ${SHARED_SIGNAL}: permission denied`));
    // A signal can only let a loop stop: the finished one is what it is.
    expect(view(store, DONE)).toMatchObject({ status: 'finished', verdict: { decision: 'stop' }, unreadable: [] });
    const doc = json(store, p.root);
    expect(doc.sessions.find((x) => x.id === S)).toMatchObject({
      status: 'unreadable',
      unreadable: [SHARED_SIGNAL],
      verdict: { decision: 'unknown', rule: 'omc-top-cannot-read' },
    });
    expect(doc.problems.filter((x) => x.path === SHARED_SIGNAL)).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/permission denied/) }),
    ]);
  });

  it('turns unknown in a running monitor when the signal becomes unreadable, and back once it is readable', ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    const signal = path.join(p.root, SHARED_SIGNAL);
    writeOmcJson(signal, signalNow());
    const store = open(p, newStore);
    expect(view(store, S)?.verdict?.rule).toBe('cancel-signal');
    // Only its permissions change: a scan (the poll tick) reads it again, and S, whose files did not move, with it.
    fault = refuseReads('EIO', (abs) => abs === signal);
    fs.chmodSync(signal, 0o640);
    store.sessions.scan();
    expect(view(store, S)).toMatchObject({ status: 'unreadable', unreadable: [SHARED_SIGNAL] });
    fault.restore();
    fault = null;
    fs.chmodSync(signal, 0o644);
    store.sessions.scan();
    expect(view(store, S)).toMatchObject({ verdict: { rule: 'cancel-signal' }, unreadable: [] });
  });
});

describe("a mode's session-less copy omc-top may not read", () => {
  it('makes the verdict of a session without its own copy unknown: the copy may be its loop', ({
    emptyProject: p,
    newStore,
  }) => {
    writeOmcJson(path.join(p.root, `state/sessions/${S}/session-started.json`), { cwd: p.dir });
    const legacy = path.join(p.root, 'state/ralph-state.json');
    // Another session's loop, read: S's hook passes it over.
    writeOmcJson(legacy, liveRalph({ sessionId: OTHER, iteration: 2, max: 10 }));
    const store = open(p, newStore);
    expect(view(store, S)?.verdict).toMatchObject({ decision: 'stop', rule: 'nothing-enforced' });
    // In the running monitor its permissions change: whose loop it holds now is unknown, and S (none of whose own
    // files moved, and whom the copy never named) is judged again.
    fault = refuseReads('EACCES', (abs) => abs === legacy);
    fs.chmodSync(legacy, 0o640);
    store.sessions.scan();
    const s = view(store, S)!;
    expect(s).toMatchObject({ status: 'unreadable', unreadable: ['state/ralph-state.json'] });
    expect(s.verdict).toMatchObject({ decision: 'unknown', rule: 'omc-top-cannot-read' });
  });
});

describe('the ~/.omc fallback copy omc-top may not read', () => {
  it('makes the verdict unknown with ~/.omc/state/… named, and gives that file a problem line', ({
    emptyProject: p,
    newStore,
    tempDir,
  }) => {
    const home = tempDir('home-');
    writeOmcJson(path.join(p.root, `state/sessions/${S}/session-started.json`), { cwd: p.dir });
    const global = path.join(home, '.omc/state/ralph-state.json');
    writeOmcJson(global, liveRalph({ sessionId: S, iteration: 2, max: 10, projectPath: p.dir }));
    // Read as it is, OMC's hook holds S for the global copy: what the refusal must not turn into "lets it stop".
    expect(view(open(p, newStore, home), S)?.verdict).toMatchObject({ decision: 'block', mode: 'ralph' });
    fault = refuseReads('EACCES', (abs) => abs === global);
    const store = open(p, newStore, home);
    const s = view(store, S)!;
    expect(s).toMatchObject({ status: 'unreadable', unreadable: ['~/.omc/state/ralph-state.json'] });
    expect(s.verdict).toMatchObject({ decision: 'unknown', rule: 'omc-top-cannot-read' });
    const doc = json(store, p.root);
    expect(doc.sessions.find((x) => x.id === S)).toMatchObject({
      status: 'unreadable',
      unreadable: ['~/.omc/state/ralph-state.json'],
      verdict: { decision: 'unknown' },
    });
    expect(doc.problems.filter((x) => x.path === '~/.omc/state/ralph-state.json')).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/permission denied/) }),
    ]);
    // Missing is not unreadable: with no copy anywhere the hook lets S stop, and the problem line goes.
    fault.restore();
    fault = null;
    fs.rmSync(global);
    const gone = open(p, newStore, home);
    expect(view(gone, S)).toMatchObject({ verdict: { decision: 'stop' }, unreadable: [] });
    expect(gone.sessions.getSnapshot().problems).toEqual([]);
  });
});
