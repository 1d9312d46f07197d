/**
 * A pause and a cancel read the same on every surface, in every process: the word comes from the disk (the signal
 * and the loop files beside it), not from the memory of the monitor that wrote the signal. A pause (`p`,
 * `cancel --signal-only`) writes the signal only and the loop keeps its state: `paused`, `pause 29s`. A cancel writes
 * the signal and then removes or deactivates the files: `cancelling`, `cancel 29s`. Checked here through a store
 * that did not write either signal (another monitor, `--json`, `watch --json --rows`).
 */
import { describe, expect, it } from '../helpers/it.js';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel, type CancelRequest } from '../../src/store/cancel/plan.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { rowOf, rowSignal } from '../../src/feeds/row.js';
import { statusText as fleetStatusText } from '../../src/panes/fleet/layout.js';
import { statusLabel } from '../../src/panes/sessions/rows.js';
import { detailStatus } from '../../src/panes/sessions/detail.js';
import { liveRalph, ralphStateFile, writeOmcJson } from '../helpers/fixtures.js';

const PAUSED = 'bbbbbbbb-0000-4000-8000-000000000001';
const CANCELLED = 'bbbbbbbb-0000-4000-8000-000000000002';
/** A ralph written by OMC's state_write (no top-level session_id): the hook does not enforce it, but it is a loop. */
const UNENFORCED = 'bbbbbbbb-0000-4000-8000-000000000003';

describe('a cancel signal in force, as a monitor that did not write it reads it', () => {
  it('a pause says paused / pause Ns and a cancel says cancelling / cancel Ns, on the row, the detail, the wire and --json', async ({
    emptyProject: p,
    newStore,
  }) => {
    for (const sid of [PAUSED, CANCELLED])
      writeOmcJson(ralphStateFile(p.root, sid), liveRalph({ sessionId: sid, projectPath: p.dir }));
    const { session_id: _, ...noSid } = liveRalph({ sessionId: UNENFORCED, projectPath: p.dir });
    writeOmcJson(ralphStateFile(p.root, UNENFORCED), { ...noSid, _meta: { sessionId: UNENFORCED } });
    // What `omc-top cancel --signal-only` and `omc-top cancel` write, in their own process.
    const act = async (req: CancelRequest) => {
      const planned = planCancel(p.root, req, Date.now(), { rules: '5.5.0' });
      if (!planned.ok) throw new Error(planned.message);
      const out = await executeCancel(p.root, planned.plan, { now: Date.now });
      expect(out).toMatchObject({ kind: 'done', ok: true });
    };
    await act({ sessionId: PAUSED, mode: null, pauseOnly: true });
    await act({ sessionId: UNENFORCED, mode: null, pauseOnly: true });
    await act({ sessionId: CANCELLED, mode: null, pauseOnly: false });

    const now = Date.now();
    const store = newStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      clock: () => now,
      omc: makeOmcInstall('5.5.0', 'test'),
    });
    store.start();
    const snap = store.sessions.getSnapshot();
    const view = (id: string) => snap.sessions.find((s) => s.id === id)!;
    const json = buildJsonReport({ root: p.root, rootRule: 'test', notices: [], sessions: snap }) as {
      sessions: Array<{ id: string; status: string; cancel: { in_force: boolean } | null }>;
    };
    const surfaces = (id: string) => {
      const s = view(id);
      const row = rowOf(s, undefined, now);
      const sig = rowSignal(row);
      return {
        store: s.status,
        json: json.sessions.find((x) => x.id === id)?.status,
        wire: row.status,
        row: statusLabel(s, now).replace(/\d+s$/, 'Ns'),
        fleet: fleetStatusText({ ...row, key: id, host: null, rootId: 'r', rootLabel: 'r' }, now).replace(
          /\d+s$/,
          'Ns',
        ),
        detail: detailStatus(s).replace(/ \(.*$/, ''),
        countsDown: sig !== null && sig.untilMs > now && sig.untilMs === s.cancel?.untilMs,
      };
    };
    expect(surfaces(PAUSED)).toEqual({
      store: 'paused',
      json: 'paused',
      wire: 'paused',
      row: 'pause Ns',
      fleet: 'pause Ns',
      detail: 'paused',
      countsDown: true,
    });
    expect(view(UNENFORCED).modes[0]).toMatchObject({ enforced: false, verdict: { rule: 'no-session-id' } });
    expect(surfaces(UNENFORCED)).toEqual(surfaces(PAUSED));
    expect(surfaces(CANCELLED)).toEqual({
      store: 'cancelling',
      json: 'cancelling',
      wire: 'cancelling',
      row: 'cancel Ns',
      fleet: 'cancel Ns',
      detail: 'cancelling',
      countsDown: true,
    });
    // All count down, so the screen repaints each second for them.
    expect(snap.cancelling).toBe(3);
  });
});
