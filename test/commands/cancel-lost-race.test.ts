/**
 * `omc-top cancel` (the built bundle) whose loop another writer ends first: between its plan and its write (the
 * command held there by its test seam while a second writer ends the loop), or a moment before it ran. It says the
 * loop already ended, and who ended it when omc-top's cancel records tell, in the monitor's dialog's words; exit 4
 * (nothing to cancel) as documented; nothing written.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { carryOutCancel } from '../../src/feeds/answers/cancel-plan.js';
import { planCancel, type CancelPlan } from '../../src/store/cancel/plan.js';
import { cancelScene, S, sceneStore, type Scene } from '../helpers/cancel-surfaces.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { ralphStateFile, waitFor } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { scaled } from '../helpers/time-scale.js';

const hms = (ms: number) => new Date(ms).toISOString().slice(11, 19);
const signalFile = (s: Scene) => path.join(s.root, 'state', 'sessions', S, 'cancel-signal-state.json');

interface Run {
  /** Resolves once the command says it is held between its plan and its write. */
  held: Promise<void>;
  /** Lets the held command go on to its write. */
  release(): void;
  done: Promise<{ code: number | null; out: string; err: string }>;
}

/** The bundle's `cancel` of S; with `hold`, held between its plan and its write until released. */
function runCancel(s: Scene, args: string[], hold: boolean): Run {
  const release = path.join(s.dir, `release-${Math.random().toString(36).slice(2)}`);
  const child = spawn(process.execPath, [BUNDLE, 'cancel', S, ...args, '--root', s.root], {
    env: { ...process.env, ...s.env, ...(hold ? { OMC_TOP_TEST_HOLD_CANCEL: release } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => void child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const done = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, out, err })),
  );
  return {
    held: waitFor(() => err.includes('held for a test until'), { what: 'the command held', timeoutMs: 20_000 }).then(
      () => undefined,
    ),
    release: () => fs.writeFileSync(release, ''),
    done,
  };
}

/** A monitor's cancel of S, confirmed now (its dialog's plan carried out), as the TUI's "y" does. */
async function monitorCancels(s: Scene, cleanups: Array<() => unknown>) {
  const store = sceneStore(s, cleanups);
  const plan = planCancel(s.root, { sessionId: S, mode: null, pauseOnly: false }, Date.now());
  if (!plan.ok) throw new Error(plan.message);
  const out = await carryOutCancel(store, plan.plan, { now: Date.now });
  if (out.kind !== 'done') throw new Error(out.kind);
  expect(await store.cancels.recorded(out.done)).toBeNull();
  return { store, requestedMs: out.done.signal.requestedMs };
}

/** What a second monitor's dialog, opened on the loop before it ended, says on "y" now. */
async function dialogWords(s: Scene, stale: CancelPlan, cleanups: Array<() => unknown>): Promise<string> {
  const out = await carryOutCancel(sceneStore(s, cleanups), stale, { now: Date.now });
  if (out.kind !== 'refused') throw new Error(out.kind);
  return out.message;
}

