/**
 * A loop whose state file sits in another session's directory (session S's ralph written into D's): S's Stop hook
 * reads it, D's ignores it. It is one loop: S's row holds it and counts it; D's row lists the file (stranded) but
 * is not "enforced" by it, and the header and the status line count it once.
 */
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { loopValues } from '../../src/feeds/status-line.js';
import { writeOmcJson } from '../helpers/fixtures.js';

const D = '88888888-8888-4888-a888-888888888888';
const S = '99999999-9999-4999-a999-999999999999';

describe('a loop stranded in another session directory', () => {
  it("is its owner's: enforced and counted on S's row only", ({ emptyProject: p, newStore }) => {
    const now = new Date().toISOString();
    writeOmcJson(path.join(p.root, `state/sessions/${D}/ralph-state.json`), {
      active: true,
      iteration: 3,
      max_iterations: 10,
      session_id: S,
      project_path: p.dir,
      started_at: now,
      last_checked_at: now,
    });
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
