/**
 * What one session costs in memory (issue 14: RSS at 2,000 and 10,000 sessions). A mode view used to get its
 * lazy `fields` through a per-object defineProperty over an existing data property: V8 turned every mode view
 * into a dictionary-mode object (~1.6 KB each, two per session) and the getter's closure kept deriveSession's
 * whole scope alive. The views must stay fast-mode objects, and `fields` must still be every field, sanitised,
 * built only when read.
 */
import path from 'node:path';
import v8 from 'node:v8';
import { describe, expect, it } from '../helpers/it.js';
import { liveRalph, writeOmcJson } from '../helpers/fixtures.js';

v8.setFlagsFromString('--allow-natives-syntax');
// Compiled after the flag is set, so the native call parses.
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

const sid = (i: number) => `a1b2c3d4-0000-4000-8000-${String(i).padStart(12, '0')}`;

describe('session views in memory', () => {
  it('every session view and mode view is a fast-mode object; fields are read lazily and sanitised', ({
    emptyProject: p,
    newStore,
  }) => {
    const now = new Date().toISOString();
    for (let i = 0; i < 20; i++) {
      const dir = path.join(p.root, 'state', 'sessions', sid(i));
      writeOmcJson(
        path.join(dir, 'ralph-state.json'),
        liveRalph({
          sessionId: sid(i),
          iteration: 2,
          max: 10,
          startedAt: now,
          checkedAt: now,
          prompt: `task ${i} — keep it green \u001b[31mred\u001b[0m`,
        }),
      );
      writeOmcJson(path.join(dir, 'ultrawork-state.json'), { active: true, started_at: now, session_id: sid(i) });
    }
    const store = newStore({ root: p.root, watch: 'none' });
    store.start();
    const sessions = store.sessions.getSnapshot().sessions;
    expect(sessions).toHaveLength(20);
    for (const s of sessions) {
      expect(hasFastProperties(s)).toBe(true);
      expect(s.modes).toHaveLength(2);
      for (const m of s.modes) expect(hasFastProperties(m)).toBe(true);
    }
    const ralph = sessions[0]?.modes.find((m) => m.mode === 'ralph');
    expect(ralph?.prompt).toMatch(/^task \d+ — keep it green red$/);
    expect(Object.keys(ralph?.fields ?? {})).toEqual(
      expect.arrayContaining(['active', 'iteration', 'prompt', 'session_id']),
    );
    expect(String(ralph?.fields.prompt)).not.toContain('\u001b');
    // Read twice, built once.
    expect(ralph?.fields).toBe(ralph?.fields);
    for (const m of sessions[0]?.modes ?? []) expect(hasFastProperties(m)).toBe(true);
  });
});