describe('omc-top cancel that loses the race for the loop', { timeout: scaled(60_000) }, () => {
  it('a monitor cancels between its plan and its write: "already ended", by whom and when, exit 4, nothing written', async () => {
    const cleanups: Array<() => unknown> = [];
    onTestFinished(async () => {
      for (const c of cleanups.reverse()) await c();
    });
    const s = cancelScene(false, cleanups);
    const stale = planCancel(s.root, { sessionId: S, mode: null, pauseOnly: false }, Date.now());
    if (!stale.ok) throw new Error(stale.message);
    const cli = runCancel(s, ['--json'], true);
    await cli.held;
    const { requestedMs } = await monitorCancels(s, cleanups);
    const signal = fs.readFileSync(signalFile(s), 'utf8');
    cli.release();
    const r = await cli.done;
    expect(r.code).toBe(4);
    const doc = JSON.parse(r.out);
    expect(doc).toMatchObject({ ok: false, error: 'nothing-to-cancel' });
    // Who ended it, as fields a script reads without parsing the words: the monitor's record, as the words name it.
    expect(doc.ended_by).toEqual({
      process: 'omc-top',
      pid: process.pid,
      at: new Date(requestedMs).toISOString(),
      modes: ['ralph'],
    });
    expect(doc.message).toBe(
      `ralph in ${S} already ended: omc-top (pid ${process.pid}) cancelled it at ${hms(requestedMs)} UTC, between this command's plan and its write; nothing to cancel, nothing was written`,
    );
    // The monitor's dialog says the same fact in the same words, but for the moment it names.
    expect(await dialogWords(s, stale.plan, cleanups)).toBe(
      doc.message.replace("between this command's plan and its write", 'while this dialog was open'),
    );
    // The monitor's signal is as it wrote it: the command wrote nothing.
    expect(fs.readFileSync(signalFile(s), 'utf8')).toBe(signal);
  });

  it("another `omc-top cancel` wins in that moment: it is named; OMC's /cancel (no record): said as that", async () => {
    const cleanups: Array<() => unknown> = [];
    onTestFinished(async () => {
      for (const c of cleanups.reverse()) await c();
    });
    let s = cancelScene(false, cleanups);
    let cli = runCancel(s, [], true);
    const cliJson = runCancel(s, ['--json'], true);
    await Promise.all([cli.held, cliJson.held]);
    const other = await runCancel(s, ['--json'], false).done;
    expect(other.code).toBe(0);
    const requestedMs = Date.parse(JSON.parse(other.out).signal.requested_at);
    cli.release();
    cliJson.release();
    let r = await cli.done;
    // The same fact as fields: a command run's record names no process, so no pid.
    const lost = await cliJson.done;
    expect(lost.code).toBe(4);
    expect(JSON.parse(lost.out)).toMatchObject({
      error: 'nothing-to-cancel',
      ended_by: { process: 'omc-top cancel', pid: null, at: new Date(requestedMs).toISOString(), modes: ['ralph'] },
    });
    expect(r.code).toBe(4);
    expect(r.out).toBe('');
    expect(r.err.split('\n').filter((l) => !l.startsWith('held for a test'))).toEqual([
      `omc-top cancel: ralph in ${S} already ended: \`omc-top cancel\` cancelled it at ${hms(requestedMs)} UTC, between this command's plan and its write; nothing to cancel, nothing was written`,
      '',
    ]);

    // OMC's own /cancel removes the loop's file: no omc-top record names anyone.
    s = cancelScene(false, cleanups);
    cli = runCancel(s, [], true);
    const noRecord = runCancel(s, ['--json'], true);
    await Promise.all([cli.held, noRecord.held]);
    fs.rmSync(ralphStateFile(s.root, S));
    cli.release();
    noRecord.release();
    r = await cli.done;
    expect(r.code).toBe(4);
    const unnamed = `ralph in ${S} already ended between this command's plan and its write (omc-top's cancel records name no other omc-top: OMC's /cancel or the loop's own end); nothing was written (no active mode in ${S}: nothing to cancel)`;
    expect(r.err).toContain(`omc-top cancel: ${unnamed}`);
    // No record names anyone: null, not a guess.
    const json = await noRecord.done;
    expect(json.code).toBe(4);
    expect(JSON.parse(json.out)).toEqual({ ok: false, error: 'nothing-to-cancel', message: unnamed, ended_by: null });
    expect(fs.existsSync(signalFile(s))).toBe(false);
  });

  it('run a moment after a monitor cancelled the loop: that cancel is named, exit 4; with no record, the plain words', async () => {
    const cleanups: Array<() => unknown> = [];
    onTestFinished(async () => {
      for (const c of cleanups.reverse()) await c();
    });
    const s = cancelScene(false, cleanups);
    const { requestedMs } = await monitorCancels(s, cleanups);
    let r = await runCancel(s, ['--json'], false).done;
    expect(r.code).toBe(4);
    expect(JSON.parse(r.out)).toMatchObject({
      ok: false,
      error: 'nothing-active',
      message: `ralph in ${S} already ended: omc-top (pid ${process.pid}) cancelled it at ${hms(requestedMs)} UTC, before this command ran; nothing to cancel, nothing was written`,
      ended_by: { process: 'omc-top', pid: process.pid, at: new Date(requestedMs).toISOString(), modes: ['ralph'] },
    });
    r = await runCancel(s, ['--mode', 'ralph'], false).done;
    expect(r.code).toBe(4);
    expect(r.err).toContain(`ralph in ${S} already ended: omc-top (pid ${process.pid}) cancelled it at`);

    // A loop nobody omc-top cancelled: the plan's own words, nothing claimed.
    const t = cancelScene(false, cleanups);
    fs.rmSync(ralphStateFile(t.root, S));
    r = await runCancel(t, [], false).done;
    expect(r.code).toBe(4);
    expect(r.err).toBe(`omc-top cancel: no active mode in ${S}: nothing to cancel\n`);
    r = await runCancel(t, ['--json'], false).done;
    expect(JSON.parse(r.out)).toEqual({
      ok: false,
      error: 'nothing-active',
      message: `no active mode in ${S}: nothing to cancel`,
      ended_by: null,
    });
  });
});
