/**
 * The progressive read's first slice is the first frame's rows: it reads for 15 ms, not 40 (every ms read
 * before the first frame is a ms later to it; a screenful is read in a few ms). The clock the slices use is
 * replaced by one that advances 1 ms per look, so the test counts looks, not time: no timing is asserted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { makeProject, NO_CLAUDE_DIR, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { sessionId } from '../helpers/sessions-gen.js';
import path from 'node:path';

let p: TempProject | null = null;
let store: OmcStore | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await store?.close();
  p?.cleanup();
  store = null;
  p = null;
});

describe('the first slice of the progressive read', () => {
  it('reads for 15 ms of its clock, then yields; the rest follows in later slices', async () => {
    p = makeProject();
    const now = new Date().toISOString();
    for (let i = 1; i <= 120; i++)
      writeOmcJson(path.join(p.root, 'state', 'sessions', sessionId(i), 'ralph-state.json'), {
        active: true,
        iteration: 1,
        max_iterations: 10,
        started_at: now,
        last_checked_at: now,
        session_id: sessionId(i),
      });
    const s = new OmcStore({
      root: p.root,
      watch: 'none',
      readonly: true,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    });
    store = s;
    let t = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => (t += 1));
    // start() runs the first slice before it returns.
    s.start({ progressive: true });
    const first = s.sessions.getSnapshot().scanning?.done ?? 0;
    vi.restoreAllMocks();
    expect(first).toBeGreaterThan(0);
    // One look at the clock per session directory and a few more around them: at most 15 directories.
    expect(first).toBeLessThanOrEqual(15);
    await waitFor(() => s.sessions.getSnapshot().sessions.length === 120 && !s.status.getSnapshot().reading, {
      what: 'the whole read',
      timeoutMs: 30_000,
    });
  });
});
