/**
 * Directories that appear after the watcher is up: a fresh project's first
 * session (`mkdir -p state/sessions/<id>` makes the session directory before
 * any watch on state/sessions exists), and an ended-session summary caught
 * empty while OMC's SessionEnd writes it (pending on the leading edge, a
 * problem only when the trailing read still fails).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { RunsDomain } from '../../src/store/runs/domain.js';
import { liveRalph, NO_CLAUDE_DIR, waitFor, writeOmcJson } from '../helpers/fixtures.js';

const SID = '7035aa0f-9c5c-4c55-9733-982b01e37d28';

describe('new directories while watching', () => {
  it("a fresh project's first session directory is watched: its mode files show up live", async ({
    emptyProject: p,
    newStore,
  }) => {
    fs.rmSync(path.join(p.root, 'state', 'sessions'), { recursive: true });
    const store = newStore({
      root: p.root,
      watch: 'auto',
      readonly: true,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    });
    store.start();
    await waitFor(() => store.status.getSnapshot().watchMode === 'events', { what: 'the watcher up' });
    // state/sessions arrives with the session directory already in it (one rename: what a `mkdir -p` that
    // beats the watch looks like, made certain), so no directory event ever names the session directory.
    const staged = path.join(p.dir, 'staged-sessions');
    fs.mkdirSync(path.join(staged, SID), { recursive: true });
    fs.renameSync(staged, path.join(p.root, 'state', 'sessions'));
    const dir = path.join(p.root, 'state', 'sessions', SID);
    const now = new Date().toISOString();
    // What Claude Code + OMC write first: the session's start marker. The session shows up (its directory
    // was found by the walk of the new state/sessions); its later files must too.
    writeOmcJson(path.join(dir, 'session-started.json'), { session_id: SID, started_at: now });
    await waitFor(() => store.sessions.getSnapshot().sessions.some((s) => s.id === SID), { what: 'the session' });
    writeOmcJson(
      path.join(dir, 'ralph-state.json'),
      liveRalph({ sessionId: SID, iteration: 1, max: 100, startedAt: now, checkedAt: now }),
    );
    const ralph = () => store.sessions.getSnapshot().sessions.find((s) => s.id === SID)?.modes[0];
    await waitFor(() => ralph()?.iteration === 1, { what: 'ralph 1/100 in the new session', timeoutMs: 20_000 });
    writeOmcJson(
      path.join(dir, 'ralph-state.json'),
      liveRalph({ sessionId: SID, iteration: 2, max: 100, startedAt: now }),
    );
    await waitFor(() => ralph()?.iteration === 2, { what: 'the next iteration, live', timeoutMs: 20_000 });
  });

  it('an ended-session summary caught empty is pending on the leading edge, a problem only if the trailing read fails', ({
    emptyProject: p,
  }) => {
    const d = new RunsDomain({ root: p.root, env: {} });
    d.scan();
    fs.mkdirSync(path.join(p.root, 'sessions'));
    const rel = `sessions/${SID}.json`;
    fs.writeFileSync(path.join(p.root, rel), '');
    const ev = [{ type: 'change' as const, rel, abs: path.join(p.root, rel) }];
    d.refresh(ev, 'leading');
    expect(d.problems()).toEqual([]);
    fs.writeFileSync(
      path.join(p.root, rel),
      JSON.stringify({ session_id: SID, ended_at: new Date().toISOString(), reason: 'other', modes_used: ['ralph'] }),
    );
    d.refresh(ev, 'trailing');
    expect(d.problems()).toEqual([]);
    expect(d.runs().map((r) => [r.mode, r.outcome, r.reason])).toEqual([['ralph', 'ended', 'other']]);
    fs.writeFileSync(path.join(p.root, rel), '');
    d.refresh(ev, 'leading');
    d.refresh(ev, 'trailing');
    expect(d.problems().map((x) => x.path)).toEqual([rel]);
  });
});
