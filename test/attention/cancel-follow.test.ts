/**
 * Every cancel settles, whoever made it (store/cancel/follow.ts). A cancel nobody followed to its end got no settled
 * word: `omc-top cancel` without `--wait`, a monitor that quit before its window ended, and the serve page's cancel,
 * which wrote no cancel record at all. Now any live omc-top on the root (a `watch --json`, a monitor, serve) follows
 * such a record and records what it saw, the first to settle only; the real OMC 5.5.0 Stop hook says the loop lets
 * Claude stop, and a ✓ is only ever a stop the recording process saw: a record first seen past its flight settles as
 * what the disk says.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CancelRecordFile,
  cancelRecordsFileName,
  parseCancelRecords,
  type CancelRecord,
} from '../../src/store/cancel/cancel-records.js';
import { followRecord } from '../../src/store/cancel/follow.js';
import { Actions } from '../../src/commands/serve/actions.js';
import { singleSource } from '../../src/commands/serve/source.js';
import type { SessionView } from '../../src/store/sessions/model.js';
import { isReadAndWatched } from '../../src/store/store.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { waitFor } from '../helpers/fixtures.js';
import { TerminalHarness } from '../helpers/pty.js';
import { S, cancelScene, claudeNow, realHook, runBundle, sceneStore, type Scene } from '../helpers/cancel-surfaces.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** S's entry in the cancel record on disk (what every process reads). */
function recordOnDisk(s: Scene): CancelRecord | undefined {
  const file = path.join(s.stateDir, cancelRecordsFileName(s.root));
  if (!fs.existsSync(file)) return undefined;
  const p = parseCancelRecords(fs.readFileSync(file, 'utf8'), Date.now());
  return p.ok ? p.records.get(S) : undefined;
}

/** S as a one-shot `--json` (a third process) says it: the row's word and the settled verdict. */
function jsonSays(s: Scene): { text: string; settled: { word: string; by_pid: number } | null } {
  const doc = JSON.parse(runBundle(s, ['--json'])) as {
    sessions: Array<{ id: string; status_text: string; cancel_settled: { word: string; by_pid: number } | null }>;
  };
  const row = doc.sessions.find((x) => x.id === S);
  return { text: (row?.status_text ?? '(none)').replace(/\d+[sm]\b/, 'N'), settled: row?.cancel_settled ?? null };
}

