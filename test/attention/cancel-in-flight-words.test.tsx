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
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { ownStateDir } from '../../src/io/state-dir.js';
import { ROW_SCHEMA, cleanRow, rowStatusText } from '../../src/feeds/row.js';
import { singleSource } from '../../src/commands/serve/source.js';
import { executeCancel } from '../../src/store/cancel/execute.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { CancelRecordFile } from '../../src/store/cancel/cancel-records.js';
import { cancelRecordOf } from '../../src/store/cancel/tracker.js';
import { recordedFlight } from '../../src/store/cancel/in-flight.js';
import type { SessionView } from '../../src/store/sessions/model.js';
import type { ClaudeSessionView } from '../../src/store/claude/model.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { writeRegistry } from '../helpers/claude-files.js';
import { liveRalph, makeProject, ralphStateFile, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { KEY, mountStore, type MountedApp } from '../helpers/mount-app.js';
import { hookDecision, spawnStopHook } from '../helpers/stop-hook.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const S = 'cccccccc-2222-4333-8444-555555555555';

interface Scene {
  dir: string;
  root: string;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  home: string;
}

/** A project with a ralph loop of S; with `attached`, a live process registered as S's Claude, busy for an hour. */
function scene(attached: boolean): Scene {
  const p = makeProject();
  cleanups.push(() => p.cleanup());
  const cfg = path.join(p.dir, 'claude-config');
  const env = { CLAUDE_CONFIG_DIR: cfg, XDG_STATE_HOME: path.join(p.dir, 'xdg-state') };
  const home = path.join(p.dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  writeOmcJson(ralphStateFile(p.root, S), liveRalph({ sessionId: S, projectPath: p.dir, prompt: 'ralph fix tests' }));
  if (attached) {
    const c: ChildProcess = spawn('sleep', ['600'], { stdio: 'ignore' });
    cleanups.push(() => c.kill('SIGKILL'));
    writeRegistry(cfg, c.pid as number, S, { status: 'busy', cwd: p.dir, statusUpdatedAt: Date.now() - 3_600_000 });
  }
  return { dir: p.dir, root: p.root, env, stateDir: ownStateDir(env), home };
}

/** What the real OMC 5.5.0 Stop hook does at S's next Stop. */
const realHook = (s: Scene) =>
  hookDecision(spawnStopHook('5.5.0', { cwd: s.dir, sessionId: S, home: s.home, now: Date.now() }));

function store(s: Scene): OmcStore {
  const st = new OmcStore({
    root: s.root,
    projectDir: s.dir,
    stateDir: s.stateDir,
    claude: { env: s.env },
    omc: makeOmcInstall('5.5.0', 'test'),
  });
  st.start({ progressive: true });
  cleanups.push(() => st.close());
  return st;
}

async function mount(st: OmcStore): Promise<MountedApp> {
  const app = mountStore(st, { columns: 120, rows: 30 });
  cleanups.push(() => app.unmountOnly());
  await app.ready;
  return app;
}

/** A count ("47s", "3m") said as "N": the surfaces are read a moment apart. */
const word = (text: string) => text.replace(/\d+[sm]\b/, 'N');

const run = (s: Scene, args: string[]) =>
  execFileSync(process.execPath, [BUNDLE, ...args, '--root', s.root], {
    env: { ...process.env, ...s.env },
    encoding: 'utf8',
  });

/** S's last row of a `watch --json --rows` stream, once it is ready (every row sent). */
async function watchRow(s: Scene): Promise<{ row: unknown } | undefined> {
  const child = spawn(process.execPath, [BUNDLE, 'watch', '--json', '--snapshot', '--rows', '--root', s.root], {
    env: { ...process.env, ...s.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const lines = () =>
      out
        .split('\n')
        .filter((l) => l.endsWith('}'))
        .map((l) => JSON.parse(l) as { type: string; session?: string; row?: unknown });
    await waitFor(() => lines().some((l) => l.type === 'ready') || null, {
      timeoutMs: 20_000,
      what: `watch --json --rows ready (${err})`,
    });
    return lines()
      .filter((l) => l.type === 'row' && l.session === S)
      .map((l) => ({ row: l.row }))
      .at(-1);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** S's row in a monitor's list: its status cell (the words before the session id). */
function rowStatus(app: MountedApp): string {
  const line = app.lines().find((l) => l.includes(S.slice(0, 8)));
  return (/^[▸ ] (.+?)\s+cccccccc/.exec(line ?? '')?.[1] ?? `(no row: ${line})`).trim();
}

/** Every surface's word for S at this moment. */
async function surfaces(
  s: Scene,
  first: MountedApp,
  second: MountedApp,
  other: OmcStore,
): Promise<Record<string, string>> {
  const json = JSON.parse(run(s, ['--json'])) as {
    sessions: Array<{ id: string; status_text: string; cancel_in_flight: { word: string; text: string } | null }>;
  };
  const js = json.sessions.find((x) => x.id === S);
  // `watch --json --rows`: S's row as sent, read back as the fleet reads a host's rows.
  const wire = await watchRow(s);
  const parsed = ROW_SCHEMA.safeParse(wire?.row);
  const fleet = parsed.success
    ? rowStatusText(cleanRow(parsed.data), Date.now())
    : `(bad row: ${String(parsed.error)})`;
  // The serve page shows each row's statusText.
  const page = singleSource(other, 'proj', s.env)
    .picture(Date.now())
    .roots[0]?.rows.find((r) => r.session === S)?.statusText;
  return {
    monitor: word(rowStatus(first)),
    second: word(rowStatus(second)),
    json: word(js?.status_text ?? '(none)'),
    jsonFlight: word(js?.cancel_in_flight?.text ?? '(none)'),
    fleet: word(fleet),
    page: word(page ?? '(none)'),
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
