/**
 * One word for a cancel in flight, on every surface, at the same moment. A ralph loop the real OMC 5.5.0 Stop hook
 * enforces is cancelled with `c`, `y` in a monitor; while the cancel is in flight the monitor's row and detail, a
 * second monitor (which did not make the cancel), `--json` (`status_text`, `cancel_in_flight`), `watch --json
 * --rows` (its row as the fleet draws it) and the serve page's row all say the same word: `stopping Ns` while a
 * Claude process that was in its turn at the cancel is not seen to stop (attached), `ended Ns` while no Claude can
 * be seen (unattached: its stop is not observed). The other processes decide it from the cancel's record in the
 * state directory and what they see themselves, so a cancel whose window is over and whose Claude is still in its
 * turn still says `stopping` everywhere, never `idle`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { CancelRecordFile } from '../../src/store/cancel/cancel-records.js';
import { cancelRecordOf } from '../../src/store/cancel/tracker.js';
import { recordedFlight } from '../../src/store/cancel/in-flight.js';
import type { OmcStore } from '../../src/store/store.js';
import type { SessionView } from '../../src/store/sessions/model.js';
import type { ClaudeSessionView } from '../../src/store/claude/model.js';
import { waitFor } from '../helpers/fixtures.js';
import { KEY, type MountedApp } from '../helpers/mount-app.js';
import {
  S,
  cancelScene,
  mountScene,
  otherSurfaces,
  realHook,
  rowStatus,
  sceneStore,
  word,
  type Scene,
} from '../helpers/cancel-surfaces.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const scene = (attached: boolean) => cancelScene(attached, cleanups);
const store = (s: Scene) => sceneStore(s, cleanups);
const mount = (st: OmcStore) => mountScene(st, cleanups);

/** Every surface's word for S at this moment. */
async function surfaces(
  s: Scene,
  first: MountedApp,
  second: MountedApp,
  other: OmcStore,
): Promise<Record<string, string>> {
  const { json, jsonFlight, fleet, page } = await otherSurfaces(s, other);
  return {
    monitor: word(rowStatus(first.lines())),
    second: word(rowStatus(second.lines())),
    json,
    jsonFlight,
    fleet,
    page,
  };
}

const everywhere = (w: string) => ({ monitor: w, second: w, json: w, jsonFlight: w, fleet: w, page: w });

describe('a cancel in flight says one word on every surface', () => {
  for (const attached of [true, false]) {
    const expected = attached ? 'stopping N' : 'ended N';
    it(`${attached ? 'Claude busy at the cancel' : 'no Claude to see'}: ${expected} on the monitor that cancelled, a second monitor, --json, watch --json rows, the fleet and the serve page`, async () => {
      const s = scene(attached);
      expect(realHook(s)).toMatchObject({ decision: 'block', mode: 'ralph' });
      const st = store(s);
      const app = await mount(st);
      const other = store(s);
      const second = await mount(other);
      await app.waitForText(/▸ enforced\s+cccccccc/);
      await app.press('c');
      await app.waitForText('y: cancel the loop');
      await app.press('y');
      await app.waitForText(attached ? /▸ stopping \d+s\s+cccccccc/ : /▸ ended \d+s\s+cccccccc/);
      // The loop is ended on disk: the real Stop hook lets the agent stop.
      expect(realHook(s).decision).toBe('stop');
      // The second monitor learns of the cancel from its record in the state directory.
      await second.waitForText(new RegExp(`${expected.replace('N', '\\d+s')}\\s+cccccccc`));
      const seen = await surfaces(s, app, second, other);
      expect(seen).toEqual(everywhere(expected));
      // The detail says the same word, and what it means.
      await app.press(KEY.enter);
      const detail = await app.waitForText(/status: \S+ \d+s \(/);
      expect(word(/status: (\S+ \d+s)/.exec(detail)?.[1] ?? '')).toBe(expected);
      expect(detail.replace(/\s+/g, ' ')).toContain(attached ? 'is not seen to stop yet' : 'ended the loop on disk');
    });
  }

  it('Claude still in its turn after the 30 s window: stopping everywhere, never idle', async () => {
    const s = scene(true);
    expect(realHook(s)).toMatchObject({ decision: 'block', mode: 'ralph' });
    // Another omc-top (`omc-top cancel`, say) cancelled it 90 s ago and recorded it: its window is over.
    const at = Date.now() - 90_000;
    const planned = planCancel(s.root, { sessionId: S, mode: null, pauseOnly: false }, at, { rules: '5.5.0' });
    if (!planned.ok) throw new Error(planned.message);
    const out = await executeCancel(s.root, planned.plan, { now: () => at });
    if (out.kind !== 'done') throw new Error(out.kind);
    expect(await new CancelRecordFile(s.stateDir, s.root).add(cancelRecordOf(out))).toBeNull();
    expect(realHook(s).decision).toBe('stop');
    const one = store(s);
    const first = await mount(one);
    const other = store(s);
    const second = await mount(other);
    await first.waitForText(/▸ stopping \d+s\s+cccccccc/);
    await second.waitForText(/▸ stopping \d+s\s+cccccccc/);
    await waitFor(() => (other.sessions.getSnapshot().sessions.some((x) => x.id === S) ? true : null), {
      what: 'the session in the serve store',
    });
    expect(await surfaces(s, first, second, other)).toEqual(everywhere('stopping N'));
  });
});

describe('a recorded cancel read by another process', () => {
  const at = 1_800_000_000_000;
  const rec = { key: S, modes: ['ralph'], requestedMs: at, expiresMs: at + 30_000, notEnded: [], failed: null };
  const session = { id: S, kind: 'session', modes: [] } as unknown as SessionView;
  const claude = (status: string, since: number) =>
    ({ process: { pid: 4242, status, since, procStart: null }, transcript: null }) as unknown as ClaudeSessionView;
  it('says stopping only for a turn that began before the cancel, never for one begun after it', () => {
    const now = at + 2 * 3_600_000;
    expect(recordedFlight(rec, session, claude('busy', at - 60_000), now)?.word).toBe('stopping');
    // A new prompt an hour after the cancel: what Claude did at the cancel is not known, and the window is over.
    expect(recordedFlight(rec, session, claude('busy', at + 3_600_000), now)).toBeNull();
    // Inside the window the loop is ended on disk all the same.
    expect(recordedFlight(rec, session, claude('busy', at + 5_000), at + 10_000)?.word).toBe('ended');
  });
});
