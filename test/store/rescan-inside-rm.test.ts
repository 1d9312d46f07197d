/**
 * `.omc` removed and an identical copy put back, again and again (a tester's 20 rounds of `rm -rf .omc` and a copy
 * renamed into place): the rescan that follows the root's return can land inside the next `rm -rf`, which removes
 * the loops' files before the directories. What that rescan no longer finds must go through the same removal hold as
 * an event's removal (io/watch/removal-hold.ts): the root gone by the time removals are quiet, nothing was removed, so
 * the session stays (unreadable while the root is away) and is never dropped; no loop is said to stop. The race is
 * injected, not timed: the rescan itself runs with the loop's file already removed, and the rest of the `rm` follows
 * in the same turn.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { liveRalph, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import type { Transition } from '../../src/feeds/attention/engine.js';

const SID = 'a1010101-1111-4222-8333-444444444444';

describe('a rescan inside the next rm -rf of .omc', () => {
  it('keeps the session: its missing file is held as a removal, and the root gone by then drops nothing', async ({
    emptyProject: p,
    newStore,
  }) => {
    const file = path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json');
    writeOmcJson(file, liveRalph({ sessionId: SID, iteration: 3, max: 10 }));
    const backup = `${p.root}.backup`;
    fs.cpSync(p.root, backup, { recursive: true });
    const putBack = () => {
      fs.cpSync(backup, `${p.root}.new`, { recursive: true });
      fs.renameSync(`${p.root}.new`, p.root);
    };
    const s = newStore({ root: p.root, watch: 'auto' });
    s.start();
    const mode = () => s.status.getSnapshot().watchMode;
    const session = () => s.sessions.getSnapshot().sessions.find((v) => v.id === SID);
    await waitFor(() => mode() === 'events' && session()?.status === 'enforced', { what: 'live, the loop enforced' });

    // Every picture from here on: the session is there, enforced or (while the root is away) unreadable.
    const seen: string[] = [];
    s.sessions.subscribe(() => seen.push(session()?.status ?? 'gone'));

    // The next scan (the root's return) runs inside an `rm -rf`: the loop's file is gone, its directories not yet;
    // the rest of the removal follows at once.
    const scan = s.sessions.scan.bind(s.sessions);
    let armed = false;
    let injected = false;
    s.sessions.scan = () => {
      if (!armed || injected || !fs.existsSync(file)) return scan();
      injected = true;
      fs.rmSync(file);
      scan();
      fs.rmSync(p.root, { recursive: true });
    };

    fs.rmSync(p.root, { recursive: true });
    await waitFor(() => mode() === 'waiting', { what: 'the root gone' });
    armed = true;
    putBack();
    await waitFor(() => injected, { what: 'the rescan of the root back, inside the next rm' });
    await waitFor(() => mode() === 'waiting', { what: 'the root gone again' });
    armed = false;
    // Back once more, unchanged: live, and the loop as it was.
    putBack();
    await waitFor(() => mode() === 'events' && session()?.status === 'enforced', { what: 'live again, enforced' });
    expect(session()?.modes[0]?.iteration).toBe(3);
    expect(seen.filter((x) => x !== 'enforced' && x !== 'unreadable')).toEqual([]);
  });

  it('a scan that finds the root gone before the watcher has said so is no transition (the loop is out of sight)', async ({
    emptyProject: p,
    newStore,
  }) => {
    const file = path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json');
    writeOmcJson(file, liveRalph({ sessionId: SID, iteration: 3, max: 10 }));
    const backup = `${p.root}.backup`;
    fs.cpSync(p.root, backup, { recursive: true });
    const s = newStore({ root: p.root, watch: 'auto' });
    s.start();
    const monitor = new AttentionMonitor(s);
    const batches: Transition[][] = [];
    monitor.onTransitions((b) => batches.push([...b]));
    const mode = () => s.status.getSnapshot().watchMode;
    const session = () => s.sessions.getSnapshot().sessions.find((v) => v.id === SID);
    await waitFor(() => mode() === 'events' && session()?.status === 'enforced', { what: 'live, the loop enforced' });
    await waitFor(() => monitor.view.getSnapshot() !== null, { what: 'the monitor settled' });
    // `rm -rf .omc` and a scan (a release of held removals, the watches' ready) in the same turn: the scan sees no
    // root while the watcher's status still has it there.
    fs.rmSync(p.root, { recursive: true });
    s.sessions.scan();
    expect(session()?.status).toBe('unreadable');
    expect((s.status.getSnapshot().rootAbsence ?? null) === null).toBe(true);
    await waitFor(() => mode() === 'waiting', { what: 'the root gone' });
    fs.cpSync(backup, `${p.root}.new`, { recursive: true });
    fs.renameSync(`${p.root}.new`, p.root);
    await waitFor(() => mode() === 'events' && session()?.status === 'enforced', { what: 'live again, enforced' });
    // The picture back is compared with the one before the root went: the same tree, no change.
    expect(batches.flat().map((t) => `${t.kind} ${t.from} -> ${t.to}`)).toEqual([]);
    monitor.dispose();
  });
});
