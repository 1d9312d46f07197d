/**
 * A mode file OMC could not have written field by field (`"iteration": "three"`): read and shown as found, with a
 * problem line; its row marks it ⚠ as a failed read's does, and --json's `problem` says why (it was null).
 */
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { modeSummary } from '../../src/store/sessions/summary.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { writeOmcJson } from '../helpers/fixtures.js';

const S = 'a1b2c3d4-0000-4000-8000-00000000000c';

describe('a mode with fields of the wrong type', () => {
  it('the row marks it ⚠ and the mode carries the reason', ({ emptyProject: p, newStore }) => {
    writeOmcJson(path.join(p.root, `state/sessions/${S}/ralph-state.json`), {
      active: 'yes',
      iteration: 'three',
      max_iterations: 'ten',
      session_id: S,
    });
    writeOmcJson(path.join(p.root, `state/sessions/${S}/ultrawork-state.json`), { active: true, session_id: S });
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    const s = store.sessions.getSnapshot().sessions.find((x) => x.id === S)!;
    const ralph = s.modes.find((m) => m.mode === 'ralph')!;
    expect(ralph.fieldProblem).toMatch(/iteration should be .*, found/);
    expect(modeSummary(ralph, false)).toMatch(/^ralph .*⚠$/);
    // A mode whose fields are fine is not marked.
    expect(
      modeSummary(
        s.modes.find((m) => m.mode === 'ultrawork')!,
        false,
      ),
    ).not.toContain('⚠');
    expect(store.sessions.getSnapshot().problems.some((x) => x.path.endsWith('ralph-state.json'))).toBe(true);
    const doc = JSON.parse(
      JSON.stringify(
        buildJsonReport({ root: p.root, rootRule: 't', notices: [], sessions: store.sessions.getSnapshot() }),
      ),
    ) as { sessions: { id: string; modes: { mode: string; problem: string | null }[] }[] };
    const modes = doc.sessions.find((x) => x.id === S)!.modes;
    expect(modes.find((m) => m.mode === 'ralph')!.problem).toMatch(/iteration should be/);
    expect(modes.find((m) => m.mode === 'ultrawork')!.problem).toBeNull();
  });
});
