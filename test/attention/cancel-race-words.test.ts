/**
 * The words of a cancel that raced another writer: the "cancel did not take" item says "again" only for a loop its
 * file shows re-armed after the cancel, and "still" (with the cancel that could not end it) for one it never ended;
 * a second monitor confirming a cancel another omc-top carried out a moment earlier is told the loop already ended,
 * and by whom, not "no active mode: nothing to cancel".
 */
import fs from 'node:fs';
import path from 'node:path';
import { carryOutCancel } from '../../src/feeds/answers/cancel-plan.js';
import { recordNeed } from '../../src/feeds/attention/needs.js';
import { rowFlight } from '../../src/store/cancel/in-flight.js';
import { ownStateDir } from '../../src/io/state-dir.js';
import { cancelRecordOf } from '../../src/store/cancel/tracker.js';
import { executeCancel, type CancelDone } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import type { OmcStore } from '../../src/store/store.js';
import { waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';

const S = 'aaaaaaaa-aaaa-4aaa-aaaa-aaaaaaaaaaaa';
const RALPH = `state/sessions/${S}/ralph-state.json`;
const hms = (ms: number) => new Date(ms).toISOString().slice(11, 19);

function ralph(p: TempProject, startedMs: number, iteration = 3): Record<string, unknown> {
  const state = {
    active: true,
    session_id: S,
    iteration,
    max_iterations: 10,
    started_at: new Date(startedMs).toISOString(),
    last_checked_at: new Date().toISOString(),
    prompt: 'ralph: do it',
  };
  writeOmcJson(path.join(p.root, RALPH), state);
  return state;
}

async function cancelAt(p: TempProject, atMs: number): Promise<CancelDone> {
  const plan = planCancel(p.root, { sessionId: S, mode: 'ralph', pauseOnly: false }, atMs);
  if (!plan.ok) throw new Error(plan.message);
  const out = await executeCancel(p.root, plan.plan, { now: () => atMs });
  if (out.kind !== 'done') throw new Error(out.kind);
  return out;
}

async function sessionOf(store: OmcStore) {
  store.start();
  return waitFor(() => store.sessions.getSnapshot().sessions.find((x) => x.id === S) ?? null, { what: 'S read' });
}

describe('the words of a cancel that raced another writer', () => {
  it('"active and enforced again" for a loop re-armed after the cancel; "still active" for one it could not end', async ({
    emptyProject: p,
    newStore,
  }) => {
    const cancelMs = Date.now() - 60_000;
    const original = ralph(p, cancelMs - 60_000);
    const done = await cancelAt(p, cancelMs);
    // A Stop event already under way writes the loop back after the cancel.
    writeOmcJson(path.join(p.root, RALPH), { ...original, iteration: 4 });
    const s = await sessionOf(newStore({ root: p.root, projectDir: p.dir }));
    expect(recordNeed(cancelRecordOf(done), s)?.text).toBe(
      `cancel did not take: ralph is active and enforced again (its file was rewritten after omc-top's cancel at ${hms(cancelMs)} UTC: a Stop event already under way re-armed it) · c cancels again`,
    );
    // OMC held the file's lock: the cancel never ended the loop.
    const held = { ...cancelRecordOf(done), notEnded: ['ralph'] };
    expect(recordNeed(held, s)?.text).toBe(
      `cancel did not take: ralph is still active and enforced (omc-top's cancel at ${hms(cancelMs)} UTC could not end it) · c cancels again`,
    );
  });

  it('a ralph started anew inside the window: the row says what the disk says, not the old run\'s "ended"', async ({
    emptyProject: p,
    newStore,
  }) => {
    const cancelMs = Date.now() - 10_000;
    ralph(p, cancelMs - 60_000);
    const store = newStore({ root: p.root, projectDir: p.dir });
    const done = await cancelAt(p, cancelMs);
    const tracked = store.cancels.track(done);
    expect(tracked.final).toBe(false);
    ralph(p, cancelMs + 5_000, 1);
    const s = await sessionOf(store);
    expect(rowFlight(store.cancels.get(S), undefined, s, undefined, Date.now())).toBeNull();
  });

  it('confirmed after another omc-top ended the loop: "already ended", by whom, nothing written', async ({
    emptyProject: p,
    tempDir,
    newStore,
  }) => {
    const scratch = tempDir('omc-top-cancel-race-');
    const env = { CLAUDE_CONFIG_DIR: path.join(scratch, 'no-claude'), XDG_STATE_HOME: path.join(scratch, 'xdg') };
    const stateDir = ownStateDir(env);
    fs.mkdirSync(stateDir, { recursive: true });
    ralph(p, Date.now() - 60_000);
    const a = newStore({ root: p.root, projectDir: p.dir, stateDir, claude: { env } });
    const b = newStore({ root: p.root, projectDir: p.dir, stateDir, claude: { env } });
    const now = () => Date.now();
    // Both dialogs open on the same loop; monitor A's "y" lands first.
    const planA = planCancel(p.root, { sessionId: S, mode: null, pauseOnly: false }, now());
    const planB = planCancel(p.root, { sessionId: S, mode: null, pauseOnly: false }, now());
    if (!planA.ok || !planB.ok) throw new Error('no plan');
    const first = await carryOutCancel(a, planA.plan, { now });
    if (first.kind !== 'done') throw new Error(first.kind);
    expect(await a.cancels.recorded(first.done)).toBeNull();
    const signal = fs.readFileSync(path.join(p.root, first.done.signal.rel), 'utf8');
    const second = await carryOutCancel(b, planB.plan, { now });
    expect(second.kind).toBe('refused');
    const message = second.kind === 'refused' ? second.message : '';
    expect(message).toBe(
      `ralph in ${S} already ended: omc-top (pid ${process.pid}) cancelled it at ${hms(first.done.signal.requestedMs)} UTC, while this dialog was open; nothing to cancel, nothing was written`,
    );
    expect(message).not.toContain('no active mode');
    // Nothing written by the second: the first one's signal is as it wrote it.
    expect(fs.readFileSync(path.join(p.root, first.done.signal.rel), 'utf8')).toBe(signal);
  });
});
