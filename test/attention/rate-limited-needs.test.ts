/**
 * An idle loop held by the plan's rate limit, on every surface of "needs you" (store/cost/plan-hold.ts):
 * - OMC's wait daemon is alive and its last poll listed the loop's tmux pane: it will send that pane "1 Enter" when
 *   the limit clears (issue 24: a loop idle "while OMC will not re-feed it" needs you; this one OMC re-feeds), so it
 *   needs nobody: not counted by the model the header, the title, `watch --json`, serve and the fleet read, nor by
 *   `--json` or `status --tmux`; its row keeps its `[rate-limited ↻HH:MM]` badge.
 * - Nothing will resume it (no daemon alive): a person must type after the reset, so it counts, one item, and its
 *   words (the inbox, the push, the bell) name the limit and its reset in its zone, as `--json` and the Cost pane
 *   do: `idle loop: rate-limited until 13:11 UTC` (the push once dropped the zone: `waiting_on` lacked it).
 * Before, both counted as a plain `idle loop` everywhere. OMC's own files: the wait daemon's state as OMC 5.5.0's
 * daemon wrote it (test/fixtures/omc-5.5-cost), its times moved to now.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { singleSource } from '../../src/commands/serve/source.js';
import { attentionInput } from '../../src/feeds/attention/monitor.js';
import { attentionOf } from '../../src/feeds/attention/view.js';
import { describe as describeNotice, pushMessageOf, raisedBy } from '../../src/feeds/notify/notifier.js';
import { messageText } from '../../src/feeds/notify/push/channel.js';
import { loopFactDetail } from '../../src/panes/sessions/loop-facts.js';
import { jsonAttention, statusCount, WatchStream } from '../helpers/attention-surfaces.js';
import { writeRegistry, writeTranscript } from '../helpers/claude-files.js';
import { type TempProject, waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';
import { assistant, prompt } from '../store/claude/lines.js';

const FIX = path.resolve(__dirname, '../fixtures/omc-5.5-cost');
const SID = 'aaaaaaaa-1111-4222-8333-000000000001';
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const iso = (ms: number) => new Date(ms).toISOString();

/** The bundle's `watch --json --snapshot` on the root: its `attention` line at `ready` (count and items). */
async function watchAttention(root: string, env: NodeJS.ProcessEnv) {
  const w = new WatchStream(root, env);
  onTestFinished(() => w.stop());
  await waitFor(() => w.ready(), { timeoutMs: 30_000, what: `watch ready (${w.err})` });
  const line = w
    .lines()
    .filter((l) => l.type === 'attention')
    .at(-1) as { needsYou: number; items: { waiting_on: string }[] };
  await w.stop();
  return line;
}

/** A stand-in for the loop's Claude process: alive, registered idle in tmux pane %0. */
function idleCli(cwd: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['-e', 'console.log("ready");setInterval(()=>{},1000)'], {
    cwd,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  onTestFinished(() => {
    c.kill('SIGKILL');
  });
  return new Promise((resolve) => c.stdout?.once('data', () => resolve(c)));
}

/**
 * A live ralph whose Claude is idle in tmux pane %0 while the plan's 5-hour window is at 100 % until `reset` (OMC's
 * usage cache), and, with `daemon`, OMC's wait daemon alive with that pane listed as blocked.
 */
async function heldLoop(p: TempProject, newStore: (o: OmcStoreOptions) => OmcStore, daemon: boolean) {
  const now = Date.now();
  const reset = now + 40 * 60_000;
  const home = path.join(p.dir, 'home');
  const cfg = path.join(home, '.claude');
  writeLiveRalph(p, {
    sessionId: SID,
    iteration: 7,
    max: 10,
    startedAt: now - 20 * 60_000,
    checkedAt: iso(now),
    projectPath: p.dir,
    prompt: 'ralph: make the tests pass',
  });
  const cache = path.join(cfg, 'plugins', 'oh-my-claudecode', '.usage-cache-anthropic.json');
  fs.mkdirSync(path.dirname(cache), { recursive: true });
  fs.writeFileSync(
    cache,
    JSON.stringify({
      timestamp: now,
      data: {
        fiveHourPercent: 100,
        fiveHourResetsAt: iso(reset),
        weeklyPercent: 83,
        weeklyResetsAt: iso(now + 3 * 86_400_000),
      },
      error: false,
      source: 'anthropic',
      lastSuccessAt: now,
    }),
  );
  if (daemon) {
    // Where `omc wait` keeps its files on Linux with XDG_STATE_HOME set (the environment below).
    const dir = path.join(p.dir, 'xdg-state', 'omc');
    fs.mkdirSync(dir, { recursive: true });
    const state = JSON.parse(
      fs.readFileSync(
        path.join(FIX, 'rate-limit-daemon', 'static-limit-screen', '01-first-poll-limited', 'rate-limit-daemon.json'),
        'utf8',
      ),
    ) as { lastPollAt: string; rateLimitStatus: Record<string, unknown>; blockedPanes: { id: string }[] };
    expect(state.blockedPanes.map((b) => b.id)).toEqual(['%0']);
    state.lastPollAt = iso(now);
    Object.assign(state.rateLimitStatus, { fiveHourResetsAt: iso(reset), nextResetAt: iso(reset) });
    fs.writeFileSync(path.join(dir, 'rate-limit-daemon.json'), JSON.stringify(state));
    // Alive by its pid: this test's own process stands for it.
    fs.writeFileSync(path.join(dir, 'rate-limit-daemon.pid'), String(process.pid));
  }
  const cli = await idleCli(p.dir);
  writeRegistry(cfg, cli.pid as number, SID, { status: 'idle', cwd: p.dir, tmux: 'main:@0.%0' });
  writeTranscript(cfg, p.dir, SID, [
    prompt(SID, iso(now - 10 * 60_000), 'ralph: make the tests pass'),
    ...assistant(SID, iso(now - 9 * 60_000), 'm1', 1, [{ type: 'text', text: 'working' }]),
  ]);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: cfg,
    XDG_STATE_HOME: path.join(p.dir, 'xdg-state'),
    XDG_CONFIG_HOME: path.join(p.dir, 'xdg-config'),
    CLAUDE_PLUGIN_ROOT: '',
    NO_COLOR: '1',
  };
  const store = newStore({ root: p.root, watch: 'none', projectDir: p.dir, claude: { live: false, env } });
  store.start();
  await waitFor(() => (store.claude.getSnapshot().bySession.get(SID)?.process?.status === 'idle' ? true : null), {
    what: 'its Claude idle',
  });
  await waitFor(() => (store.quota.getSnapshot().cache ? true : null), { what: "OMC's usage cache read" });
  return { store, env, reset };
}

