/**
 * A loop the plan's rate limit holds says so on every row surface in one module's words
 * (store/cost/rate-limit-words.ts): the sessions row, the serve page's row, the `watch --json --rows` row (its
 * `rateLimitedUntilMs`) and the fleet's MODES cell drawn from that wire row all read `[rate-limited ↻23:24]`,
 * where serve, the fleet and the wire said only "idle loop". OMC's own files: the HUD's usage cache and the wait
 * daemon's state (test/fixtures/omc-5.5-cost, written by OMC 5.5.0's real writers).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { OmcStore } from '../../src/store/store.js';
import { startRowFeed } from '../../src/feeds/row-feed.js';
import { cleanRow, ROW_SCHEMA } from '../../src/feeds/row.js';
import { singleSource } from '../../src/commands/serve/source.js';
import { loopExtras } from '../../src/panes/sessions/loop-facts.js';
import { modesText } from '../../src/panes/fleet/layout.js';
import type { FleetRow } from '../../src/fleet/model.js';
import { writeRegistry, writeTranscript } from '../helpers/claude-files.js';
import { type TempProject, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { assistant, prompt } from '../store/claude/lines.js';

const FIX = path.resolve(__dirname, '../fixtures/omc-5.5-cost');
const SID = 'aaaaaaaa-1111-4222-8333-000000000001';
/** Half a minute after OMC's HUD wrote the usage cache (02-success) and after the wait daemon's first poll. */
const NOW = 1796165336253 + 30_000;
/** The daemon's nextResetAt in static-limit-screen/01-first-poll-limited. */
const RESET = Date.parse('2026-12-01T23:24:50.215Z');
const BADGE = '[rate-limited ↻23:24]';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function idleCli(cwd: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['-e', 'console.log("ready");setInterval(()=>{},1000)'], {
    cwd,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  cleanups.push(() => c.kill('SIGKILL'));
  return new Promise((resolve) => c.stdout?.once('data', () => resolve(c)));
}

/** A live ralph whose Claude is idle (not in a turn) while OMC's files say the plan is at its limit until 23:24:50. */
async function heldLoop(p: TempProject) {
  const home = path.join(p.dir, 'home');
  const cfg = path.join(home, '.claude');
  writeLiveRalph(p, {
    sessionId: SID,
    iteration: 7,
    max: 10,
    startedAt: NOW - 20 * 60_000,
    checkedAt: new Date(NOW).toISOString(),
    projectPath: p.dir,
    prompt: 'ralph: make the tests pass',
  });
  fs.mkdirSync(path.join(cfg, 'plugins', 'oh-my-claudecode'), { recursive: true });
  fs.copyFileSync(
    path.join(FIX, 'usage-cache', '02-success', '.usage-cache-anthropic.json'),
    path.join(cfg, 'plugins', 'oh-my-claudecode', '.usage-cache-anthropic.json'),
  );
  const daemon = path.join(home, '.local', 'state', 'omc');
  fs.mkdirSync(daemon, { recursive: true });
  fs.copyFileSync(
    path.join(FIX, 'rate-limit-daemon', 'static-limit-screen', '01-first-poll-limited', 'rate-limit-daemon.json'),
    path.join(daemon, 'rate-limit-daemon.json'),
  );
  // Alive by its pid: this test's own process stands for it.
  fs.writeFileSync(path.join(daemon, 'rate-limit-daemon.pid'), String(process.pid));
  const cli = await idleCli(p.dir);
  writeRegistry(cfg, cli.pid as number, SID, { status: 'idle', cwd: p.dir, tmux: 'main:@0.%0' });
  writeTranscript(cfg, p.dir, SID, [
    prompt(SID, new Date(NOW - 10 * 60_000).toISOString(), 'ralph: make the tests pass'),
    ...assistant(SID, new Date(NOW - 9 * 60_000).toISOString(), 'm1', 1, [{ type: 'text', text: 'working' }]),
  ]);
  const env = { CLAUDE_CONFIG_DIR: cfg, HOME: home };
  const store = new OmcStore({
    root: p.root,
    watch: 'none',
    projectDir: p.dir,
    clock: () => NOW,
    claude: { live: false, env },
  });
  cleanups.push(() => store.close());
  store.start();
  const session = await waitFor(() => store.sessions.getSnapshot().sessions.find((s) => s.id === SID) ?? null, {
    what: 'the ralph session read',
  });
  await waitFor(() => (store.claude.getSnapshot().bySession.get(SID)?.process?.status === 'idle' ? true : null), {
    what: 'its Claude idle',
  });
  await waitFor(() => (store.quota.getSnapshot().daemon?.state?.limited ? true : null), {
    what: "the wait daemon's state read",
  });
  return { store, session, env };
}

describe('a rate-limited loop reads the same on every row surface', () => {
  it('the sessions row, serve, watch --json --rows and the fleet cell drawn from it all say rate-limited ↻23:24', async ({
    emptyProject,
  }) => {
    const { store, session, env } = await heldLoop(emptyProject);
    // The sessions row (TUI).
    expect(loopExtras(store, session)).toContain(BADGE);
    // serve's stream.
    const source = singleSource(store, 'proj', env);
    cleanups.push(() => source.close());
    const served = source.picture(NOW).roots[0]?.rows.find((r) => r.session === SID);
    expect(served?.modesText).toBe(`ralph 7/10 · ${BADGE}`);
    expect(served?.rateLimitedUntilMs).toBe(RESET);
    // watch --json --rows, and the fleet's MODES cell drawn from that row as a --host receives it.
    const lines: string[] = [];
    const stop = startRowFeed(
      store,
      'proj',
      (l) => lines.push(l),
      () => NOW,
    );
    cleanups.push(() => stop());
    const wire = JSON.parse(lines.find((l) => l.includes(SID)) ?? 'null') as { row: Record<string, unknown> };
    expect(wire.row.rateLimitedUntilMs).toBe(RESET);
    const received = cleanRow(ROW_SCHEMA.parse(wire.row));
    const cell = modesText({ ...received, key: 'k', host: 'box', rootId: 'r', rootLabel: 'proj' } as FleetRow);
    expect(cell).toContain(`ralph 7/10 · ${BADGE}`);
  });
});
