/**
 * One word for a settled cancel, on every surface, at the same moment. A ralph loop the real OMC 5.5.0 Stop hook
 * enforces is cancelled by a monitor, which follows the cancel to its verdict and records what it saw in the cancel's
 * shared record; then that monitor's row, a second monitor (the built bundle in a terminal, which did not make the
 * cancel), its Cost pane, `--json` (`status_text`, `cancel_settled`), `watch --json --rows` (its row as the fleet
 * draws it) and the serve page's row all say the same word: `stopped` once the Claude that was in its turn at the
 * cancel is seen to stop (attached), `ended` once the window is over with no Claude to see (unattached), `not taken`
 * for a loop written back inside the window (the Cost pane, which lists only live loops, says it there too). Without
 * the record the others said the store's word (`cancel 12s`, `idle`, `enforced`) while the monitor that saw it said
 * its verdict.
 *
 * And the lesser claim everywhere: a Claude busy at the cancel that then waits on a prompt (and goes busy again)
 * shows a status begun after the cancel, which no other process can tell from a new turn; the monitor that watched
 * throughout says `ended`, as the others do, not `stopping`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cancelRecordsFileName, parseCancelRecords } from '../../src/store/cancel/cancel-records.js';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import type { OmcStore } from '../../src/store/store.js';
import { liveRalph, ralphStateFile, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { TerminalHarness } from '../helpers/pty.js';
import {
  S,
  cancelScene,
  claudeNow,
  mountScene,
  otherSurfaces,
  realHook,
  rowStatus,
  sceneStore,
  type Scene,
} from '../helpers/cancel-surfaces.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const scene = (attached: boolean) => cancelScene(attached, cleanups);
const store = (s: Scene) => sceneStore(s, cleanups);
const mount = (st: OmcStore) => mountScene(st, cleanups);

/** A second monitor: the built bundle in a terminal, on the same project and state directory. */
async function terminalMonitor(s: Scene): Promise<TerminalHarness> {
  const h = new TerminalHarness({
    args: ['--root', s.root],
    cols: 120,
    rows: 30,
    env: s.env as Record<string, string>,
  });
  cleanups.push(() => h.dispose());
  await h.waitForText(/enforced\s+cccccccc/, 20_000);
  return h;
}

/** S's entry in the cancel record on disk (what another process reads). */
function recordOnDisk(s: Scene) {
  const file = path.join(s.stateDir, cancelRecordsFileName(s.root));
  if (!fs.existsSync(file)) return undefined;
  const p = parseCancelRecords(fs.readFileSync(file, 'utf8'), Date.now());
  return p.ok ? p.records.get(S) : undefined;
}

/** The loop's row on the Cost pane of a monitor in a terminal: its STATE cell reads the session's word. */
async function costState(h: TerminalHarness, expected: string): Promise<string> {
  h.write('$');
  return h.waitForText(new RegExp(`ralph.*cccccccc.*${expected}`));
}

