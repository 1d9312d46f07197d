/**
 * Issue 26 on screen, in the real App over a real store: the plan quota in the header and the Cost
 * pane from OMC's own usage cache and wait-daemon files (written by OMC 5.5.0's real writers:
 * test/fixtures/omc-5.5-cost), "rate-limited, resumes HH:MM" on a loop the daemon holds, an
 * ultragoal row's goals from OMC's own plan files, and a run's cost in History.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { forgetConfiguredPrices } from '../../src/store/claude/price-config.js';
import { OmcStore } from '../../src/store/store.js';
import { writeRegistry, writeTranscript } from '../helpers/claude-files.js';
import { type TempProject, writeLiveRalph, writeOmcJson } from '../helpers/fixtures.js';
import { KEY } from '../helpers/keys.js';
import { assistant, prompt } from '../store/claude/lines.js';
import * as omc56 from '../helpers/omc56.js';

const FIX = path.resolve(__dirname, '../fixtures/omc-5.5-cost');
const SID = 'aaaaaaaa-1111-4222-8333-000000000001';
const GOAL = 'bbbbbbbb-1111-4222-8333-000000000002';
/** Half a minute after OMC's HUD wrote the usage cache (02-success) and after the wait daemon's first poll. */
const CACHE_AT = 1796165336253;
const NOW = CACHE_AT + 30_000;

let child: ChildProcess | null = null;
afterEach(async () => {
  child?.kill('SIGKILL');
  child = null;
  delete process.env.XDG_CONFIG_HOME;
  forgetConfiguredPrices();
});

function startIdleCli(cwd: string): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['-e', 'console.log("ready");setInterval(()=>{},1000)'], {
    cwd,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  child = c;
  return new Promise((resolve) => c.stdout?.once('data', () => resolve(c)));
}

async function setup(p: TempProject, opts: { daemon?: string; before?: (cfg: string) => void } = {}) {
  const home = path.join(p.dir, 'home');
  const cfg = path.join(home, '.claude');
  process.env.XDG_CONFIG_HOME = path.join(p.dir, 'xdg');
  forgetConfiguredPrices();
  const at = new Date(NOW).toISOString();
  writeLiveRalph(p, {
    sessionId: SID,
    iteration: 3,
    max: 10,
    startedAt: NOW - 20 * 60_000,
    checkedAt: at,
    projectPath: p.dir,
    prompt: 'ralph: make the tests pass',
  });
  // The ultragoal mode state as OMC's keyword detector writes it, and a plan written by OMC's CLI.
  writeOmcJson(path.join(p.root, 'state', 'sessions', GOAL, 'ultragoal-state.json'), {
    active: true,
    started_at: at,
    current_phase: 'executing',
    original_prompt: '$ultragoal ship the search feature',
    session_id: GOAL,
    project_path: p.dir,
    reinforcement_count: 2,
    max_reinforcements: 50,
    awaiting_confirmation: false,
    last_checked_at: at,
  });
  fs.cpSync(path.join(FIX, 'ultragoal', '12-review-blockers-G002'), path.join(p.root, 'ultragoal'), {
    recursive: true,
  });
  fs.mkdirSync(path.join(cfg, 'plugins', 'oh-my-claudecode'), { recursive: true });
  fs.copyFileSync(
    path.join(FIX, 'usage-cache', '02-success', '.usage-cache-anthropic.json'),
    path.join(cfg, 'plugins', 'oh-my-claudecode', '.usage-cache-anthropic.json'),
  );
  const cli = await startIdleCli(p.dir);
  writeRegistry(cfg, cli.pid as number, SID, { status: 'idle', cwd: p.dir, tmux: 'main:@0.%0' });
  writeTranscript(cfg, p.dir, SID, [
    prompt(SID, new Date(NOW - 10 * 60_000).toISOString(), 'ralph: make the tests pass'),
    ...assistant(SID, new Date(NOW - 9 * 60_000).toISOString(), 'm1', 1, [{ type: 'text', text: 'working' }]),
    ...assistant(SID, new Date(NOW - 8 * 60_000).toISOString(), 'm2', 2, [{ type: 'text', text: 'more' }]),
  ]);
  if (opts.daemon) {
    const dir = path.join(home, '.local', 'state', 'omc');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(
      path.join(FIX, 'rate-limit-daemon', opts.daemon, 'rate-limit-daemon.json'),
      path.join(dir, 'rate-limit-daemon.json'),
    );
    // Alive by its pid: this test's own process stands for it.
    fs.writeFileSync(path.join(dir, 'rate-limit-daemon.pid'), String(process.pid));
  }
  opts.before?.(cfg);
  const store = new OmcStore({
    root: p.root,
    watch: 'none',
    projectDir: p.dir,
    clock: () => NOW,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg, HOME: home } },
  });
  store.start();
  return store;
}

