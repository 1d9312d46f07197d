/**
 * A loop whose state file sits in another session's directory (session S's ralph written into D's): S's Stop hook
 * reads it, D's ignores it. It is one loop: S's row holds it and counts it; D's row lists the file (stranded) but
 * is not "enforced" by it, and the header and the status line count it once.
 */
import { describe, expect, it } from '../helpers/it.js';
import { loopValues } from '../../src/feeds/status-line.js';
import { liveRalph, ralphStateFile, writeOmcJson } from '../helpers/fixtures.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { rowOf } from '../../src/feeds/row.js';
import { detailLines } from '../../src/panes/sessions/detail.js';
import { rowText } from '../../src/panes/sessions/rows.js';

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

  it("D's row says whose the file is and where it is shown, never the owner's status word", ({
    emptyProject: p,
    newStore,
  }) => {
    writeOmcJson(ralphStateFile(p.root, D), liveRalph({ sessionId: S, iteration: 3, projectPath: p.dir }));
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    const snap = store.sessions.getSnapshot();
    const row = (id: string) => snap.sessions.find((s) => s.id === id)!;
    const here = row(D).modes[0]!;
    expect(here).toMatchObject({ stranded: true, enforced: false, status: 'not-enforced' });
    expect(here.verdict).toEqual({
      rule: 'stranded',
      detail: `this file belongs to session ${S}: it is shown, and judged, on that session's row; this session's Stop hook ignores it`,
    });
    // The detail of D: plain words, no "enforced" claim.
    const text = detailLines(row(D), snap.derivedAt, 400).map((l) => l.text);
    expect(text).toContain(`  status: not enforced  —  ${here.verdict.detail}`);
    expect(text.filter((l) => /status: enforced|for session /.test(l))).toEqual([]);
    // --json and the wire say the same of D; S's row keeps the loop, enforced.
    const json = JSON.parse(
      JSON.stringify(buildJsonReport({ root: p.root, rootRule: 't', notices: [], sessions: snap })),
    );
    const jsonD = json.sessions.find((s: { id: string }) => s.id === D);
    expect(jsonD.modes[0]).toMatchObject({ enforced: false, status: 'not-enforced', verdict: here.verdict });
    expect(jsonD.status).not.toBe('enforced');
    expect(rowOf(row(D), undefined).status).toBe(row(D).status);
    expect(rowText(row(D), snap.derivedAt, 120, false).status).not.toMatch(/enforced/);
    expect(row(S).modes[0]).toMatchObject({ status: 'enforced', enforced: true, stranded: false });
  });

  it("a copy the owner's row does not show says which one it shows", ({ emptyProject: p, newStore }) => {
    // S has a ralph of its own: its row (and its hook) use that one; the copy in D is nobody's loop.
    writeOmcJson(ralphStateFile(p.root, S), liveRalph({ sessionId: S, iteration: 5, projectPath: p.dir }));
    writeOmcJson(ralphStateFile(p.root, D), liveRalph({ sessionId: S, iteration: 3, projectPath: p.dir }));
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    const snap = store.sessions.getSnapshot();
    const d = snap.sessions.find((s) => s.id === D)!.modes[0]!;
    expect(d).toMatchObject({ enforced: false, status: 'not-enforced' });
    expect(d.verdict.detail).toBe(
      `this file belongs to session ${S}: that session's row shows state/sessions/${S}/ralph-state.json instead; this session's Stop hook ignores it`,
    );
  });
});