describe('an idle loop the plan rate-limits', () => {
  it("OMC's wait daemon will press its pane: it needs nobody, on any surface", async ({
    emptyProject: p,
    newStore,
  }) => {
    const { store, env, reset } = await heldLoop(p, newStore, true);
    await waitFor(() => (store.quota.getSnapshot().daemon?.alive ? true : null), { what: "the wait daemon's state" });
    // The model every live surface reads (header, title, watch --json, serve, fleet): nothing needs you.
    expect(attentionOf(attentionInput(store)).count).toBe(0);
    // serve: no count, no item, and the row carries the badge (the fleet draws the same row).
    const source = singleSource(store, 'proj', env);
    onTestFinished(() => source.close());
    const picture = source.picture(Date.now());
    expect(picture.count).toBe(0);
    const row = picture.roots[0]?.rows.find((r) => r.session === SID);
    expect(row?.modesText).toBe(`ralph 7/10 · [rate-limited ↻${hhmm(reset)}]`);
    expect(picture.roots[0]?.needs).toEqual([]);
    // The session's detail (TUI): the daemon resumes it.
    const session = store.sessions.getSnapshot().sessions.find((x) => x.id === SID)!;
    expect(loopFactDetail(store, session)[0]?.text).toMatch(/^! rate-limited, resumes .*will send it '1 Enter'/);
    // The bundle's --json and status --tmux (from the files), as a script and the tmux line read them.
    expect(jsonAttention(p.root, env).needs_you).toBe(0);
    expect(statusCount(p.root, env, true)).toBe(0);
    // watch --json: the attention line at start.
    expect((await watchAttention(p.root, env)).needsYou).toBe(0);
  });

  it('nothing will resume it: it needs you once, and says `rate-limited until HH:MM UTC` everywhere', async ({
    emptyProject: p,
    newStore,
  }) => {
    const { store, env, reset } = await heldLoop(p, newStore, false);
    const until = `rate-limited until ${hhmm(reset)} UTC`;
    const view = attentionOf(attentionInput(store));
    expect(view.count).toBe(1);
    const need = view.open[0]!;
    expect(need).toMatchObject({ kind: 'idle-loop', reason: 'idle loop', waitingOn: until });
    expect(need.text).toBe(
      `ralph is ${until}: no OMC wait daemon runs to resume it (omc wait --start starts one); type in its pane after the reset`,
    );
    // The push and the bell name the limit and its reset, with its zone: the pushed text is this.
    expect(pushMessageOf(raisedBy(need), 'proj')?.waitingOn).toBe(`idle loop: ${until}`);
    expect(messageText(pushMessageOf(raisedBy(need), 'proj')!)).toMatch(
      /: idle loop: rate-limited until \d\d:\d\d UTC$/,
    );
    expect(describeNotice(raisedBy(need), 'proj')).toContain(`idle loop: ${until}`);
    // serve counts it, its row says so and carries the badge.
    const source = singleSource(store, 'proj', env);
    onTestFinished(() => source.close());
    const root = source.picture(Date.now()).roots[0];
    expect(root?.needs.map((n) => n.waitingOn)).toEqual([until]);
    // The session's detail (TUI) says the same words, not "resumes".
    const session = store.sessions.getSnapshot().sessions.find((x) => x.id === SID)!;
    expect(loopFactDetail(store, session)[0]?.text).toMatch(new RegExp(`^! ${until} \\(in .*no wait daemon runs`));
    // The bundle's --json and status --tmux: the same one item.
    const json = jsonAttention(p.root, env);
    expect(json.needs_you).toBe(1);
    expect(json.items[0]).toMatchObject({ kind: 'idle-loop', waiting_on: until });
    expect(statusCount(p.root, env, true)).toBe(1);
    // watch --json: the same item in its attention line.
    const watched = await watchAttention(p.root, env);
    expect(watched.needsYou).toBe(1);
    expect(watched.items.map((i) => i.waiting_on)).toEqual([until]);
  });
});
