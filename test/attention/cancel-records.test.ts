/**
 * "cancel did not take" is one fact for every omc-top process. The process that cancels records the cancel in
 * omc-top's state directory (store/cancel/cancel-records.ts); each process says "cancel did not take" from that
 * record and what it sees on disk: the loop the cancel ended is active and enforced again. So the monitor that
 * cancelled, a second monitor already running, one started later, `--json`, `status --fresh` and `watch --json`
 * count the same item, with the same id and the same `since`. The record alone raises nothing (a loop started
 * again after the cancel is not the cancel failing); a pause is not recorded. The file is bounded, survives two
 * writers, and a damaged one keeps what was read before with a problem line.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { inboxProblems } from '../../src/input/env.js';
import { attentionReport } from '../../src/feeds/attention/report.js';
import { ownStateDir } from '../../src/io/state-dir.js';
import {
  CANCEL_RECORD_TTL_MS,
  CancelRecordFile,
  MAX_CANCEL_RECORDS,
  type CancelRecord,
} from '../../src/store/cancel/cancel-records.js';
import { executeCancel, type CancelDone } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';
import { BUNDLE, WatchStream } from '../helpers/attention-surfaces.js';
import { waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';

const S = 'aaaaaaaa-aaaa-4aaa-aaaa-aaaaaaaaaaaa';
const RALPH = `state/sessions/${S}/ralph-state.json`;

/** A ralph loop of session S, started at `startedMs`. */
function ralph(p: TempProject, startedMs: number): Record<string, unknown> {
  const at = new Date(startedMs).toISOString();
  const state = {
    active: true,
    session_id: S,
    iteration: 3,
    max_iterations: 10,
    started_at: at,
    last_checked_at: new Date().toISOString(),
    prompt: 'ralph: do it',
  };
  writeOmcJson(path.join(p.root, RALPH), state);
  return state;
}

interface World {
  p: TempProject;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  store(): OmcStore;
}

function world(
  p: TempProject,
  tempDir: (prefix?: string) => string,
  newStore: (o: OmcStoreOptions) => OmcStore,
): World {
  const scratch = tempDir('omc-top-cancel-records-');
  const env = { CLAUDE_CONFIG_DIR: path.join(scratch, 'no-claude'), XDG_STATE_HOME: path.join(scratch, 'xdg') };
  const stateDir = ownStateDir(env);
  // The state directory exists (omc-top made it for an earlier acknowledgement, say): a monitor watches it at once.
  fs.mkdirSync(stateDir, { recursive: true });
  const store = () => newStore({ root: p.root, projectDir: p.dir, stateDir, claude: { env } });
  return { p, env, stateDir, store };
}

/** A monitor as the full-screen app runs it: a started store and its attention model. */
async function monitor(w: World): Promise<{ store: OmcStore; mon: AttentionMonitor }> {
  const store = w.store();
  store.start({ progressive: true });
  const mon = new AttentionMonitor(store);
  onTestFinished(() => mon.dispose());
  await waitFor(() => mon.ready || null, { timeoutMs: 20_000, what: 'the first settled picture' });
  return { store, mon };
}

/** Cancels session S's ralph as omc-top does, dated `atMs` (its 30 s window already over when that is past). */
async function cancelAt(p: TempProject, atMs: number, pauseOnly = false): Promise<CancelDone> {
  const plan = planCancel(p.root, { sessionId: S, mode: 'ralph', pauseOnly }, atMs);
  if (!plan.ok) throw new Error(plan.message);
  const out = await executeCancel(p.root, plan.plan, { now: () => atMs });
  if (out.kind !== 'done') throw new Error(out.kind);
  return out;
}

const run = (w: World, args: string[]) =>
  execFileSync(process.execPath, [BUNDLE, ...args, '--root', w.p.root], {
    cwd: w.p.dir,
    env: { ...process.env, ...w.env },
    encoding: 'utf8',
  });

const openOf = (mon: AttentionMonitor) =>
  mon.view.getSnapshot().open.map((n) => ({ id: n.id, reason: n.reason, since: n.since }));