describe('cost on screen', () => {
  it("the header shows the plan quota from OMC's usage cache; $ opens the Cost pane with the quota, the loops and the rollups", async ({
    emptyProject,
    mount,
  }) => {
    const store = await setup(emptyProject);
    const app = mount(store, { columns: 160, rows: 50 });
    await app.ready;
    const head = (await app.waitForText('CLAUDE')).split('\n')[0] as string;
    expect(head).toContain('5h 38% ↻1h59 · wk 61% ↻2d23h');
    await app.press('$');
    const t = await app.waitForText('▌Plan quota (OMC)');
    // 101×4 + 11×20 + 1000×0.2 + 5×5 + 102×4 + 12×20 + 2000×0.2 + 5×5 = 1,922 µ$: the pinned CLI's price.
    expect(t).toContain('Spent in this project: $0.0019 est.');
    expect(t).toContain('.usage-cache-anthropic.json · written 30s ago');
    expect(t).toContain('wait daemon: not set up');
    expect(t).toMatch(/ralph 3\/10\s+aaaaaaaa\s+idle\s+enforced/);
    expect(t).toMatch(/▌By mode[^]*ralph\s+\$0\.0019 est\./);
    expect(t).toMatch(/▌By day \(UTC\)[^]*2026-12-01\s+\$0\.0019 est\./);
  });

  it('no Claude transcript of the project at all: the spend is not known, not $0', async ({
    emptyProject: p,
    mount,
  }) => {
    writeLiveRalph(p, { sessionId: SID, iteration: 1, max: 10 });
    const store = new OmcStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      clock: () => NOW,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: path.join(p.dir, 'no-claude-here'), HOME: p.dir } },
    });
    store.start();
    const app = mount(store, { columns: 100, rows: 30 });
    await app.ready;
    await app.press('$');
    const t = await app.waitForText('Spent in this project');
    expect(t).toContain('Spent in this project: — (no Claude transcript of this project found) · today (UTC) —');
    // No "$0" for a spend not seen (the prices' footnote says a model with no price is never shown as $0).
    expect(t.split('\n').filter((l) => l.includes('$0') && !l.includes('never as $0'))).toEqual([]);
    expect(t).not.toContain('nothing spent');
    expect(t).toMatch(/▌By mode[^]*nothing counted: no Claude transcript of this project found/);
  });

  it('/ in the Cost pane says in one line that it has no filter (the letters typed next are keys, seen as such)', async ({
    emptyProject,
    mount,
  }) => {
    const store = await setup(emptyProject);
    const app = mount(store, { columns: 160, rows: 50 });
    await app.ready;
    await app.press('$');
    await app.waitForText('▌Plan quota (OMC)');
    await app.press('/');
    await app.waitForText('the Cost pane has no filter (one page of figures)');
  });

  it('a loop the wait daemon holds: the row says rate-limited until the reset, the detail says the daemon will resume its pane', async ({
    emptyProject,
    mount,
  }) => {
    const store = await setup(emptyProject, { daemon: 'static-limit-screen/01-first-poll-limited' });
    const app = mount(store, { columns: 160, rows: 50 });
    await app.ready;
    await app.press('/', SID.slice(0, 8), KEY.enter);
    const row = await app.waitForText(/▸ .*aaaaaaaa/);
    // nextResetAt 2026-12-01T23:24:50Z.
    expect(row).toContain('[rate-limited ↻23:24]');
    await app.press(KEY.enter);
    const t = (await app.waitForText('rate-limited, resumes 23:24 UTC')).replace(/\s+/g, ' ');
    expect(t).toContain("OMC's wait daemon says the plan is at 100 %");
    expect(t).toContain("the wait daemon saw this pane blocked and will send it '1 Enter' then");
  });

  it("an ultragoal row shows its plan's goals like ralph's stories; the detail lists them", async ({
    emptyProject,
    mount,
  }) => {
    const store = await setup(emptyProject);
    const app = mount(store, { columns: 160, rows: 50 });
    await app.ready;
    await app.press('/', GOAL.slice(0, 8), KEY.enter);
    const row = await app.waitForText(/▸ .*bbbbbbbb/);
    expect(row).toContain('goals 2/4 ⚠1 review-blocked');
    await app.press(KEY.enter);
    const t = await app.waitForText('▌goals (ultragoal/goals.json): 2/4 complete');
    expect(t).toContain('⚠ G002-wire-the-search-endpoint — review blocked (attempt 2)');
    expect(t).toContain('· G004-resolve-final-code-review-blockers — pending');
  });

  it("History: a run's cost is what its window spent (before and after it excluded); its detail says so", async ({
    emptyProject: p,
    mount,
  }) => {
    const cfg = path.join(p.dir, 'cfg');
    process.env.XDG_CONFIG_HOME = path.join(p.dir, 'xdg');
    forgetConfiguredPrices();
    const T0 = Date.parse('2026-11-30T10:00:00.000Z');
    const at = (min: number) => new Date(T0 + min * 60_000).toISOString();
    // A ralph run from 10:00 to 10:30 (OMC 5.6's ledger, restated in test/helpers/omc56.ts).
    omc56.start(p.root, 'ralph', SID, at(0));
    omc56.observeClear(p.root, 'ralph', SID, { active: true, started_at: at(0), current_phase: 'complete' }, at(30));
    writeTranscript(cfg, p.dir, SID, [
      ...assistant(SID, at(-5), 'before', 1, [{ type: 'text', text: 'before the run' }]),
      ...assistant(SID, at(10), 'in1', 2, [{ type: 'text', text: 'in the run' }]),
      ...assistant(SID, at(20), 'in2', 3, [{ type: 'text', text: 'in the run' }]),
      ...assistant(SID, at(45), 'after', 4, [{ type: 'text', text: 'after the run' }]),
    ]);
    const store = new OmcStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      clock: () => T0 + 90 * 60_000,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg } },
    });
    store.start();
    const app = mount(store, { columns: 140, rows: 30 });
    await app.ready;
    await app.press('R');
    const t = await app.waitForText('COST EST');
    // in1 + in2 only: (102+103)×4 + (12+13)×20 + 5000×0.2 + 10×5 = 2,370 µ$; 5,235 tokens.
    expect(t).toMatch(/ralph\s+aaaaaaaa\s+.*completed\s+30m\s+\S+\s+\S+\s+\$0\.0024\s+5\.2k/);
    await app.press(KEY.enter);
    const d = await app.waitForText("spent in the run's window");
    expect(d.replace(/\s+/g, ' ')).toContain(
      "spent in the run's window: $0.0024 est. · 5.2k tokens, subagents included (exact to 1 minute at each end)",
    );
  });
});

