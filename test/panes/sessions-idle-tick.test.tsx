// An idle repaint: nothing on disk changes, time passes, and one row's age label turns over ("4m" → "5m").
// That row must show its new age, with its colours, and every other row, the header and the footer must stay
// exactly as they were. Rows are cached at several levels (memoised React rows, Ink's row and width caches,
// rows built from styled runs): a stale cache would show the old age or disturb a neighbour.
import { describe, expect, it } from '../helpers/it.js';
import { OmcStore } from '../../src/store/store.js';
import { NO_CLAUDE_DIR, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { sessionId } from '../helpers/sessions-gen.js';

// 150 ms before a half-minute of the wall clock: minute ages turn over on that grid.
const T0 = Date.parse('2026-06-01T12:00:29.850Z');
// Updated 4 min 59.9 s before T0: "4m" now, "5m" from T0 + 100 ms (shown on the grid, at T0 + 150 ms).
const TURNING = { n: 1, ageMs: 5 * 60_000 - 100 };
// Far from their next label ("7m" and "12m" for another 58–59 s, "1h" for longer).
const STEADY = [
  { n: 2, ageMs: 7 * 60_000 + 1_000 },
  { n: 3, ageMs: 70 * 60_000 },
  { n: 4, ageMs: 12 * 60_000 + 2_000 },
];

function writeLoop(root: string, n: number, ageMs: number) {
  const at = new Date(T0 - ageMs).toISOString();
  const id = sessionId(n);
  writeLiveRalph(
    { root },
    { sessionId: id, iteration: n, max: 10, startedAt: at, checkedAt: at, prompt: `idle tick task ${n}` },
  );
}

describe('sessions pane: an idle tick', () => {
  it('redraws the one row whose age text changed, and leaves the rest of the screen as it was', async ({
    emptyProject: p,
    mount,
  }) => {
    for (const s of [TURNING, ...STEADY]) writeLoop(p.root, s.n, s.ageMs);
    let now = T0;
    const store = new OmcStore({
      root: p.root,
      clock: () => now,
      watch: 'none',
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    });
    store.start();
    const m = mount(store, { columns: 200, rows: 30, color: true });
    const short = (n: number) => sessionId(n).slice(0, 8);
    const rowOf = (lines: string[], n: number) => lines.findIndex((l) => l.includes(short(n)));
    await m.waitForText(new RegExp(`${short(TURNING.n)}.*\\s4m\\b`));
    for (const s of STEADY) await m.waitForText(short(s.n));
    const before = m.lines();
    const beforeRaw = m.raw().split('\n');
    const row = rowOf(before, TURNING.n);
    expect(before[row]).toMatch(/\s4m(\s|$)/);

    // Time passes the half-minute (nothing on disk changed): the app's own tick must repaint.
    now = T0 + 200;
    const after = await waitFor(() => (m.lines()[row]?.match(/\s5m(\s|$)/) ? m.lines() : null), {
      timeoutMs: 20_000,
      what: `the row of ${short(TURNING.n)} showing 5m; last frame:\n${m.text()}`,
    });
    const expected = [...before];
    expected[row] = before[row]!.replace(/(\s)4m(\s|$)/, '$15m$2');
    expect(after).toEqual(expected);
    // Same bytes, colours included, on every row but the age itself.
    const afterRaw = m.raw().split('\n');
    expect(afterRaw.length).toBe(beforeRaw.length);
    for (let i = 0; i < afterRaw.length; i++) {
      if (i === row) expect(afterRaw[i]).toBe(beforeRaw[i]!.replace(/(\s)4m/, '$15m'));
      else expect(afterRaw[i]).toBe(beforeRaw[i]);
    }
    for (const s of STEADY) expect(after[rowOf(after, s.n)]).toBe(before[rowOf(before, s.n)]);
  });
});