describe('cancel did not take, on every surface', () => {
  it('the monitor that cancelled, a second and a third monitor, --json, status --fresh and watch --json agree', async ({
    emptyProject: p,
    tempDir,
    newStore,
  }) => {
    const w = world(p, tempDir, newStore);
    const cancelMs = Date.now() - 60_000;
    const original = ralph(p, cancelMs - 60_000);
    const a = await monitor(w);
    const b = await monitor(w); // a second monitor, already running
    expect(openOf(a.mon)).toEqual([]);

    const done = await cancelAt(p, cancelMs);
    expect(fs.existsSync(path.join(p.root, RALPH))).toBe(false);
    // A Stop event already under way re-arms the loop it read before the cancel.
    writeOmcJson(path.join(p.root, RALPH), { ...original, iteration: 4 });
    a.store.cancels.track(done);

    const want = [{ id: `cancel-not-taken:${S}@${cancelMs}`, reason: 'cancel did not take', since: cancelMs }];
    await waitFor(() => openOf(a.mon).length === 1 || null, { timeoutMs: 20_000, what: 'the first monitor: 1' });
    expect(openOf(a.mon)).toEqual(want);
    await waitFor(() => openOf(b.mon).length === 1 || null, { timeoutMs: 20_000, what: 'the second monitor: 1' });
    expect(openOf(b.mon)).toEqual(want);
    const c = await monitor(w); // started after the cancel
    expect(openOf(c.mon)).toEqual(want);

    // One-shot reads, in process and through the bundle.
    const once = w.store();
    once.start();
    expect(attentionReport(once, w.env)).toMatchObject({
      needs_you: 1,
      items: [{ id: want[0]!.id, since: new Date(cancelMs).toISOString(), kind: 'cancel-not-taken' }],
      cancel_records_problem: null,
    });
    const json = JSON.parse(run(w, ['--json'])) as { attention: { needs_you: number; items: { id: string }[] } };
    expect(json.attention.needs_you).toBe(1);
    expect(json.attention.items.map((i) => i.id)).toEqual([want[0]!.id]);
    expect(run(w, ['status', '--tmux', '--fresh'])).toMatch(/needs you: 1/);
    const watch = new WatchStream(p.root, w.env);
    onTestFinished(() => watch.stop());
    await waitFor(() => watch.count() === 1 || null, { timeoutMs: 20_000, what: `watch --json 1 (${watch.err})` });

    // The loop ends (cancelled again, say): every process drops the item.
    fs.rmSync(path.join(p.root, RALPH));
    for (const m of [a, b, c])
      await waitFor(() => openOf(m.mon).length === 0 || null, { timeoutMs: 20_000, what: 'the item to go' });
  });

  it('the record alone raises nothing: a cancel that took, then a loop started anew, and a pause', async ({
    emptyProject: p,
    tempDir,
    newStore,
  }) => {
    const w = world(p, tempDir, newStore);
    const cancelMs = Date.now() - 60_000;
    ralph(p, cancelMs - 60_000);
    const a = await monitor(w);
    a.store.cancels.track(await cancelAt(p, cancelMs));
    await waitFor(() => a.store.cancelRecords.getSnapshot().records.size === 1 || null, { what: 'the record' });
    // The user runs ralph again after the cancel: a new loop, not the cancel failing.
    ralph(p, cancelMs + 5_000);
    const b = await monitor(w);
    expect(b.store.cancelRecords.getSnapshot().records.get(S)?.requestedMs).toBe(cancelMs);
    expect(openOf(b.mon)).toEqual([]);
    expect(attentionReport(b.store, w.env).needs_you).toBe(0);
    expect(openOf(a.mon)).toEqual([]);

    // A pause ends nothing and is not recorded: the record still names the cancel.
    const pause = await cancelAt(p, Date.now(), true);
    a.store.cancels.track(pause);
    const file = new CancelRecordFile(w.stateDir, p.root);
    expect(file.getSnapshot().records.get(S)?.requestedMs).toBe(cancelMs);
  });
  it('a damaged record is said in the inbox and in --json; the monitor keeps counting what it read before', async ({
    emptyProject: p,
    tempDir,
    newStore,
  }) => {
    const w = world(p, tempDir, newStore);
    const cancelMs = Date.now() - 60_000;
    const original = ralph(p, cancelMs - 60_000);
    const a = await monitor(w);
    const done = await cancelAt(p, cancelMs);
    writeOmcJson(path.join(p.root, RALPH), { ...original, iteration: 4 });
    a.store.cancels.track(done);
    await waitFor(() => fs.readdirSync(w.stateDir).some((n) => n.startsWith('cancels-')) || null, {
      what: 'the record on disk',
    });
    const b = await monitor(w);
    expect(openOf(b.mon)).toHaveLength(1);
    fs.writeFileSync(path.join(w.stateDir, b.store.cancelRecords.file), '{"version":1,"cancels":');
    await waitFor(() => b.store.cancelRecords.getSnapshot().problem || null, { what: 'the problem line' });
    expect(inboxProblems(b.store, null).map((q) => q.message)).toEqual([
      expect.stringMatching(/record of its cancels .* is not JSON .*the cancels read before still count/),
    ]);
    expect(attentionReport(b.store, w.env).cancel_records_problem).toMatch(/is not JSON/);
    expect(openOf(b.mon)).toHaveLength(1);
  });
});

