/**
 * A loop whose state file sits in another session's directory (session S's ralph written into D's): S's Stop hook
 * reads it, D's ignores it. It is one loop: S's row holds it and counts it; D's row lists the file (stranded) but
 * is not "enforced" by it, and the header and the status line count it once.
 */
import { describe, expect, it } from '../helpers/it.js';
import { loopValues } from '../../src/feeds/status-line.js';
import { liveRalph, ralphStateFile, writeOmcJson } from '../helpers/fixtures.js';

const D = '88888888-8888-4888-a888-888888888888';
const S = '99999999-9999-4999-a999-999999999999';

describe('a loop stranded in another session directory', () => {
  it("is its owner's: enforced and counted on S's row only", ({ emptyProject: p, newStore }) => {
    // S's live ralph, written into D's directory.
    writeOmcJson(ralphStateFile(p.root, D), liveRalph({ sessionId: S, iteration: 3, projectPath: p.dir }));
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    const snap = store.sessions.getSnapshot();
    const row = (id: string) => snap.sessions.find((s) => s.id === id)!;
    expect(row(S).status).toBe('enforced');
    expect(row(D).modes.map((m) => [m.mode, m.stranded])).toEqual([['ralph', true]]);
    expect(row(D).status).not.toBe('enforced');
    expect(snap.counts).toMatchObject({ running: 1, loops: 1 });
    expect(loopValues(snap)).toEqual({ loops: 'ralph 3/10', active: 1 });
  });
});
