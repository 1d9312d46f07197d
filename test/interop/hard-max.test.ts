/**
 * OMC 5.5.0's hard iteration limit for ralph, against its real Stop hook. With `security.hardMaxIterations` in the
 * project's `.claude/omc.jsonc` (or the user's `~/.config/claude-omc/config.jsonc`), or `OMC_SECURITY=strict` in
 * the hooks' environment (a hard max of 200), a ralph at its max whose max has reached the hard max is not
 * extended: the hook blocks once more and writes `active: false`. omc-top's verdict says so before the Stop (rule
 * `hard-max`), its news says so instead of "OMC extends it (+10)", and the hook's decision and the file it writes
 * are compared with that verdict at each step (29/30, 30/30, with and without the config, strict at 200).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffFacts, factsOf } from '../../src/feeds/attention/engine.js';
import { attentionInput } from '../../src/feeds/attention/monitor.js';
import { liveRalph, writeOmcJson } from '../helpers/fixtures.js';
import { hookDecision, spawnStopHook } from '../helpers/stop-hook.js';
import { claudesScene } from './claudes-scene.js';

const SID = '5a5a5a5a-1111-4222-8333-444455556666';
const scene = claudesScene();

interface World {
  /** `.claude/omc.jsonc` of the project (text as written), or none. */
  project?: string;
  /** `~/.config/claude-omc/config.jsonc`, or none. */
  user?: string;
  /**
   * The session's Claude's environment, which its hooks inherit: a stand-in Claude process started with it, joined
   * to the session by Claude's registry (omc-top reads /proc/<pid>/environ). Absent: no Claude runs the session.
   */
  env?: Record<string, string>;
  /** `env` of the project's `.claude/settings.json` (Claude gives it to the hooks). */
  settingsEnv?: Record<string, string>;
  iteration: number;
  max: number;
}

/** OMC_SECURITY as a process got it: what its hooks inherit (read from /proc, as Claude's hooks get it). */
function securityOf(pid: number): Record<string, string> {
  const kv = fs
    .readFileSync(`/proc/${String(pid)}/environ`, 'utf8')
    .split('\0')
    .find((x) => x.startsWith('OMC_SECURITY='));
  return kv === undefined ? {} : { OMC_SECURITY: kv.slice('OMC_SECURITY='.length) };
}

async function world(w: World) {
  const sc = scene.open('omc-top-hardmax-');
  const { p, dir, home: h } = sc;
  if (w.project !== undefined) {
    fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.claude', 'omc.jsonc'), w.project);
  }
  if (w.user !== undefined) {
    fs.mkdirSync(path.join(h, '.config', 'claude-omc'), { recursive: true });
    fs.writeFileSync(path.join(h, '.config', 'claude-omc', 'config.jsonc'), w.user);
  }
  if (w.settingsEnv !== undefined) {
    fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify({ env: w.settingsEnv }));
  }
  const file = path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json');
  writeOmcJson(file, { ...liveRalph({ sessionId: SID, iteration: w.iteration, max: w.max }), prompt: 'scratch' });
  if (w.env !== undefined) await sc.claude(SID, w.env, 60_000);
  const s = sc.startStore();
  let facts = factsOf(attentionInput(s));
  const view = () => s.sessions.getSnapshot().sessions.find((v) => v.id === SID);
  return {
    file,
    store: s,
    /** omc-top's verdict now: the session's decision and ralph's rule and words. */
    verdict() {
      const v = view();
      const m = v?.modes.find((x) => x.mode === 'ralph');
      return {
        rules: v?.verdict?.rules,
        decision: v?.verdict?.decision,
        rule: m?.verdict.rule,
        detail: m?.verdict.detail,
      };
    },
    /** One real Stop (Claude's environment given to the hook); then the tree read again and the news it made. */
    stop(hookEnv: Record<string, string> = w.env ?? {}) {
      const hook = spawnStopHook('5.5.0', { cwd: dir, sessionId: SID, home: h, now: Date.now(), env: hookEnv });
      s.sessions.scan();
      const next = factsOf(attentionInput(s));
      const news = diffFacts(facts, next)
        .filter((t) => t.news !== null)
        .map((t) => [t.kind, t.news]);
      facts = next;
      return { hook, decision: hookDecision(hook), news };
    },
    state: () => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>,
  };
}

const CONFIG_30 = `{
  // the project's limit for ralph
  "security": { /* OMC reads this key */ "hardMaxIterations": 30 }
}`;

