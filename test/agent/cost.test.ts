/**
 * What it costs, against the real Claude Code CLI (2.1.332) and the real OMC 5.5.0 plugin, offline
 * (issue 26): a session that spawns subagents is counted once per API response over its own file
 * and every subagent file, and that equals the CLI's own final figures (its cost-state line);
 * /goal, a /loop job and a background job are read from what the CLI really wrote.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRegistry } from '../../src/store/claude/registry.js';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { OMC_PLUGIN, REPO, skipReason, startRun, waitFor, waitForPane, type Run } from './harness.js';
import { KEY } from '../helpers/mount-app.js';
import { mountOnRun, showSession } from './ui.js';

const reason = skipReason();
if (reason) console.warn(`[real Claude Code suite skipped] ${reason}`);

const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
const runs: Run[] = [];
afterEach(async () => {
  for (const r of runs.splice(0)) await r.close();
});
const begin = async (name: string) => {
  const r = await startRun(name);
  runs.push(r);
  return r;
};

type Json = Record<string, any>;
function omcTopJson(run: Run): Json {
  const out = execFileSync(process.execPath, [BUNDLE, '--json', '--root', path.join(run.project, '.omc')], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: run.configDir, HOME: run.home, CI: '', XDG_CONFIG_HOME: run.dir },
    // In the project, as a user runs it: with --root, the project is the git top level of the cwd.
    cwd: run.project,
    encoding: 'utf8',
  });
  return JSON.parse(out) as Json;
}
/** The next run Claude Code announced in its CronCreate tool result (the session's transcript). */
function cronAnnouncement(run: Run, sid: string): number {
  const file = path.join(run.configDir, transcriptRel(run.project, sid));
  const line = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json)
    .find((l) => l.type === 'user' && typeof l.toolUseResult?.nextFireAt === 'number');
  return line?.toolUseResult.nextFireAt as number;
}

const sessionRow = (doc: Json, sid: string): Json => {
  const row = (doc.sessions as Json[]).find((s) => s.id === sid);
  if (!row) throw new Error(`omc-top --json has no row for session ${sid}`);
  return row;
};

/** Sums a transcript file the plain way: every assistant line's usage, once per message.id. */
function sumFile(file: string) {
  const seen = new Set<string>();
  const t = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
  const byModel: Record<string, typeof t> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line) as Json;
    if (o.type !== 'assistant' || !o.message?.usage || seen.has(o.message.id)) continue;
    seen.add(o.message.id);
    const u = o.message.usage as Json;
    const m = (byModel[o.message.model] ??= { input: 0, output: 0, cache_read: 0, cache_write: 0 });
    for (const x of [t, m]) {
      x.input += u.input_tokens ?? 0;
      x.output += u.output_tokens ?? 0;
      x.cache_read += u.cache_read_input_tokens ?? 0;
      x.cache_write += u.cache_creation_input_tokens ?? 0;
    }
  }
  return { t, byModel };
}

const PRINT = [
  '--plugin-dir',
  OMC_PLUGIN,
  '--permission-mode',
  'acceptEdits',
  '--allowedTools',
  'Bash',
  '--output-format',
  'json',
];

