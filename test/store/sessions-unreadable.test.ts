/**
 * A state file or session directory omc-top may not read (OMC writes 0600; another user's omc-top, or a disk
 * error) is unknown, never absent: the mode keeps its row (`ralph ? (unreadable)`), the session is `unreadable`
 * with an `unknown` verdict on every surface (row, header counts, status line, --json, the attention item), a
 * directory that cannot be listed is still a row and counted, and all of it goes back to normal once the file can
 * be read again. The refusal is injected as the kernel gives it (test/helpers/read-faults.ts): the tests run as
 * root, where a chmod stops no read. The real-user case runs the bundle as nobody (test/e2e/unreadable.e2e.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor, writeLiveRalph, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { refuseReads, type ReadFault, type ReadFaultCode } from '../helpers/read-faults.js';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';
import { rowText } from '../../src/panes/sessions/rows.js';
import { rowOf } from '../../src/feeds/row.js';
import { loopValues } from '../../src/feeds/status-line.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { attentionOf } from '../../src/feeds/attention/view.js';
import { factsOf } from '../../src/feeds/attention/engine.js';
import { EMPTY_CANCEL_RECORDS } from '../../src/store/cancel/cancel-records.js';
import { sessionCounts } from '../../src/ui/chrome.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { unreadableCancelOf } from '../../src/store/cancel/unreadable.js';

const S = 'a1b2c3d4-0000-4000-8000-0000000000a1';
const D = 'a1b2c3d4-0000-4000-8000-0000000000d2';
const OTHER = 'a1b2c3d4-0000-4000-8000-0000000000e3';

let fault: ReadFault | null = null;
afterEach(() => {
  fault?.restore();
  fault = null;
});

function open(p: TempProject, newStore: (o: OmcStoreOptions) => OmcStore, watch: 'none' | 'auto' = 'none') {
  const store = newStore({ root: p.root, watch, projectDir: p.dir });
  store.start();
  return store;
}

const view = (store: OmcStore, id: string) => store.sessions.getSnapshot().sessions.find((x) => x.id === id);

function json(store: OmcStore, root: string) {
  return JSON.parse(
    JSON.stringify(buildJsonReport({ root, rootRule: 't', notices: [], sessions: store.sessions.getSnapshot() })),
  ) as {
    sessions: {
      id: string;
      status: string;
      unreadable: string[];
      verdict: { decision: string; rule: string; detail: string };
      modes: { mode: string; status: string; verdict: { rule: string } }[];
    }[];
    problems: { path: string; message: string }[];
  };
}

const attention = (store: OmcStore) =>
  attentionOf({
    sessions: store.sessions.getSnapshot(),
    teams: store.teams.getSnapshot(),
    cancels: { version: 0, entries: new Map() },
    cancelRecords: EMPTY_CANCEL_RECORDS,
    problems: [],
    claude: store.claude.getSnapshot(),
  });

describe.each<ReadFaultCode>(['EACCES', 'EIO'])('a live ralph whose file omc-top is refused (%s)', (code) => {
  it('is unknown on every surface, not "not enforced", and its problem line stays', ({ emptyProject: p, newStore }) => {
    const file = writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    // Read as it is, the loop is enforced: what the refusal must not turn into "no loop".
    const seen = open(p, newStore);
    expect(view(seen, S)?.status).toBe('enforced');
    fault = refuseReads(code, (abs) => abs === file);
    const store = open(p, newStore);
    expect(fault.hits.length).toBeGreaterThan(0);
    const s = view(store, S)!;
    expect(s.status).toBe('unreadable');
    expect(s.modes.map((m) => [m.mode, m.status, m.enforced])).toEqual([['ralph', 'unreadable', false]]);
    expect(s.verdict).toMatchObject({ decision: 'unknown', rule: 'omc-top-cannot-read', mode: 'ralph' });
    expect(s.unreadable).toEqual([`state/sessions/${S}/ralph-state.json`]);
    // The row: the word and the mode it could not read.
    const row = rowText(s, Date.now(), 100, false);
    expect(row.status.trim()).toBe('unreadable');
    expect(row.modes).toContain('ralph ? (unreadable)');
    expect(rowOf(s, undefined).status).toBe('unreadable');
    // The status line does not say "no loops", and the header counts it apart from the loops seen.
    expect(loopValues(store.sessions.getSnapshot())).toEqual({ loops: '? unreadable', active: 0 });
    expect(sessionCounts(store.sessions.getSnapshot())).toMatchObject({ running: 0, unreadable: 1 });
    // --json: a field to test, the verdict's words, the problem line kept.
    const doc = json(store, p.root);
    const js = doc.sessions.find((x) => x.id === S)!;
    expect(js).toMatchObject({
      status: 'unreadable',
      unreadable: [`state/sessions/${S}/ralph-state.json`],
      verdict: { decision: 'unknown', rule: 'omc-top-cannot-read' },
    });
    expect(js.verdict.detail).toContain(`state/sessions/${S}/ralph-state.json`);
    expect(js.modes[0]).toMatchObject({
      mode: 'ralph',
      status: 'unreadable',
      verdict: { rule: 'omc-top-cannot-read' },
    });
    const problem = doc.problems.find((x) => x.path === `state/sessions/${S}/ralph-state.json`)!;
    expect(problem.message).toMatch(code === 'EIO' ? /read failed \(EIO\)/ : /permission denied/);
    // Needs you: the user must act (run omc-top as the files' owner); the same item on every surface.
    const v = attention(store);
    expect(v.open.map((n) => [n.kind, n.reason, n.session, n.path])).toEqual([
      ['unreadable', 'unreadable loop state', S, `state/sessions/${S}/ralph-state.json`],
    ]);
    expect(v.open[0]!.text).toContain('whether OMC keeps ralph going is unknown');
    // watch --json's facts: the session and the mode say it too.
    const facts = factsOf({
      sessions: store.sessions.getSnapshot(),
      teams: store.teams.getSnapshot(),
      cancels: { version: 0, entries: new Map() },
      cancelRecords: EMPTY_CANCEL_RECORDS,
      problems: [],
      claude: store.claude.getSnapshot(),
    });
    expect(facts.byKind.get('session')?.get(S)?.value).toBe('unreadable');
    expect(facts.byKind.get('mode-status')?.get(`${S}/ralph`)?.value).toBe('unreadable');
    expect(facts.byKind.get('mode')?.get(`${S}/ralph`)?.value).toBe('unknown');
  });
});

describe('what is unknown and what is not', () => {
  it('a file OMC itself cannot parse is still judged absent (its hook sees no loop either)', ({
    emptyProject: p,
    newStore,
  }) => {
    const file = path.join(p.root, `state/sessions/${S}/ralph-state.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"active": true, "iteration": 3');
    const s = view(open(p, newStore), S)!;
    expect(s.status).not.toBe('unreadable');
    expect(s.verdict?.decision).toBe('stop');
    expect(s.unreadable).toEqual([]);
  });

  it('a loop read before keeps its last progress, marked unreadable, once a chmod makes it refused', ({
    emptyProject: p,
    newStore,
  }) => {
    const file = writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    const store = open(p, newStore);
    expect(view(store, S)?.status).toBe('enforced');
    // Its permissions change (here the refusal stands in for what they do to another user): no byte, no mtime
    // moves, and a scan (the poll mode's tick) still reads it again.
    fault = refuseReads('EACCES', (abs) => abs === file);
    const { mtime } = fs.statSync(file);
    fs.chmodSync(file, 0o640);
    expect(fs.statSync(file).mtime).toEqual(mtime);
    store.sessions.scan();
    const s = view(store, S)!;
    expect(s.status).toBe('unreadable');
    expect(rowText(s, Date.now(), 100, false).modes).toContain('ralph 3/10 (unreadable)');
  });

  it('a refused cancel signal hides the verdict only of a loop that blocks (a signal can only let it stop)', ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    writeOmcJson(path.join(p.root, `state/sessions/${OTHER}/ralph-state.json`), {
      active: false,
      session_id: OTHER,
    });
    const signal = (id: string) => path.join(p.root, `state/sessions/${id}/cancel-signal-state.json`);
    for (const id of [S, OTHER]) writeOmcJson(signal(id), { requested_at: new Date(0).toISOString() });
    fault = refuseReads('EACCES', (abs) => abs === signal(S) || abs === signal(OTHER));
    const store = open(p, newStore);
    expect(view(store, S)).toMatchObject({ status: 'unreadable', verdict: { decision: 'unknown' } });
    // The enforced ralph stays what it is on its own line: only the session's word is unknown.
    expect(view(store, S)!.modes[0]!.status).toBe('enforced');
    expect(view(store, OTHER)).toMatchObject({ status: 'finished', verdict: { decision: 'stop' } });
    expect(view(store, OTHER)!.unreadable).toEqual([]);
  });
});

describe('cancel of a session with a file omc-top may not read', () => {
  it('is refused before anything is planned, in the words the sessions pane gives its keys', ({
    emptyProject: p,
    newStore,
  }) => {
    const file = writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    fault = refuseReads('EACCES', (abs) => abs === file);
    for (const pauseOnly of [false, true]) {
      const r = planCancel(p.root, { sessionId: S, mode: null, pauseOnly }, Date.now());
      expect(r).toMatchObject({ ok: false, code: 'unreadable' });
      const message = (r as { message: string }).message;
      expect(message).toMatch(
        new RegExp(`^omc-top cannot read state/sessions/${S}/ralph-state.json \\(permission denied`),
      );
      expect(message).toContain('nothing is written');
      // The same words as the row's keys say (store/cancel/unreadable.ts), from the store's view of the session.
      expect(unreadableCancelOf(view(open(p, newStore), S)!)).toBe(message);
    }
  });

  it('of a session whose directory omc-top may not list is refused the same way, naming the directory', ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: D, iteration: 1, max: 10 });
    const dir = path.join(p.root, 'state', 'sessions', D);
    fault = refuseReads('EACCES', (abs) => abs === dir || abs.startsWith(`${dir}/`));
    const r = planCancel(p.root, { sessionId: D, mode: null, pauseOnly: false }, Date.now());
    expect(r).toMatchObject({ ok: false, code: 'unreadable' });
    const message = (r as { message: string }).message;
    // Not "no active mode": what it holds is unknown.
    expect(message).toMatch(new RegExp(`^omc-top cannot read state/sessions/${D} \\(permission denied`));
    expect(unreadableCancelOf(view(open(p, newStore), D)!)).toBe(message);
  });

  it('of a session whose only unreadable file is one its verdict reads (its cancel signal) goes ahead', ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    const signal = path.join(p.root, `state/sessions/${S}/cancel-signal-state.json`);
    writeOmcJson(signal, { requested_at: new Date(0).toISOString() });
    fault = refuseReads('EACCES', (abs) => abs === signal);
    const s = view(open(p, newStore), S)!;
    expect(s.status).toBe('unreadable');
    expect(unreadableCancelOf(s)).toBeNull();
    const r = planCancel(p.root, { sessionId: S, mode: null, pauseOnly: false }, Date.now());
    expect(r).toMatchObject({ ok: true, plan: { steps: [{ rel: `state/sessions/${S}/ralph-state.json` }] } });
  });
});

describe('a session directory omc-top may not list', () => {
  it('is still a row, counted, unreadable, with its problem line', ({ emptyProject: p, newStore }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    writeLiveRalph(p, { sessionId: D, iteration: 1, max: 10 });
    const dir = path.join(p.root, 'state', 'sessions', D);
    fault = refuseReads('EACCES', (abs) => abs === dir || abs.startsWith(`${dir}/`));
    const store = open(p, newStore);
    const snap = store.sessions.getSnapshot();
    expect(snap.sessions.map((x) => x.id).sort()).toEqual([S, D].sort());
    const s = view(store, D)!;
    expect(s).toMatchObject({ status: 'unreadable', unreadable: [`state/sessions/${D}`] });
    expect(s.verdict).toMatchObject({ decision: 'unknown', rule: 'omc-top-cannot-read' });
    const row = rowText(s, Date.now(), 100, false);
    expect(row.status.trim()).toBe('unreadable');
    expect(row.modes).toContain('? (unreadable)');
    expect(rowOf(s, undefined).modes).toBe('? (unreadable)');
    expect(loopValues(snap).loops).toBe('ralph 3/10 ? unreadable');
    expect(snap.problems.filter((x) => x.path === `state/sessions/${D}`)).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/permission denied/) }),
    ]);
    expect(attention(store).open.map((n) => [n.kind, n.session, n.path])).toEqual([
      ['unreadable', D, `state/sessions/${D}`],
    ]);
    // Listed again: the row is the loop it holds, the problem line goes.
    fault.restore();
    fault = null;
    store.sessions.scan();
    expect(view(store, D)).toMatchObject({ status: 'enforced', unreadable: [] });
    expect(store.sessions.getSnapshot().problems).toEqual([]);
  });
});

describe('state/sessions itself omc-top may not list', () => {
  it('says its sessions are unknown, never "no loops", and needs you; they come back once it can be listed', ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    const dir = path.join(p.root, 'state', 'sessions');
    fault = refuseReads('EACCES', (abs) => abs === dir || abs.startsWith(`${dir}/`));
    const store = open(p, newStore);
    const snap = store.sessions.getSnapshot();
    expect(snap.sessions).toEqual([]);
    expect(snap.unreadableDirs).toEqual(['state/sessions']);
    expect(loopValues(snap)).toEqual({ loops: '? unreadable', active: 0 });
    expect(sessionCounts(snap)).toMatchObject({ running: 0, unreadable: 1 });
    const doc = json(store, p.root) as unknown as { unreadable_dirs: string[]; problems: { path: string }[] };
    expect(doc.unreadable_dirs).toEqual(['state/sessions']);
    expect(doc.problems.map((x) => x.path)).toContain('state/sessions');
    const v = attention(store);
    expect(v.open.map((n) => [n.kind, n.session, n.path, n.id])).toEqual([
      ['unreadable', null, 'state/sessions', 'unreadable:@state/sessions'],
    ]);
    expect(v.open[0]!.text).toMatch(/^omc-top cannot list state\/sessions: permission denied/);
    fault.restore();
    fault = null;
    store.sessions.scan();
    expect(store.sessions.getSnapshot()).toMatchObject({ unreadableDirs: [] });
    expect(view(store, S)?.status).toBe('enforced');
    expect(attention(store).count).toBe(0);
  });
});

describe('a session directory omc-top may not list, live', () => {
  it('keeps the monitor on events (no POLLING for one directory) and is listed once the owner opens it', async ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    writeLiveRalph(p, { sessionId: D, iteration: 1, max: 10 });
    const dir = path.join(p.root, 'state', 'sessions', D);
    fault = refuseReads('EACCES', (abs) => abs === dir || abs.startsWith(`${dir}/`));
    const store = open(p, newStore, 'auto');
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });
    await waitFor(() => view(store, D)?.status === 'unreadable', { what: 'unreadable' });
    // Its watch was refused too, and that is no reason to poll the whole tree.
    expect(fault.hits).toContain(dir);
    expect(store.status.getSnapshot().watchMode).toBe('events');
    fault.restore();
    fault = null;
    // The owner opens it: only its permissions change, which the watch on state/sessions names.
    fs.chmodSync(dir, 0o755);
    await waitFor(() => view(store, D)?.status === 'enforced', { what: 'listed again' });
    expect(store.status.getSnapshot().watchMode).toBe('events');
    // And it is watched now: a write in it is seen.
    writeLiveRalph(p, { sessionId: D, iteration: 2, max: 10 });
    await waitFor(() => view(store, D)?.modes[0]?.iteration === 2, { what: 'a write in it' });
  });

  it('a watched session directory closed (chmod 000) while watched is unreadable at once, and back once opened', async ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    writeLiveRalph(p, { sessionId: D, iteration: 1, max: 10 });
    const dir = path.join(p.root, 'state', 'sessions', D);
    const store = open(p, newStore, 'auto');
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });
    await waitFor(() => view(store, D)?.status === 'enforced', { what: 'enforced' });
    // The owner closes it: only its mode changes (IN_ATTRIB, named by the watch on state/sessions). Its own watch
    // stays on; nothing in it is written, so no event inside it says anything.
    fault = refuseReads('EACCES', (abs) => abs === dir || abs.startsWith(`${dir}/`));
    fs.chmodSync(dir, 0o000);
    try {
      await waitFor(() => view(store, D)?.status === 'unreadable', { what: 'unreadable after the chmod' });
      expect(view(store, D)!.verdict).toMatchObject({ decision: 'unknown', rule: 'omc-top-cannot-read' });
      // Its loop is what was last read of it, marked so, and no longer counted as running (the header's count).
      expect(view(store, D)!.modes.map((m) => [m.mode, m.iteration, m.status])).toEqual([['ralph', 1, 'unreadable']]);
      expect(store.sessions.getSnapshot().counts).toMatchObject({ running: 1, unreadable: 1 });
      expect(attention(store).open.map((n) => [n.kind, n.session])).toEqual([['unreadable', D]]);
      expect(view(store, S)?.status).toBe('enforced');
      expect(store.status.getSnapshot().watchMode).toBe('events');
    } finally {
      fault.restore();
      fault = null;
      fs.chmodSync(dir, 0o755);
    }
    await waitFor(() => view(store, D)?.status === 'enforced', { what: 'enforced once opened' });
  });

  it('state/sessions closed (chmod 000) while watched keeps its sessions, unreadable, and lists them once opened', async ({
    emptyProject: p,
    newStore,
  }) => {
    writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    const dir = path.join(p.root, 'state', 'sessions');
    const store = open(p, newStore, 'auto');
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });
    await waitFor(() => view(store, S)?.status === 'enforced', { what: 'enforced' });
    fault = refuseReads('EACCES', (abs) => abs === dir || abs.startsWith(`${dir}/`));
    fs.chmodSync(dir, 0o000);
    try {
      await waitFor(() => (store.sessions.getSnapshot().unreadableDirs ?? []).includes('state/sessions'), {
        what: 'state/sessions unreadable after the chmod',
      });
      // Kept, not gone: a session it saw and may no longer look at is unknown.
      expect(view(store, S)?.status).toBe('unreadable');
      expect(loopValues(store.sessions.getSnapshot()).loops).not.toBe('ralph 3/10');
      expect(attention(store).open.map((n) => n.path)).toContain('state/sessions');
    } finally {
      fault.restore();
      fault = null;
      fs.chmodSync(dir, 0o755);
    }
    await waitFor(() => (store.sessions.getSnapshot().unreadableDirs ?? []).length === 0, {
      what: 'listed once opened',
    });
    expect(view(store, S)?.status).toBe('enforced');
  });
});

describe('readable again', () => {
  it('a chmod back is seen by the watcher: the loop returns without a restart', async ({
    emptyProject: p,
    newStore,
  }) => {
    const file = writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
    fault = refuseReads('EACCES', (abs) => abs === file);
    const store = open(p, newStore, 'auto');
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'watcher ready' });
    await waitFor(() => view(store, S)?.status === 'unreadable', { what: 'unreadable' });
    fault.restore();
    fault = null;
    // The owner makes it readable: only its mode changes (inotify's IN_ATTRIB), no byte of it.
    fs.chmodSync(file, 0o644);
    await waitFor(() => view(store, S)?.status === 'enforced', { what: 'enforced again' });
    expect(view(store, S)!.unreadable).toEqual([]);
    expect(loopValues(store.sessions.getSnapshot()).loops).toBe('ralph 3/10');
    expect(store.sessions.getSnapshot().problems).toEqual([]);
  });
});