describe("OMC 5.5.0's hard max for ralph, against its real Stop hook", () => {
  it('project .claude/omc.jsonc = 30: 29/30 continues, 30/30 is the hard limit (block once, active: false)', async () => {
    const w = await world({ project: CONFIG_30, iteration: 29, max: 30 });
    expect(w.verdict()).toMatchObject({ rules: '5.5.0', decision: 'block', rule: 'iteration' });
    const first = w.stop();
    expect(first.decision).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(first.hook).toContain('ITERATION 30/30');
    expect(w.state()).toMatchObject({ active: true, iteration: 30, max_iterations: 30 });
    // At 30/30: omc-top says the hook switches ralph off, and so is the news (not "OMC extends it (+10)").
    expect(w.verdict()).toMatchObject({ decision: 'block', rule: 'hard-max' });
    expect(w.verdict().detail).toMatch(
      /^at the hard max \(30, security\.hardMaxIterations in .*\.claude\/omc\.jsonc\): the hook blocks once and switches ralph off$/,
    );
    expect(first.news).toEqual([['iteration', 'max reached, OMC switches it off (hard max)']]);

    const second = w.stop();
    expect(second.decision).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(second.hook).toContain('HARD LIMIT');
    expect(second.hook).toContain('(30)');
    expect(w.state()).toMatchObject({ active: false, iteration: 30, max_iterations: 30 });
    // What the hook wrote: the loop is off, and the next Stop lets the agent stop (the real hook agrees).
    expect(w.verdict().decision).toBe('stop');
    expect(second.news.filter(([kind]) => kind === 'iteration' || kind === 'max')).toEqual([]);
    const third = w.stop();
    expect(third.decision.decision).toBe('stop');
    expect(w.store.problems.getSnapshot().filter((x) => x.path.includes('omc.jsonc'))).toEqual([]);
  });

  it('no config: 30/30 is extended by 10 (the hook and omc-top agree)', async () => {
    const w = await world({ iteration: 30, max: 30 });
    expect(w.verdict()).toMatchObject({ decision: 'block', rule: 'extend' });
    expect(w.verdict().detail).toBe('at its max: the hook extends it by 10 and continues');
    const r = w.stop();
    expect(r.hook).toContain('EXTENDED');
    expect(w.state()).toMatchObject({ active: true, iteration: 30, max_iterations: 40 });
    expect(w.verdict()).toMatchObject({ decision: 'block', rule: 'iteration' });
  });

  it("OMC_SECURITY=strict in Claude's environment: 30/30 is extended, 200/200 is the hard limit (200)", async () => {
    const low = await world({ env: { OMC_SECURITY: 'strict' }, iteration: 30, max: 30 });
    expect(low.verdict()).toMatchObject({ decision: 'block', rule: 'extend' });
    expect(low.verdict().detail).toContain('the hard max 200');
    expect(low.stop().hook).toContain('EXTENDED');
    expect(low.state()).toMatchObject({ active: true, max_iterations: 40 });
  });

  it('OMC_SECURITY=strict: 200/200 blocks once and switches ralph off', async () => {
    const w = await world({ env: { OMC_SECURITY: 'strict' }, iteration: 200, max: 200 });
    expect(w.verdict()).toMatchObject({ decision: 'block', rule: 'hard-max' });
    expect(w.verdict().detail).toMatch(/^at the hard max \(200, OMC_SECURITY=strict from /);
    const r = w.stop();
    expect(r.hook).toContain('HARD LIMIT');
    expect(r.hook).toContain('(200)');
    expect(w.state()).toMatchObject({ active: false, max_iterations: 200 });
    expect(w.verdict().decision).toBe('stop');
  });

  it("OMC_SECURITY=strict from the project's .claude/settings.json env, with the config's 30 over strict's 200", async () => {
    const w = await world({ settingsEnv: { OMC_SECURITY: 'strict' }, project: CONFIG_30, iteration: 30, max: 30 });
    expect(w.verdict()).toMatchObject({ decision: 'block', rule: 'hard-max' });
    // Claude gives its hooks the settings' env: the hook here gets it as Claude would.
    const r = w.stop({ OMC_SECURITY: 'strict' }).hook;
    expect(r).toContain('HARD LIMIT');
    expect(r).toContain('(30)');
    expect(w.state()).toMatchObject({ active: false });
  });

  it("the user's ~/.config/claude-omc/config.jsonc when the project has none; a project file OMC cannot parse is passed by", async () => {
    const w = await world({
      project: '{ "security": { "hardMaxIterations": 30, } }',
      user: '{"security":{"hardMaxIterations":30}}',
      iteration: 30,
      max: 30,
    });
    expect(w.verdict()).toMatchObject({ decision: 'block', rule: 'hard-max' });
    expect(w.verdict().detail).toContain('security.hardMaxIterations in ~/.config/claude-omc/config.jsonc');
    const problems = w.store.problems.getSnapshot().filter((x) => x.path.endsWith('.claude/omc.jsonc'));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(
      /^OMC's Stop hook cannot use .*\.claude\/omc\.jsonc: it does not parse once its comments are stripped/,
    );
    const r = w.stop();
    expect(r.hook).toContain('HARD LIMIT');
    expect(w.state()).toMatchObject({ active: false });
  });

  it('a hard max that is not a number ("30") is none, and the user file is not looked at (the hook extends)', async () => {
    const w = await world({
      project: '{"security":{"hardMaxIterations":"30"}}',
      user: '{"security":{"hardMaxIterations":30}}',
      iteration: 30,
      max: 30,
    });
    expect(w.verdict()).toMatchObject({ decision: 'block', rule: 'extend' });
    const problems = w.store.problems.getSnapshot().filter((x) => x.path.endsWith('omc.jsonc'));
    expect(problems.map((x) => x.message)).toEqual([
      expect.stringMatching(/security\.hardMaxIterations in .*\.claude\/omc\.jsonc is the text "30", not a number/),
    ]);
    expect(w.stop().hook).toContain('EXTENDED');
    expect(w.state()).toMatchObject({ active: true, max_iterations: 40 });
  });

  it('a // inside a string breaks the file for OMC too (its comment stripping ignores strings): no hard max', async () => {
    const w = await world({
      project: '{"url":"https://x.example","security":{"hardMaxIterations":30}}',
      iteration: 30,
      max: 30,
    });
    expect(w.verdict()).toMatchObject({ decision: 'block', rule: 'extend' });
    expect(w.stop().hook).toContain('EXTENDED');
  });

  it('a config file written while the store runs is read on the next look (the verdict moves with it)', async () => {
    const w = await world({ iteration: 30, max: 30 });
    expect(w.verdict().rule).toBe('extend');
    const dir = path.dirname(path.dirname(path.dirname(path.dirname(path.dirname(w.file)))));
    fs.mkdirSync(path.join(dir, '.claude'));
    fs.writeFileSync(path.join(dir, '.claude', 'omc.jsonc'), CONFIG_30);
    w.store.sessions.lookAtHardMax();
    expect(w.verdict().rule).toBe('hard-max');
    expect(w.stop().hook).toContain('HARD LIMIT');
  });
});

describe("OMC_SECURITY is each session's own Claude's (the hooks of that Claude run its Stop)", () => {
  const A = 'a1a1a1a1-1111-4222-8333-444455556666';
  const B = 'b2b2b2b2-1111-4222-8333-444455556666';
  const C = 'c3c3c3c3-1111-4222-8333-444455556666';

  it("two sessions whose Claudes differ: each verdict is its own Claude's, and a session with none says it is not known", async () => {
    const sc = scene.open('omc-top-hardmax-two-');
    const { p, dir, home: h } = sc;
    for (const sid of [A, B, C])
      writeOmcJson(path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json'), {
        ...liveRalph({ sessionId: sid, iteration: 200, max: 200 }),
        prompt: 'scratch',
      });
    // A's Claude runs with OMC_SECURITY=strict and is the older; B's, the project's newest, runs without it.
    const pidA = await sc.claude(A, { OMC_SECURITY: 'strict' }, 120_000);
    const pidB = await sc.claude(B, {}, 60_000);
    const s = sc.startStore();
    const ralphOf = (sid: string) =>
      s.sessions
        .getSnapshot()
        .sessions.find((v) => v.id === sid)
        ?.modes.find((m) => m.mode === 'ralph')?.verdict;

    expect(ralphOf(A)).toMatchObject({ rule: 'hard-max' });
    expect(ralphOf(A)?.detail).toBe(
      `at the hard max (200, OMC_SECURITY=strict from Claude pid ${String(pidA)}'s environment): the hook blocks once and switches ralph off`,
    );
    expect(ralphOf(B)).toMatchObject({ rule: 'extend' });
    expect(ralphOf(B)?.detail).toBe('at its max: the hook extends it by 10 and continues');
    // No Claude runs C: what the Claude that runs its next Stop will have is not known, and said so.
    expect(ralphOf(C)).toMatchObject({ rule: 'extend' });
    expect(ralphOf(C)?.detail).toBe(
      'at its max: the hook extends it by 10 and continues (not sure: no Claude process of this session runs: OMC_SECURITY in the environment of the Claude that runs its next Stop is not known (with OMC_SECURITY=strict the hard max is 200))',
    );

    // The real Stop hook, run as each Claude runs it (with that Claude's environment), agrees.
    const stopOf = (sid: string, pid: number) =>
      spawnStopHook('5.5.0', { cwd: dir, sessionId: sid, home: h, now: Date.now(), env: securityOf(pid) });
    expect(stopOf(A, pidA)).toContain('HARD LIMIT');
    expect(stopOf(B, pidB)).toContain('EXTENDED');
    const stateOf = (sid: string) =>
      JSON.parse(fs.readFileSync(path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json'), 'utf8')) as {
        active: boolean;
        max_iterations: number;
      };
    expect(stateOf(A)).toMatchObject({ active: false, max_iterations: 200 });
    expect(stateOf(B)).toMatchObject({ active: true, max_iterations: 210 });
  });
});