/** `watch --json --rows` on the scene (the bundle): its pid and S's last row. */
async function watchRows(s: Scene) {
  const child = spawn(process.execPath, [BUNDLE, 'watch', '--json', '--snapshot', '--rows', '--root', s.root], {
    env: { ...process.env, ...s.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.endsWith('}'))
      .map((l) => JSON.parse(l) as { type: string; session?: string; row?: Record<string, any> | null });
  await waitFor(() => lines().some((l) => l.type === 'ready') || null, { timeoutMs: 20_000, what: 'watch ready' });
  const row = () =>
    lines()
      .filter((l) => l.type === 'row' && l.session === S)
      .at(-1)?.row ?? null;
  return { pid: child.pid as number, row };
}

describe('a cancel nobody follows settles in any live omc-top on the root', () => {
  it('omc-top cancel without --wait: a running watch --json follows it, sees Claude stop and records stopped', async () => {
    const s = cancelScene(true, cleanups);
    expect(realHook(s)).toMatchObject({ decision: 'block', mode: 'ralph' });
    const watch = await watchRows(s);
    // One process cancels and exits: nothing of it follows the cancel.
    runBundle(s, ['cancel', S]);
    expect(recordOnDisk(s)).toMatchObject({ modes: ['ralph'], settled: null });
    expect(recordOnDisk(s)?.followedBy ?? null).toBeNull();
    expect(realHook(s).decision).toBe('stop');
    // The watch sees it in flight (Claude busy at the cancel)…
    await waitFor(() => (watch.row()?.cancelFlight?.word === 'stopping' ? true : null), {
      what: 'stopping in the watch',
    });
    // …and Claude's turn ends: the watch saw it, and records it for everyone.
    claudeNow(s, 'idle');
    const settled = await waitFor(() => recordOnDisk(s)?.settled ?? null, { what: 'the settlement on disk' });
    expect(settled).toMatchObject({ word: 'stopped', seen: 'idle', byPid: watch.pid });
    await waitFor(() => (watch.row()?.cancelSettled?.word === 'stopped' ? true : null), {
      what: 'stopped in the watch',
    });
    expect(jsonSays(s)).toEqual({
      text: 'stopped',
      settled: expect.objectContaining({ word: 'stopped', by_pid: watch.pid }),
    });
    // The loop stays ended: OMC's own Stop hook lets Claude stop.
    expect(realHook(s).decision).toBe('stop');
  });

  it('a monitor that quit before its cancel settled: a second one (another process) follows it to stopped', async () => {
    const s = cancelScene(true, cleanups);
    const follower = sceneStore(s, cleanups);
    await waitFor(() => isReadAndWatched(follower.status.getSnapshot()) || null, { what: 'the follower live' });
    const first = new TerminalHarness({
      args: ['--root', s.root],
      cols: 120,
      rows: 30,
      env: s.env as Record<string, string>,
    });
    cleanups.push(() => first.dispose());
    await first.waitForText(/enforced\s+cccccccc/, 20_000);
    first.write('c');
    await first.waitForText('y: cancel the loop');
    first.write('y');
    await first.waitForText(/stopping \d+s\s+cccccccc/);
    const made = await waitFor(() => recordOnDisk(s) ?? null, { what: "the first monitor's record" });
    // The follower here has the record (it leaves the settlement to the monitor that made it while that one runs).
    await waitFor(() => follower.cancelRecords.getSnapshot().records.get(S) ?? null, { what: 'the record read here' });
    first.kill('SIGKILL');
    await first.waitForExit();
    claudeNow(s, 'idle');
    const settled = await waitFor(() => recordOnDisk(s)?.settled ?? null, { what: 'the settlement on disk' });
    expect(settled).toMatchObject({ word: 'stopped', seen: 'idle', byPid: process.pid });
    expect(jsonSays(s).text).toBe('stopped');
    expect(realHook(s).decision).toBe('stop');
    // The monitor that made it was named as its follower: while it ran, this one left the settlement to it.
    expect(made.followedBy?.pid).toBe(first.pty.pid);
  });

  it("the serve page's cancel writes the TUI's record, and the page's process settles it", async () => {
    const s = cancelScene(true, cleanups);
    const st = sceneStore(s, cleanups);
    await waitFor(() => st.sessions.getSnapshot().sessions.find((x) => x.id === S) ?? null, { what: 'S read' });
    await waitFor(() => st.claude.getSnapshot().bySession.get(S)?.process?.status === 'busy' || null, {
      what: "S's Claude seen busy",
    });
    const source = singleSource(st, 'proj', s.env);
    cleanups.push(() => source.close());
    const actions = new Actions(source, false);
    const plan = actions.plan({ root: source.roots()[0]!.id, session: S });
    expect(plan.status).toBe(200);
    const done = await actions.confirm({ plan: plan.body.plan });
    expect(done.body).toMatchObject({ ok: true });
    expect(realHook(s).decision).toBe('stop');
    // The record every other omc-top reads: what the TUI's cancel and `omc-top cancel` write.
    expect(recordOnDisk(s)).toMatchObject({
      modes: ['ralph'],
      settled: null,
      followedBy: { pid: process.pid },
    });
    expect(jsonSays(s)).toEqual({ text: 'stopping N', settled: null });
    claudeNow(s, 'idle');
    const settled = await waitFor(() => recordOnDisk(s)?.settled ?? null, { what: 'the settlement on disk' });
    expect(settled).toMatchObject({ word: 'stopped', seen: 'idle', byPid: process.pid });
    expect(jsonSays(s).text).toBe('stopped');
  });

  it('a record first seen past its flight settles as what the disk says: ended, no ✓ for a stop nobody followed', async () => {
    const s = cancelScene(true, cleanups);
    // A cancel made four minutes ago by a process long gone (nobody followed it); Claude's turn ended since, on disk.
    const at = Date.now() - 240_000;
    fs.rmSync(path.join(s.root, 'state', 'sessions', S, 'ralph-state.json'));
    const other = new CancelRecordFile(s.stateDir, s.root);
    await other.add({ key: S, modes: ['ralph'], requestedMs: at, expiresMs: at + 30_000, notEnded: [], failed: null });
    claudeNow(s, 'idle');
    sceneStore(s, cleanups);
    const settled = await waitFor(() => recordOnDisk(s)?.settled ?? null, { what: 'the settlement on disk' });
    expect(settled).toMatchObject({ word: 'ended', stoppedMs: null, seen: null, byPid: process.pid });
    expect(settled.atMs).toBeLessThanOrEqual(Date.now());
    expect(jsonSays(s).text).toBe('ended');
  });
});

describe('the follower’s verdict (followRecord)', () => {
  const rec: CancelRecord = {
    key: S,
    modes: ['ralph'],
    requestedMs: 1_000_000,
    expiresMs: 1_030_000,
    notEnded: [],
    failed: null,
  };
  const ended = { modes: [] } as unknown as SessionView;
  const busy = { status: 'busy' as const, pid: 7, sinceMs: 900_000, lastTurnEndMs: null };
  const idle = { status: 'idle' as const, pid: 7, sinceMs: 1_010_000, lastTurnEndMs: null };

  it('a stop seen while following is stopped ✓; the same stop first seen on disk is ended', () => {
    const a = followRecord(rec, ended, busy, undefined, 1_005_000, 9);
    expect(a.settled).toBeNull();
    const b = followRecord(rec, ended, idle, a.followed, 1_011_000, 9);
    expect(b.settled).toEqual({ word: 'stopped', atMs: 1_011_000, stoppedMs: 1_010_000, seen: 'idle', byPid: 9 });
    expect(followRecord(rec, ended, idle, undefined, 1_011_000, 9).settled).toMatchObject({
      word: 'ended',
      stoppedMs: null,
      atMs: 1_011_000,
    });
  });

  it('the window over with Claude idle at the cancel: cancelled when followed, ended when not; a loop active: not taken', () => {
    const still = { status: 'idle' as const, pid: 7, sinceMs: 900_000, lastTurnEndMs: null };
    const a = followRecord(rec, ended, still, undefined, 1_005_000, 9);
    expect(a.settled).toBeNull();
    expect(followRecord(rec, ended, still, a.followed, 1_030_005, 9).settled?.word).toBe('cancelled');
    expect(followRecord(rec, ended, still, undefined, 1_030_005, 9).settled?.word).toBe('ended');
    const active = { modes: [{ mode: 'ralph', active: true }] } as unknown as SessionView;
    expect(followRecord(rec, active, still, a.followed, 1_030_005, 9).settled?.word).toBe('not-taken');
  });
});

describe('the first settlement wins', () => {
  it('a second process settling the same cancel leaves the first one’s word', async () => {
    const dir = fs.mkdtempSync(path.join(process.env.XDG_STATE_HOME ?? '/tmp', 'first-wins-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const root = path.join(dir, 'p', '.omc');
    const at = Date.now() - 60_000;
    const a = new CancelRecordFile(dir, root);
    const b = new CancelRecordFile(dir, root);
    await a.add({ key: S, modes: ['ralph'], requestedMs: at, expiresMs: at + 30_000, notEnded: [], failed: null });
    b.load();
    await a.settle(S, at, { word: 'cancelled', atMs: at + 30_000, stoppedMs: null, seen: null, byPid: 1 });
    await b.settle(S, at, { word: 'ended', atMs: at + 30_001, stoppedMs: null, seen: null, byPid: 2 });
    expect(new CancelRecordFile(dir, root).getSnapshot().records.get(S)?.settled).toMatchObject({
      word: 'cancelled',
      byPid: 1,
    });
    expect(b.getSnapshot().records.get(S)?.settled).toMatchObject({ word: 'cancelled', byPid: 1 });
  });
});