describe("the record of omc-top's cancels", () => {
  const rec = (key: string, requestedMs: number): CancelRecord => ({
    key,
    modes: ['ralph'],
    requestedMs,
    expiresMs: requestedMs + 30_000,
    notEnded: [],
  });

  it('two writers merge (neither loses the other), and a reader sees both', async ({ tempDir }) => {
    const dir = tempDir('omc-top-records-');
    const root = path.join(dir, 'proj', '.omc');
    const now = Date.now();
    const a = new CancelRecordFile(path.join(dir, 'state'), root);
    const b = new CancelRecordFile(path.join(dir, 'state'), root);
    await Promise.all([a.add(rec('s-a', now - 2)), b.add(rec('s-b', now - 1))]);
    const c = new CancelRecordFile(path.join(dir, 'state'), root);
    expect([...c.getSnapshot().records.keys()].sort()).toEqual(['s-a', 's-b']);
    a.load();
    expect([...a.getSnapshot().records.keys()].sort()).toEqual(['s-a', 's-b']);
    // Another root's file is another file.
    expect(new CancelRecordFile(path.join(dir, 'state'), `${root}2`).getSnapshot().records.size).toBe(0);
  });

  it('bounded: entries expire after a day, only the newest are kept', async ({ tempDir }) => {
    const dir = tempDir('omc-top-records-');
    const root = path.join(dir, '.omc');
    const now = Date.now();
    const f = new CancelRecordFile(dir, root);
    await f.add(rec('old', now - CANCEL_RECORD_TTL_MS - 1));
    expect(f.getSnapshot().records.has('old')).toBe(false);
    for (let i = 0; i < MAX_CANCEL_RECORDS + 5; i++) await f.add(rec(`s-${i}`, now - 10_000 + i));
    const read = new CancelRecordFile(dir, root).getSnapshot().records;
    expect(read.size).toBe(MAX_CANCEL_RECORDS);
    expect(read.has('s-0')).toBe(false);
    expect(read.has(`s-${MAX_CANCEL_RECORDS + 4}`)).toBe(true);
  });

  it('a damaged file: a problem line, the records read before still count, nothing throws; the next cancel repairs it', async ({
    tempDir,
  }) => {
    const dir = tempDir('omc-top-records-');
    const root = path.join(dir, '.omc');
    const now = Date.now();
    const f = new CancelRecordFile(dir, root);
    await f.add(rec('s-a', now));
    for (const bad of [
      '{ "version": 1, "cancels": ',
      '[]',
      '{"version":2,"cancels":[]}',
      '{"version":1,"cancels":{}}',
    ]) {
      fs.writeFileSync(path.join(dir, f.file), bad);
      expect(() => f.load()).not.toThrow();
      expect(f.getSnapshot().problem).toMatch(/record of its cancels \(cancels-[0-9a-f]{16}\.json\) .*still count/);
      expect(f.getSnapshot().records.has('s-a')).toBe(true);
    }
    // A bad entry is skipped, not the file.
    fs.writeFileSync(
      path.join(dir, f.file),
      JSON.stringify({
        version: 1,
        cancels: [
          rec('s-a', now),
          { ...rec('s-b', now), modes: ['x\u001b'] },
          { ...rec('s-c', now), requestedMs: 'now' },
          rec('../s-d', now),
          rec(':legacy', now),
        ],
      }),
    );
    f.load();
    expect(f.getSnapshot().problem).toBeNull();
    expect([...f.getSnapshot().records.keys()].sort()).toEqual([':legacy', 's-a']);
    fs.writeFileSync(path.join(dir, f.file), 'garbage');
    await f.add(rec('s-c', now));
    const again = new CancelRecordFile(dir, root).getSnapshot();
    expect(again.problem).toBeNull();
    expect([...again.records.keys()].sort()).toEqual([':legacy', 's-a', 's-c']);
  });
});
