/**
 * A state file far past what OMC writes (up to the 4 MB read cap: a quarter of a million keys, or one 4 MB
 * string) keeps the session detail bounded: each key press there built and wrapped every field (about a second
 * per `j`). The fields past the bound are named, with the file that holds them.
 */
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { detailLines, MAX_DETAIL_FIELDS, MAX_FIELD_CHARS } from '../../src/panes/sessions/detail.js';
import { writeOmcJson } from '../helpers/fixtures.js';

const S = 'a1b2c3d4-0000-4000-8000-00000000000b';

describe('session detail of an oversized state file', () => {
  it('shows at most MAX_DETAIL_FIELDS fields and says how many more; a huge value is cut with its length', ({
    emptyProject: p,
    newStore,
  }) => {
    const now = new Date().toISOString();
    const state: Record<string, unknown> = { active: true, iteration: 1, max_iterations: 5, session_id: S };
    state.started_at = now;
    state.last_checked_at = now;
    state.notes = '😀'.repeat(MAX_FIELD_CHARS); // 2 UTF-16 units each: the cut falls between two pairs
    for (let i = 0; i < 50_000; i++) state[`k${i}`] = i;
    writeOmcJson(path.join(p.root, `state/sessions/${S}/ralph-state.json`), state);
    const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir });
    store.start();
    const s = store.sessions.getSnapshot().sessions.find((x) => x.id === S)!;
    const lines = detailLines(s, Date.now(), 300).map((l) => l.text);
    const fieldLines = lines.filter((l) => /^ {4}\S+: /.test(l));
    expect(fieldLines.length).toBeLessThanOrEqual(MAX_DETAIL_FIELDS);
    const total = Object.keys(state).length;
    expect(lines).toContain(
      `    … ${(total - MAX_DETAIL_FIELDS).toLocaleString('en-US')} more fields (all in state/sessions/${S}/ralph-state.json)`,
    );
    const notes = lines.join('\n');
    expect(notes).toMatch(/… \(2,000 more characters\)/);
    // No lone half of a surrogate pair reaches the screen.
    expect(notes).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(lines.length).toBeLessThan(MAX_DETAIL_FIELDS + 200);
  });
});
