/**
 * End to end with the real Claude Code CLI (2.1.332) and the real OMC 5.5.0
 * plugin, offline: each run's CLI and the mock Messages API share a network
 * namespace that has only loopback. omc-top (the bundle's --json, and the
 * store) reads what they really wrote. Skips, saying why, where the CLI or
 * namespaces are unavailable.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRegistry } from '../../src/store/claude/registry.js';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { TranscriptReader } from '../../src/store/claude/transcript-reader.js';
import { planInterrupt, sendInterrupt } from '../../src/store/claude/interrupt.js';
import { planJump } from '../../src/store/claude/jump.js';
import { clockHm } from '../../src/store/claude/life.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { OmcStore } from '../../src/store/store.js';
import { detectOmcInstall } from '../../src/store/omc-install.js';
import { OMC_PLUGIN, REPO, skipReason, startRun, waitFor, waitForPane, type Run } from './harness.js';
import { KEY } from '../helpers/mount-app.js';
import { scaled } from '../helpers/time-scale.js';
import { mountOnRun, showSession, thousands } from './ui.js';

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
function readTranscriptFacts(run: Run, sid: string) {
  const r = new TranscriptReader(run.configDir, transcriptRel(run.project, sid));
  r.refresh();
  return r.state().facts;
}
function omcTopJson(run: Run): Json {
  const out = execFileSync(process.execPath, [BUNDLE, '--json', '--root', path.join(run.project, '.omc')], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: run.configDir, HOME: run.home, CI: '' },
    encoding: 'utf8',
  });
  return JSON.parse(out) as Json;
}
const sessionRow = (doc: Json, sid: string): Json => {
  const row = (doc.sessions as Json[]).find((s) => s.id === sid);
  if (!row) throw new Error(`omc-top --json has no row for session ${sid}`);
  return row;
};
const cliTotals = (stdout: string) => {
  const u = (JSON.parse(stdout) as Json).usage as Json;
  return {
    input: u.input_tokens,
    output: u.output_tokens,
    cache_read: u.cache_read_input_tokens,
    cache_write: u.cache_creation_input_tokens,
  };
};
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

describe.skipIf(reason !== null)('real Claude Code CLI + OMC 5.5.0, offline', () => {
  it(
    'a tool-using turn: token sums equal the CLI totals; peek shows the tools, the file written and the error',
    async () => {
      const run = await begin('tools');
      const target = path.join(run.project, 'made.txt');
      const r = await run.claudePrint([
        '-p',
        `ralph: build it [[write:${target}]] [[bash:echo hi]] [[bash:false]]`,
        ...PRINT,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const sid = (JSON.parse(r.stdout) as Json).session_id as string;
      expect(fs.existsSync(target)).toBe(true);
      const row = sessionRow(omcTopJson(run), sid);
      expect(row).toBeDefined();
      expect(row.tokens).toEqual(cliTotals(r.stdout));
      // The CLI exited cleanly: its registry entry is gone, and its transcript ends with its exit figures.
      expect(row.process).toBeNull();
      const costState = JSON.parse(
        fs
          .readFileSync(path.join(run.configDir, transcriptRel(run.project, sid)), 'utf8')
          .split('\n')
          .filter((l) => l.includes('"type":"cost-state"'))
          .pop() as string,
      ) as Json;
      const exitedAt = costState.startTime + costState.totalDuration;
      expect(row.life).toEqual({ status: 'exited', since: new Date(exitedAt).toISOString() });
      expect(row.agent.analytics.burn_tokens_per_min).toBeNull();
      const peek = row.agent.peek;
      expect(peek.last_tool_calls.map((c: Json) => [c.name, c.arg])).toEqual(
        expect.arrayContaining([
          ['Write', target],
          ['Bash', 'echo hi'],
          ['Bash', 'false'],
        ]),
      );
      expect(peek.files_written_this_turn).toContain(target);
      expect(peek.last_error.text).toBe('Exit code 1');
      expect(peek.last_text).toMatch(/^Done \(call \d+\)\.$/);
      // The CLI's own cost, from the cost-state line it writes at exit (never estimated by omc-top).
      expect(row.agent.cost).toMatchObject({ usd: (JSON.parse(r.stdout) as Json).total_cost_usd });

      // On screen: the exited CLI's cell says when (never "unknown"; "!": its ralph is left active, orphaned),
      // and P shows the CLI's own totals.
      const app = await mountOnRun(run);
      try {
        expect(await showSession(app, sid)).toMatch(new RegExp(` !exited ${clockHm(exitedAt)}$`));
        await app.press('P');
        const t = cliTotals(r.stdout);
        const peek = await app.waitForText(`Peek ${sid}`);
        expect(peek).toContain(
          `in ${thousands(t.input)} · out ${thousands(t.output)} · cache read ${thousands(t.cache_read)} · cache write ${thousands(t.cache_write)}`,
        );
        await app.press('G');
        const end = await app.waitForText('Bash false');
        expect(end).toContain(`Write ${target}`);
        expect(end).toContain('Bash echo hi');
        expect(end).toContain('Exit code 1');
      } finally {
        await app.unmount();
      }
    },
    scaled(180_000),
  );

  it(
    'a ralph loop: keyword detector, the Skill call, a Stop-hook iteration; the timeline and tokens per iteration',
    async () => {
      const run = await begin('ralph');
      const r = await run.claudePrint(['-p', 'ralph: do X', ...PRINT]);
      expect(r.code, r.stderr).toBe(0);
      const sid = (JSON.parse(r.stdout) as Json).session_id as string;
      expect(run.mockCalls().some((c) => c.session === sid && c.tool === 'Skill')).toBe(true);
      const row = sessionRow(omcTopJson(run), sid);
      const ralph = (row.modes as Json[]).find((m) => m.mode === 'ralph');
      expect(ralph).toMatchObject({ active: true, iteration: 2, max_iterations: 100 });
      const peek = row.agent.peek;
      expect(peek.last_tool_calls).toContainEqual(
        expect.objectContaining({ name: 'Skill', arg: 'oh-my-claudecode:ralph' }),
      );
      expect(peek.stop_hooks.map((h: Json) => [h.iteration, h.max])).toEqual([[2, 100]]);
      expect(peek.stop_hooks[0].text).toMatch(/^\[RALPH LOOP - ITERATION 2\/100\]/);
      const its = row.agent.analytics.iterations as Json[];
      // OMC calls the work before its first block iteration 1.
      expect(its.map((i) => i.iteration)).toEqual([1, 2]);
      // Per-iteration tokens add up to the session's, which equal the CLI's own totals.
      expect(its.reduce((a, i) => a + i.input, 0)).toBe(row.tokens.input);
      expect(row.tokens).toEqual(cliTotals(r.stdout));
    },
    scaled(180_000),
  );

  it(
    'a --plugin-dir Claude that has exited: a fresh --json and a monitor started after it judge its loop by the OMC its transcript names, in the same words',
    async () => {
      const run = await begin('exited-plugin-dir');
      const r = await run.claudePrint(['-p', 'ralph: do X', ...PRINT]);
      expect(r.code, r.stderr).toBe(0);
      const sid = (JSON.parse(r.stdout) as Json).session_id as string;
      // Gone, and nothing but its command line named its OMC: no plugin is installed or enabled here.
      expect(readRegistry(run.configDir).entries.some((e) => e.sessionId === sid)).toBe(false);
      const projectOmc = detectOmcInstall({
        env: { CLAUDE_CONFIG_DIR: run.configDir, HOME: run.home },
        projectDir: run.project,
      });
      expect(projectOmc.assumed).toBe(true);
      // Claude Code's own line in the transcript (its Skill tool) names the directory it loaded OMC's skills from.
      const words = `OMC's skills loaded from ${OMC_PLUGIN} (the session's transcript says so; its Claude process is gone)`;
      const doc = omcTopJson(run);
      expect(doc.omc_version).toMatchObject({ assumed: true });
      const row = sessionRow(doc, sid);
      expect(row.omc).toMatchObject({ version: '5.5.0', sourceTag: 'transcript', assumed: false, source: words });
      expect((row.modes as Json[]).find((m) => m.mode === 'ralph')).toMatchObject({ active: true });
      // A monitor started after it says the same: the header names no guess, the detail the same source.
      const app = await mountOnRun(run, undefined, projectOmc);
      try {
        await showSession(app, sid);
        expect(app.lines()[0]).toContain('OMC 5.5.0 (transcript)');
        expect(app.lines()[0]).not.toContain('assumed');
        await app.press(KEY.enter);
        await app.waitForText(`OMC 5.5.0: ${words}`);
      } finally {
        await app.unmount();
      }
      // So does `cancel`: a pause is known to hold under 5.5.0 (not "depends on the OMC version").
      const paused = spawnSync(process.execPath, [BUNDLE, 'cancel', sid, '--signal-only', '--json'], {
        cwd: run.project,
        env: { ...process.env, CLAUDE_CONFIG_DIR: run.configDir, HOME: run.home, CI: '' },
        encoding: 'utf8',
      });
      const said = JSON.parse(paused.stdout) as Json;
      expect(said.omc_version, paused.stdout).toMatchObject({ version: '5.5.0', assumed: false, source: words });
      expect([paused.status, said.ok, said.verdict?.rule]).toEqual([0, true, 'cancel-signal']);
    },
    scaled(180_000),
  );

  it(
    'a SIGKILLed session leaves its registry entry: the process is gone and the loop orphaned',
    async () => {
      const run = await begin('kill');
      const child = run.spawnInNs('claude', ['-p', 'ralph: long job [[bash:timeout 300 tail -f /dev/null]]', ...PRINT]);
      const pid = child.pid as number;
      const reg = path.join(run.configDir, 'sessions', `${pid}.json`);
      await waitFor('the CLI to run the sleep', () => run.mockCalls().some((c) => c.tool === 'Bash'), 120_000);
      const entry = await waitFor('a busy registry entry', () =>
        readRegistry(run.configDir).entries.find((e) => e.pid === pid && e.status === 'busy'),
      );
      const ralphFile = path.join(run.project, '.omc', 'state', 'sessions', entry.sessionId, 'ralph-state.json');
      await waitFor('ralph confirmed by the Skill call', () => {
        try {
          const s = JSON.parse(fs.readFileSync(ralphFile, 'utf8')) as Json;
          return s.active === true && !s.awaiting_confirmation;
        } catch {
          return false;
        }
      });
      let row = sessionRow(omcTopJson(run), entry.sessionId);
      expect(row.process).toMatchObject({ pid, status: 'busy', entrypoint: 'sdk-cli', version: '2.1.332' });
      // No plugin is installed or enabled: only the process's own --plugin-dir names the OMC it runs.
      expect(row.omc).toMatchObject({ version: '5.5.0', sourceTag: '--plugin-dir', rules: '5.5.0', exact: true });
      const projectOmc = detectOmcInstall({
        env: { CLAUDE_CONFIG_DIR: run.configDir, HOME: run.home },
        projectDir: run.project,
        processes: false,
      });
      expect(projectOmc.assumed).toBe(true);
      let app = await mountOnRun(run, undefined, projectOmc);
      try {
        expect(await showSession(app, entry.sessionId)).toMatch(/ busy \d+[smh]$/);
        expect(app.lines()[0]).toContain('OMC 5.5.0 (--plugin-dir)');
        await app.press(KEY.enter);
        await app.waitForText(`OMC 5.5.0: --plugin-dir ${OMC_PLUGIN} (claude pid ${pid})`);
        await app.press(KEY.esc);
      } finally {
        await app.unmount();
      }
      child.kill('SIGKILL');
      await waitFor('the CLI to die', () => child.exitCode !== null || child.signalCode !== null);
      expect(fs.existsSync(reg)).toBe(true);
      row = sessionRow(omcTopJson(run), entry.sessionId);
      expect(row.process).toMatchObject({ pid, status: 'gone' });
      expect(row.agent.attention).toContainEqual(expect.objectContaining({ kind: 'orphaned-loop' }));
      // Dead: it burns nothing and reaches nothing, whatever its last minutes looked like.
      expect(row.agent.analytics.burn_tokens_per_min).toBeNull();
      expect(row.agent.analytics.eta).toBeNull();
      // On screen: "!gone" on the row, the orphaned loop in the problems view.
      app = await mountOnRun(run);
      try {
        expect(await showSession(app, entry.sessionId)).toMatch(/ !gone \d+[smh]$/);
        await app.press('!');
        const problems = (await app.waitForText('orphaned ralph')).replace(/\s+/g, ' ');
        expect(problems).toContain(`its Claude process (pid ${pid}) is gone`);
      } finally {
        await app.unmount();
      }
    },
    scaled(180_000),
  );

  it(
    'a Stop hook that always blocks: Claude Code overrides it at its block cap, and the transcript says so',
    async () => {
      const run = await begin('cap');
      const hook = path.join(run.dir, 'block.sh');
      fs.writeFileSync(
        hook,
        '#!/bin/sh\ncat >/dev/null\necho \'{"decision":"block","reason":"keep going (test)"}\'\n',
        {
          mode: 0o755,
        },
      );
      fs.mkdirSync(path.join(run.project, '.claude'));
      fs.writeFileSync(
        path.join(run.project, '.claude', 'settings.json'),
        JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } }),
      );
      const child = run.spawnInNs('claude', ['-p', 'hi', '--output-format', 'json'], {
        env: { CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: '2' },
      });
      let out = '';
      child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
      await new Promise((r) => child.on('close', r));
      const sid = (JSON.parse(out) as Json).session_id as string;
      // No OMC session here: read the transcript the way the domain does for a registered session.
      const facts = readTranscriptFacts(run, sid);
      // Cap 2: two blocks honoured (two extra API calls), the third recorded and overridden.
      expect(facts.stopHooks.map((h) => h.text)).toEqual(Array(3).fill('keep going (test)'));
      expect(run.mockCalls().filter((c) => c.session === sid)).toHaveLength(3);
      expect(facts.blockCapOverride).not.toBeNull();
    },
    scaled(120_000),
  );

  it(
    'stop escalation: the checks pass for the real busy CLI, SIGINT ends it, and the registry says so',
    async () => {
      const run = await begin('sigint');
      const sock = path.join(run.dir, 'tmux.sock');
      const tmux = (...args: string[]) => spawnSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
      const start = run.spawnInNs('tmux', [
        ...[
          '-S',
          sock,
          '-f',
          '/dev/null',
          'new-session',
          '-d',
          '-s',
          'main',
          '-x',
          '150',
          '-y',
          '45',
          '-c',
          run.project,
        ],
        'claude --permission-mode acceptEdits --allowedTools Bash',
      ]);
      await new Promise((r) => start.on('close', r));
      const screen = () => tmux('capture-pane', '-p', '-t', 'main').stdout;
      await waitForPane('the prompt box', screen, 'accept edits on', 90_000, run);
      // A long command that is not a bare sleep: Claude Code refuses a standalone `sleep 300`.
      const prompt = 'long job [[bash:timeout 300 tail -f /dev/null]]';
      tmux('send-keys', '-t', 'main', '-l', prompt);
      await waitForPane('the typed prompt on screen', screen, prompt, 30_000);
      tmux('send-keys', '-t', 'main', 'Enter');
      await waitFor('the sleep to run', () => run.mockCalls().some((c) => c.tool === 'Bash'), 90_000);
      const entry = await waitFor('busy', () => readRegistry(run.configDir).entries.find((e) => e.status === 'busy'));
      const store = new OmcStore({
        root: path.join(run.project, '.omc'),
        watch: 'none',
        projectDir: run.project,
        claude: { live: false, env: { CLAUDE_CONFIG_DIR: run.configDir } },
      });
      store.start();
      const proc = store.claude.getSnapshot().bySession.get(entry.sessionId)?.process;
      await store.close();
      const here = { projectDir: run.project, configDir: run.configDir };
      expect(planInterrupt(proc!, { ...here, projectDir: path.join(run.dir, 'elsewhere') })).toMatchObject({
        ok: false,
      });
      const plan = planInterrupt(proc!, here);
      expect(plan).toMatchObject({ ok: true, pid: entry.pid, procStart: entry.procStart });
      // The native binary, proven by its executable; its registry file is the user's.
      expect(plan.ok && plan.checked).toMatch(
        /executable \S+\/claude\.exe, works in .*, registry sessions\/\d+\.json owned by you/,
      );
      expect(sendInterrupt(plan)).toBeNull();
      await waitFor(
        'the entry to go',
        () => !readRegistry(run.configDir).entries.some((e) => e.pid === entry.pid),
        30_000,
      );
      // The CLI removes its entry on the way out, then exits.
      await waitFor('the CLI to exit', () => processStartIdentity(entry.pid) !== entry.procStart, 30_000);
      tmux('kill-server');
    },
    scaled(240_000),
  );

  it(
    'an interactive session in tmux: a permission prompt is "waiting", and jump finds its pane',
    async () => {
      const run = await begin('tmux');
      const sock = path.join(run.dir, 'tmux.sock');
      const tmux = (...args: string[]) => spawnSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
      const start = run.spawnInNs('tmux', [
        '-S',
        sock,
        '-f',
        '/dev/null',
        'new-session',
        '-d',
        '-s',
        'main',
        '-x',
        '150',
        '-y',
        '45',
        '-c',
        run.project,
        `claude --plugin-dir ${OMC_PLUGIN} --permission-mode default`,
      ]);
      await new Promise((r) => start.on('close', r));
      const entry = await waitFor(
        'the interactive CLI to be idle',
        () => readRegistry(run.configDir).entries.find((e) => e.status === 'idle'),
        90_000,
      );
      expect(entry.tmux).toMatch(/^main:@\d+\.%\d+$/);
      const screen = () => tmux('capture-pane', '-p', '-t', 'main').stdout;
      // "idle" is written before the input box takes keys: wait for the box, then for the typed text.
      await waitForPane('the prompt box', screen, '? for shortcuts', 60_000, run);
      const prompt = 'ralph: touch it [[bash:touch touched.txt]]';
      tmux('send-keys', '-t', 'main', '-l', prompt);
      await waitForPane('the typed prompt on screen', screen, prompt, 30_000);
      tmux('send-keys', '-t', 'main', 'Enter');
      await waitFor(
        'a permission prompt',
        () => readRegistry(run.configDir).entries.find((e) => e.status === 'waiting'),
        90_000,
      );

      const doc = omcTopJson(run);
      const row = sessionRow(doc, entry.sessionId);
      expect(row.process).toMatchObject({ pid: entry.pid, status: 'waiting', entrypoint: 'cli' });
      expect(row.agent.attention).toContainEqual(expect.objectContaining({ kind: 'waiting-for-you' }));

      // The store gives the same answer, with the detail view's fields.
      const store = new OmcStore({
        root: path.join(run.project, '.omc'),
        watch: 'none',
        projectDir: run.project,
        claude: { live: false, env: { CLAUDE_CONFIG_DIR: run.configDir } },
      });
      store.start();
      const proc = store.claude.getSnapshot().bySession.get(entry.sessionId)?.process;
      await store.close();
      expect(proc).toMatchObject({ status: 'waiting', waitingFor: 'permission prompt', tmux: entry.tmux });
      let app = await mountOnRun(run);
      try {
        expect(await showSession(app, entry.sessionId)).toMatch(/ !waiting \d+[smh]$/);
        await app.press(KEY.enter);
        await app.waitForText('! Claude is waiting for you: permission prompt');
      } finally {
        await app.unmount();
      }

      const pane = (entry.tmux as string).split('.')[1];
      const serverPid = tmux('display-message', '-p', '#{pid}').stdout.trim();
      const inTmux = { TMUX: `${sock},${serverPid},0` };
      expect(planJump(proc!, inTmux)).toMatchObject({ ok: true, pane, via: 'registry' });
      expect(planJump({ ...proc!, tmux: null }, inTmux)).toMatchObject({ ok: true, pane, via: 'tty' });
      expect(planJump(proc!, {})).toEqual({ ok: false, reason: expect.stringMatching(/^not in tmux/) });
      const other = path.join(run.dir, 'other.sock');
      spawnSync('tmux', ['-S', other, '-f', '/dev/null', 'new-session', '-d', '-s', 'x', 'sleep 600']);
      try {
        expect(planJump(proc!, { TMUX: `${other},1,0` })).toEqual({
          ok: false,
          reason: expect.stringMatching(/another/),
        });
      } finally {
        spawnSync('tmux', ['-S', other, 'kill-server']);
      }

      // Approve: the turn ends after one Stop-hook block, and ralph stays active with the CLI idle.
      await waitForPane('the permission dialog', screen, 'Do you want to proceed?', 30_000);
      tmux('send-keys', '-t', 'main', 'Enter');
      await waitFor(
        'the turn to end',
        () => {
          const e = readRegistry(run.configDir).entries.find((x) => x.pid === entry.pid);
          return e?.status === 'idle' && run.mockCalls().length >= 4;
        },
        90_000,
      );
      expect(fs.existsSync(path.join(run.project, 'touched.txt'))).toBe(true);
      const after = sessionRow(omcTopJson(run), entry.sessionId);
      expect(after.process.status).toBe('idle');
      expect(after.agent.attention).toContainEqual(
        expect.objectContaining({ kind: 'idle-while-active', reason: 'one-iteration-per-turn' }),
      );
      expect(after.agent.peek.turn_durations_ms.length).toBeGreaterThan(0);
      app = await mountOnRun(run);
      try {
        expect(await showSession(app, entry.sessionId)).toMatch(/ !idle \d+[smh]$/);
        await app.press(KEY.enter);
        await app.waitForText("ralph advances once per prompt: OMC's Stop hook does not block again");
      } finally {
        await app.unmount();
      }
      tmux('kill-server');
    },
    scaled(240_000),
  );
});