describe('a settled cancel says one word on every surface', () => {
  it('Claude busy at the cancel, then seen to stop: stopped on the monitor that saw it, a second monitor, --json, watch --json rows, the fleet and the serve page', async () => {
    const s = scene(true);
    expect(realHook(s)).toMatchObject({ decision: 'block', mode: 'ralph' });
    const st = store(s);
    const app = await mount(st);
    const page = store(s);
    const second = await terminalMonitor(s);
    await app.waitForText(/▸ enforced\s+cccccccc/);
    await app.press('c');
    await app.waitForText('y: cancel the loop');
    await app.press('y');
    await app.waitForText(/▸ stopping \d+s\s+cccccccc/);
    expect(realHook(s).decision).toBe('stop');
    // Claude's turn ends: its registry entry turns idle.
    claudeNow(s, 'idle');
    await app.waitForText(/▸ stopped\s+cccccccc/);
    await second.waitForText(/stopped\s+cccccccc/);
    expect({
      monitor: rowStatus(app.lines()),
      second: rowStatus(second.screen()),
      ...(await otherSurfaces(s, page)),
    }).toEqual({
      monitor: 'stopped',
      second: 'stopped',
      json: 'stopped',
      jsonFlight: '(none)',
      jsonSettled: 'stopped',
      fleet: 'stopped',
      page: 'stopped',
    });
    // What the monitor saw is in the shared record: the word, its stop, and who saw it.
    expect(recordOnDisk(s)?.settled).toMatchObject({ word: 'stopped', seen: 'idle', byPid: process.pid });
    // The second monitor's detail says what was seen, and by which omc-top: the ✓ is that observation.
    second.write('\r');
    const detail = (await second.waitForText(/status: stopped \(/)).replace(/\s+/g, ' ');
    expect(detail).toContain(`status: stopped (omc-top (pid ${process.pid}) saw Claude stop ✓ in`);
  });

  it("no Claude to see, the cancel's window over: ended on the monitor that followed it and everywhere else", async () => {
    const s = scene(false);
    expect(realHook(s)).toMatchObject({ decision: 'block', mode: 'ralph' });
    const st = store(s);
    const app = await mount(st);
    const page = store(s);
    const second = await terminalMonitor(s);
    await app.waitForText(/▸ enforced\s+cccccccc/);
    // This monitor's cancel, made 40 s ago (its window is over), followed by its tracker as `c` `y` hands it over.
    const at = Date.now() - 40_000;
    const planned = planCancel(s.root, { sessionId: S, mode: null, pauseOnly: false }, at, { rules: '5.5.0' });
    if (!planned.ok) throw new Error(planned.message);
    const out = await executeCancel(s.root, planned.plan, { now: () => at });
    if (out.kind !== 'done') throw new Error(out.kind);
    expect(st.cancels.track(out)).toMatchObject({ phase: 'unobserved', final: true });
    await app.waitForText(/▸ ended\s+cccccccc/);
    await second.waitForText(/ended\s+cccccccc/);
    expect({
      monitor: rowStatus(app.lines()),
      second: rowStatus(second.screen()),
      ...(await otherSurfaces(s, page)),
    }).toEqual({
      monitor: 'ended',
      second: 'ended',
      json: 'ended',
      jsonFlight: '(none)',
      jsonSettled: 'ended',
      fleet: 'ended',
      page: 'ended',
    });
    expect(recordOnDisk(s)?.settled).toMatchObject({ word: 'ended', stoppedMs: null, byPid: process.pid });
  });

  it('a loop re-armed inside the window: not taken on the monitor that followed it, a second monitor and its Cost pane, --json, watch --json rows, the fleet and the serve page', async () => {
    const s = scene(false);
    const st = store(s);
    const app = await mount(st);
    const page = store(s);
    const second = await terminalMonitor(s);
    await app.waitForText(/▸ enforced\s+cccccccc/);
    // This monitor's cancel, made 40 s ago; a Stop event already under way wrote the loop back since.
    const at = Date.now() - 40_000;
    const startedAt = String(JSON.parse(fs.readFileSync(ralphStateFile(s.root, S), 'utf8')).started_at);
    const planned = planCancel(s.root, { sessionId: S, mode: null, pauseOnly: false }, at, { rules: '5.5.0' });
    if (!planned.ok) throw new Error(planned.message);
    const out = await executeCancel(s.root, planned.plan, { now: () => at });
    if (out.kind !== 'done') throw new Error(out.kind);
    // The same run written back (its started_at kept), as OMC's Stop hook writes the next iteration.
    writeOmcJson(
      ralphStateFile(s.root, S),
      liveRalph({ sessionId: S, projectPath: s.dir, prompt: 'ralph fix tests', startedAt }),
    );
    expect(realHook(s)).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(st.cancels.track(out)).toMatchObject({ phase: 'not-taken', final: true });
    await app.waitForText(/▸ not taken\s+cccccccc/);
    await second.waitForText(/not taken\s+cccccccc/);
    expect({
      monitor: rowStatus(app.lines()),
      second: rowStatus(second.screen()),
      ...(await otherSurfaces(s, page)),
    }).toEqual({
      monitor: 'not taken',
      second: 'not taken',
      json: 'not taken',
      jsonFlight: '(none)',
      jsonSettled: 'not taken',
      fleet: 'not taken',
      page: 'not taken',
    });
    expect(recordOnDisk(s)?.settled).toMatchObject({ word: 'not-taken', byPid: process.pid });
    // The second monitor's Cost pane words the loop's state from the same record (its tracker knows nothing of it).
    await costState(second, 'not taken');
  });

  it('Claude busy at the cancel, then waiting on a prompt and busy again: the monitor that watched says what the others can, ended, not stopping', async () => {
    const s = scene(true);
    const one = store(s);
    const first = await mount(one);
    const other = store(s);
    const second = await mount(other);
    await first.waitForText(/▸ enforced\s+cccccccc/);
    await first.press('c');
    await first.waitForText('y: cancel the loop');
    await first.press('y');
    await first.waitForText(/▸ stopping \d+s\s+cccccccc/);
    await second.waitForText(/stopping \d+s\s+cccccccc/);
    // A permission prompt: the registry says waiting, since now (after the cancel).
    claudeNow(s, 'waiting');
    await second.waitForText(/ended \d+s\s+cccccccc/);
    await first.waitForText(/▸ ended \d+s\s+cccccccc/);
    // Answered: busy again, since now. Still no process can tell this is the turn of the cancel.
    claudeNow(s, 'busy');
    await waitFor(() => (one.claude.getSnapshot().bySession.get(S)?.process?.status === 'busy' ? true : null), {
      what: 'busy again in the monitor that cancelled',
    });
    await waitFor(() => (other.claude.getSnapshot().bySession.get(S)?.process?.status === 'busy' ? true : null), {
      what: 'busy again in the second monitor',
    });
    // `ended 12s` while the window lasts, `ended` (settled, recorded) after it: never `stopping` on either.
    for (const w of [rowStatus(first.lines()), rowStatus(second.lines())]) expect(w).toMatch(/^ended( \d+s)?$/);
  });
});