describe.skipIf(reason !== null)('real Claude Code CLI: what a session costs, offline', () => {
  it("subagents: the session total is the parent's file plus each subagent's, once per response, and equals the CLI's cost-state", async () => {
    const run = await begin('subagents');
    const r = await run.claudePrint([
      '-p',
      'ralph: delegate [[agent:general-purpose]] [[agent:Explore/haiku]] [[sub:{bash:echo from-sub} {text:sub finished}]] [[text:main finished]]',
      ...PRINT,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Json;
    const sid = out.session_id as string;
    const parent = path.join(run.configDir, transcriptRel(run.project, sid));
    const subDir = parent.replace(/\.jsonl$/, '/subagents');
    const subFiles = fs.readdirSync(subDir).filter((f) => f.endsWith('.jsonl'));
    expect(subFiles).toHaveLength(2);
    // The parent never repeats a subagent's usage: the plain sum over the three files, once per message.id.
    const files = [parent, ...subFiles.map((f) => path.join(subDir, f))].map(sumFile);
    const expected = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
    for (const f of files) for (const k of Object.keys(expected) as (keyof typeof expected)[]) expected[k] += f.t[k];

    const doc = omcTopJson(run);
    const row = sessionRow(doc, sid);
    expect(row.tokens).toEqual(expected);
    // The CLI's own final figures: its cost-state line (per model, subagents included) and the result JSON.
    const costState = fs
      .readFileSync(parent, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"type":"cost-state"'))
      .map((l) => JSON.parse(l) as Json)
      .at(-1) as Json;
    const cli = costState.modelUsage as Record<string, Json>;
    expect(Object.keys(cli).sort()).toEqual(['claude-haiku-5-5', 'claude-opus-5-5']);
    const mine = Object.fromEntries((row.agent.spend.by_model as Json[]).map((m) => [m.model, m]));
    for (const [model, u] of Object.entries(cli)) {
      expect(mine[model]).toMatchObject({
        input: u.inputTokens,
        output: u.outputTokens,
        cache_read: u.cacheReadInputTokens,
        cache_write: u.cacheCreationInputTokens,
        price: 'built-in',
      });
      expect(mine[model].usd_est).toBeCloseTo(u.costUSD as number, 9);
    }
    expect(row.agent.spend.usd_est).toBeCloseTo(costState.totalCostUSD as number, 9);
    expect(row.agent.spend.usd_est).toBeCloseTo(out.total_cost_usd as number, 9);
    expect(row.agent.spend.unpriced_models).toEqual([]);
    // Per type, from the meta files; the iterations add up to the session.
    expect(row.agent.subagents.by_type.map((t: Json) => [t.type, t.count]).sort()).toEqual([
      ['Explore', 1],
      ['general-purpose', 1],
    ]);
    const its = row.agent.analytics.iterations as Json[];
    expect(its.reduce((a, i) => a + i.input, 0)).toBe(expected.input);
    // The project's rollups add up to the same.
    expect(doc.cost.project).toMatchObject({ tokens: Object.values(expected).reduce((a, b) => a + b, 0) });
    expect(doc.cost.by_mode.reduce((a: number, m: Json) => a + m.tokens, 0)).toBe(doc.cost.project.tokens);

    // On screen: the detail's cost per model and the subagents by type.
    const app = await mountOnRun(run);
    try {
      await showSession(app, sid);
      await app.press(KEY.enter);
      await app.press('G');
      const t = await app.waitForText('subagents: 2');
      expect(t).toMatch(/Explore ×1: .* tokens \(claude-haiku-5-5\)/);
      expect(t).toMatch(/claude-haiku-5-5: 2 responses · .* tokens · \$0\.0001 est\. \(built-in price\)/);
      await app.press('$');
      const cost = await app.waitForText('▌By mode');
      expect(cost).toContain(`Spent in this project: $${(costState.totalCostUSD as number).toFixed(4)} est.`);
    } finally {
      await app.unmount();
    }
  }, 240_000);

  it('/goal and a /loop cron job in a ralph session: the goal, the job and its next run, two competing Stop hooks', async () => {
    const run = await begin('goal');
    const sock = path.join(run.dir, 'tmux.sock');
    const tmux = (...args: string[]) => spawnSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
    const start = run.spawnInNs('tmux', [
      ...['-S', sock, '-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', '160', '-y', '45', '-c', run.project],
      `claude --plugin-dir ${OMC_PLUGIN} --permission-mode acceptEdits --allowedTools Bash`,
    ]);
    await new Promise((r) => start.on('close', r));
    const screen = () => tmux('capture-pane', '-p', '-t', 'main').stdout;
    const type = async (text: string) => {
      await waitForPane('the prompt box', screen, 'accept edits on', 90_000, run);
      tmux('send-keys', '-t', 'main', '-l', text);
      await waitFor(
        'the typed text on screen',
        () => screen().replace(/\s+/g, ' ').includes(text.slice(0, 40)),
        30_000,
      );
      tmux('send-keys', '-t', 'main', 'Enter');
    };
    try {
      const cron = '{"cron":"*/1 * * * *","prompt":"tick-from-cron","recurring":true}';
      await type(`ralph: keep going [[tool:CronCreate ${cron}]] [[text:loop armed]]`);
      await waitFor('the CronCreate call', () => run.mockCalls().some((c) => c.tool === 'CronCreate'), 90_000);
      const entry = await waitFor(
        'idle after the turn',
        () => readRegistry(run.configDir).entries.find((e) => e.status === 'idle' && run.mockCalls().length >= 3),
        120_000,
      );
      await type('/goal the file goal.txt exists [[goalno]]');
      await waitFor('a goal check', () => run.mockCalls().some((c) => c.side === true), 90_000);
      await waitFor(
        'the goal paused by the block cap',
        () => {
          const doc = omcTopJson(run);
          return sessionRow(doc, entry.sessionId).agent.native_loops.goal?.paused === true;
        },
        180_000,
      );
      const asked = Date.now();
      const doc = omcTopJson(run);
      const row = sessionRow(doc, entry.sessionId);
      expect(row.agent.native_loops.goal).toMatchObject({
        condition: 'the file goal.txt exists [[goalno]]',
        state: 'active',
        paused: true,
        reason: 'mock says the goal is not met yet',
      });
      const job = (row.agent.native_loops.jobs as Json[]).find((j) => j.cron === '*/1 * * * *');
      expect(job).toMatchObject({ kind: 'cron', prompt: 'tick-from-cron', recurring: true, deleted: false });
      // The next run is the one the CLI announced in CronCreate's result while that is still ahead: Claude Code
      // puts a recurring job up to half its period after the cron time (a fraction taken from the job id), so
      // an every-minute job runs within 90 s, not 60.
      const next = Date.parse(job?.next_run_at as string);
      const announced = cronAnnouncement(run, entry.sessionId);
      if (announced > asked) expect(Math.abs(next - announced)).toBeLessThan(1);
      else expect(next).toBeGreaterThan(asked);
      expect(next - asked).toBeLessThanOrEqual(90_000);
      expect(row.agent.competing_stop_hooks).toMatch(/^ralph \(OMC\) and \/goal "the file goal\.txt exists/);
      const kinds = (doc.cost.loops as Json[])
        .filter((l) => l.session === entry.sessionId)
        .map((l) => l.kind)
        .sort();
      expect(kinds).toEqual(['goal', 'loop', 'omc']);

      // On screen: the row's badge, and the loops side by side in the Cost pane.
      const app = await mountOnRun(run);
      try {
        expect(await showSession(app, entry.sessionId)).toContain('[2 Stop hooks]');
        await app.press('$');
        const t = await app.waitForText('/goal');
        expect(t).toContain('two Stop hooks compete here');
        expect(t).toMatch(/\/loop\s+\S+\s+\S+\s+scheduled/);
      } finally {
        await app.unmount();
      }
    } finally {
      tmux('kill-server');
    }
  }, 400_000);

  it("a background job (claude --bg): its state file beside the project's loops, with its process; stopped, it ends", async () => {
    const run = await begin('bg');
    // A project that uses OMC (the job itself runs without it).
    fs.mkdirSync(path.join(run.project, '.omc', 'state'), { recursive: true });
    // The CLI's daemon keeps its sockets under /tmp/cc-daemon-<uid>/, outside the run's TMPDIR: remove what it adds.
    const daemonDir = `/tmp/cc-daemon-${process.getuid?.() ?? 0}`;
    const before = new Set(fs.existsSync(daemonDir) ? fs.readdirSync(daemonDir) : []);
    try {
      const r = await run.claudePrint([
        '--bg',
        'bg job [[bash:echo in-bg]] [[text:bg finished]]',
        '--permission-mode',
        'acceptEdits',
        '--allowedTools',
        'Bash',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const short = /backgrounded · ([0-9a-f]+)/.exec(r.stdout + r.stderr)?.[1] as string;
      expect(short).toBeTruthy();
      const stateFile = path.join(run.configDir, 'jobs', short, 'state.json');
      await waitFor('the job state file', () => fs.existsSync(stateFile), 90_000);
      const entry = await waitFor(
        'the job registry entry',
        () => readRegistry(run.configDir).entries.find((e) => e.kind === 'bg'),
        90_000,
      );
      await waitFor('the job to answer', () => run.mockCalls().some((c) => c.text === 'bg finished (call 2).'), 90_000);
      let loop = await waitFor('the job among the loops', () =>
        (omcTopJson(run).cost.loops as Json[]).find((l) => l.kind === 'bg'),
      );
      const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Json;
      expect(loop).toMatchObject({
        label: `bg job ${short}`,
        session: entry.sessionId,
        ended: false,
        detail: state.intent,
      });
      expect(loop.state.startsWith(state.state as string)).toBe(true);
      expect(['idle', 'busy']).toContain(loop.process);
      const stop = run.spawnInNs('claude', ['stop', short]);
      await new Promise((res) => stop.on('close', res));
      await waitFor(
        'stopped',
        () => (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Json).state === 'stopped',
        60_000,
      );
      loop = (omcTopJson(run).cost.loops as Json[]).find((l) => l.kind === 'bg') as Json;
      expect(loop).toMatchObject({ state: 'stopped', ended: true });
    } finally {
      if (fs.existsSync(daemonDir))
        for (const d of fs.readdirSync(daemonDir))
          if (!before.has(d)) fs.rmSync(path.join(daemonDir, d), { recursive: true, force: true });
    }
  }, 300_000);
});
