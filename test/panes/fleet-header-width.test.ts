/**
 * The fleet's header at 60, 80 and 120 columns. Its parts give way lowest first — the explanation of "over 8" (the
 * help says it whole), the counts, the quota's long form, the quota — so what needs you, the hosts that are not
 * live and the plan quota are never cut off by a count, and no part is cut mid-word while a lower one could go.
 * Before, at 80 columns with 11 Claude sessions the header read `omc-top --all · needs you: 8 · 11 Claude
 * sessions on this machine (over 8: OMC …` and said nothing of the host not live or the quota.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_FLEET, type FleetGroup, type FleetSnapshot } from '../../src/fleet/model.js';
import { fleetHelpLines } from '../../src/panes/fleet/keys.js';
import { headerText } from '../../src/panes/fleet/layout.js';
import type { QuotaSnapshot } from '../../src/store/cost/quota-domain.js';
import { parseUsageCache } from '../../src/store/cost/quota.js';
import { fit, width } from '../../src/ui/format.js';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const RESET = NOW + 40 * 60_000;
const LONG_QUOTA = '5h 100% until 12:40 · wk 83% ↻2d23h';
const SHORT_QUOTA = '5h 100% until 12:40 · wk 83%';

function quota(): QuotaSnapshot {
  const iso = (ms: number) => new Date(ms).toISOString();
  const parsed = parseUsageCache('plugins/oh-my-claudecode/.usage-cache-anthropic.json', {
    timestamp: NOW,
    data: {
      fiveHourPercent: 100,
      fiveHourResetsAt: iso(RESET),
      weeklyPercent: 83,
      weeklyResetsAt: iso(NOW + 3 * 86_400_000 - 30 * 60_000),
    },
    error: false,
    source: 'anthropic',
    lastSuccessAt: NOW,
  });
  if (!parsed.ok) throw new Error(parsed.problem);
  return { version: 1, configDir: '/c', cache: parsed.value, cacheProblem: null, pollMs: 90_000, daemon: null };
}

const needing = (n: number) =>
  ({ rows: Array.from({ length: n }, () => ({ needs: 'orphaned loop' })), needsYou: n }) as unknown as FleetGroup;

/** 8 things need you, `claude` Claude sessions here, 5 roots, this machine's quota. */
const fleet = (claude: number): FleetSnapshot => ({
  ...EMPTY_FLEET,
  groups: [needing(8)],
  localClaude: claude,
  roots: 5,
  ready: true,
  quota: quota(),
});

/** What the view draws: the header at that width, fitted to it (panes/fleet/view.tsx). */
const drawn = (snap: FleetSnapshot, cols: number, notifyOff = false) =>
  fit(headerText(snap, 2, 1, NOW, cols, notifyOff), cols).trimEnd();

describe("the fleet header's parts give way lowest first", () => {
  it('11 Claude sessions, 2 hosts (1 not live), the quota: at 120, 80 and 60 columns', () => {
    const snap = fleet(11);
    expect(drawn(snap, 120)).toBe(
      `omc-top --all · needs you: 8 · 11 Claude sessions (over 8) · 2 hosts (1 not live)  ${LONG_QUOTA}`,
    );
    expect(drawn(snap, 80)).toBe(`omc-top --all · needs you: 8 · 1 host not live  ${SHORT_QUOTA}`);
    expect(drawn(snap, 60)).toBe(`needs you: 8 · 1 host not live  ${SHORT_QUOTA}`);
    // Unbounded (the terminal title's words first, every part whole): as before.
    expect(headerText(snap, 2, 1, NOW)).toBe(
      `omc-top --all · needs you: 8 · 11 Claude sessions on this machine (over 8: OMC 5.6 slows sibling sessions ` +
        `down) · 5 roots · 2 hosts (1 not live)  ${LONG_QUOTA}`,
    );
  });

  it('fewer sessions: the roots go before the host not live, the counts before the quota', () => {
    const snap = fleet(3);
    expect(drawn(snap, 120)).toBe(
      `omc-top --all · needs you: 8 · 3 Claude sessions · 5 roots · 2 hosts (1 not live)  ${LONG_QUOTA}`,
    );
    expect(drawn(snap, 80)).toBe(`omc-top --all · needs you: 8 · 1 host not live  ${SHORT_QUOTA}`);
    expect(drawn(snap, 60)).toBe(`needs you: 8 · 1 host not live  ${SHORT_QUOTA}`);
  });

  it('every part that is drawn is whole, at every width from 30 to 200', () => {
    for (const snap of [fleet(11), fleet(3)])
      for (let cols = 30; cols <= 200; cols++) {
        const t = headerText(snap, 2, 1, NOW, cols, true);
        expect(width(t), `${cols} columns: ${t}`).toBeLessThanOrEqual(cols);
        expect(t, `${cols} columns`).toContain('needs you: 8');
        // A lower part only while every higher one is there: the quota before any count, the host not live first.
        const notLive = /1 not live|1 host not live/.test(t);
        const quotaShown = t.includes(SHORT_QUOTA);
        const counts = /Claude sessions|roots/.test(t);
        if (quotaShown) expect(notLive, `${cols} columns: ${t}`).toBe(true);
        if (counts) expect(quotaShown, `${cols} columns: ${t}`).toBe(true);
      }
  });

  it('notify off stays beside what needs you after the quota and the hosts went', () => {
    expect(drawn(fleet(11), 80, true)).toBe(`needs you: 8 · 1 host not live  ${SHORT_QUOTA} · notify off`);
    expect(drawn(fleet(11), 60, true)).toBe('needs you: 8 · 1 host not live · notify off');
    expect(drawn(fleet(11), 30, true)).toBe('needs you: 8 · notify off');
  });

  it('the help says what "over 8" means', () => {
    const help = fleetHelpLines(80, false).map((l) => l.text);
    expect(help.join(' ')).toContain('over 8 (“over 8”): OMC 5.6 slows sibling sessions down');
  });
});