describe('the Cost pane at 80 and 60 columns (sweep 3, finding 3)', () => {
  const NOT_ENFORCED = 'dddddddd-1111-4222-8333-000000000004';
  for (const columns of [80, 60])
    it(`${columns} columns: the loops table keeps SPENT EST, the state reads as in Sessions, rollup cells never run together`, async ({
      emptyProject: p,
      mount,
    }) => {
      const store = await setup(p, {
        before: (cfg) => {
          // A ralph of another project's path: OMC's Stop hook lets it stop ("not enforced" in the Sessions pane).
          writeLiveRalph(p, {
            sessionId: NOT_ENFORCED,
            iteration: 1,
            max: 10,
            checkedAt: new Date(NOW).toISOString(),
            projectPath: '/somewhere/else',
          });
          // A model with no price: the rollups' estimate reads "$0.0019 est. + 1 unpriced model", longer than before.
          const line = JSON.parse(
            assistant(SID, new Date(NOW - 7 * 60_000).toISOString(), 'm3', 3, [
              { type: 'text', text: 'x' },
            ])[0] as string,
          );
          line.message.model = 'claude-future-9-9';
          writeTranscript(cfg, p.dir, SID, [
            prompt(SID, new Date(NOW - 10 * 60_000).toISOString(), 'ralph: make the tests pass'),
            ...assistant(SID, new Date(NOW - 9 * 60_000).toISOString(), 'm1', 1, [{ type: 'text', text: 'working' }]),
            ...assistant(SID, new Date(NOW - 8 * 60_000).toISOString(), 'm2', 2, [{ type: 'text', text: 'more' }]),
            JSON.stringify(line),
          ]);
        },
      });
      const app = mount(store, { columns, rows: 60 });
      await app.ready;
      await app.press('$');
      const t = await app.waitForText(/▌By day[^]*tokens/);
      const lines = t.split('\n');
      const header = lines.find((l) => l.includes('LOOP') && l.includes('SESSION')) ?? '';
      expect(header).toContain('STATE');
      expect(header).toContain('SPENT EST');
      const ralph = lines.find((l) => /ralph 3\/10/.test(l) && l.includes('aaaaaaaa')) ?? '';
      expect(ralph).toMatch(/enforced\s.*\$0\.0019/);
      const other = lines.find((l) => l.includes('dddddddd')) ?? '';
      expect(other).toContain('not enforced');
      expect(t).not.toContain('not-enforced');
      // Every By mode / By day row: name, estimate, tokens, each cell apart (the word before "tokens" is the count).
      const rollups = lines.filter((l) => /^\s+(ralph|\(no loop\)|2026-)/.test(l) && l.trimEnd().endsWith('tokens'));
      expect(rollups.length).toBeGreaterThanOrEqual(2);
      for (const r of rollups) expect(r.trim().split(/\s+/).slice(-2)[0]).toMatch(/^[\d.]+[kM]?$/);
      expect(rollups.some((r) => r.includes('unpric'))).toBe(true);
    });
});

describe('the plan quota in a narrow header (sweep 3, finding 14)', () => {
  for (const [columns, quota] of [
    [100, '5h 38% ↻1h59 · wk 61% ↻2d23h'],
    [80, '5h 38% · wk 61%'],
    [60, '5h 38% · wk 61%'],
  ] as const)
    it(`${columns} columns: the header shows the quota (the root path is shortened for it)`, async ({
      emptyProject,
      mount,
    }) => {
      const store = await setup(emptyProject);
      const app = mount(store, { columns, rows: 30 });
      await app.ready;
      const head = (await app.waitForText('CLAUDE')).split('\n')[0] as string;
      expect(head).toContain(quota);
      expect(head).toContain('running');
    });
});
