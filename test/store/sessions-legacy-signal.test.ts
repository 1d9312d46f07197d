/**
 * A session-less generic cancel signal (state/cancel-signal-state.json, as OMC's bash fallback writes it) is read
 * by every session's Stop hook: a session with a loop its hook holds is paused by it ("paused": its loop keeps its
 * state), while a finished or stale row stays what it is, sorted and counted as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { liveRalph, ralphStateFile, writeOmcJson } from '../helpers/fixtures.js';

const FRESH = 'aaaaaaaa-0000-4000-8000-000000000001';
const DONE = 'aaaaaaaa-0000-4000-8000-000000000002';
const STALE = 'aaaaaaaa-0000-4000-8000-000000000003';

describe('a session-less cancel signal in force', () => {
  it('pauses the session holding a loop; the finished and the stale rows keep their status', ({
    emptyProject: p,
    newStore,
  }) => {
    const now = Date.now();
    writeOmcJson(ralphStateFile(p.root, FRESH), liveRalph({ sessionId: FRESH, projectPath: p.dir }));
    writeOmcJson(ralphStateFile(p.root, DONE), {
      ...liveRalph({ sessionId: DONE, projectPath: p.dir }),
      active: false,
    });
    const old = now - 3 * 3_600_000;
    writeOmcJson(
      ralphStateFile(p.root, STALE),
      liveRalph({ sessionId: STALE, projectPath: p.dir, startedAt: old, checkedAt: old }),
    );
    fs.utimesSync(ralphStateFile(p.root, STALE), new Date(old), new Date(old));
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir, clock: () => now });
    store.start();
    const before = store.sessions.getSnapshot();
    const statusOf = (snap: typeof before, id: string) => snap.sessions.find((s) => s.id === id)?.status;
    expect([FRESH, DONE, STALE].map((id) => statusOf(before, id))).toEqual(['enforced', 'finished', 'stale']);
    void store.close();

    writeOmcJson(path.join(p.root, 'state', 'cancel-signal-state.json'), {
      active: true,
      requested_at: new Date(now - 1000).toISOString(),
      expires_at: new Date(now + 29_000).toISOString(),
      mode: 'ralph',
      source: 'bash_fallback',
    });
    const again = newStore({ root: p.root, watch: 'none', projectDir: p.dir, clock: () => now });
    again.start();
    const after = again.sessions.getSnapshot();
    expect([FRESH, DONE, STALE].map((id) => statusOf(after, id))).toEqual(['paused', 'finished', 'stale']);
    expect(after.counts).toMatchObject({ stale: before.counts?.stale });
  });
});
