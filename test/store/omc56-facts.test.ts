/**
 * What OMC 5.6 will say next session, the budget log, the recognised files and
 * 5.6 root resolution. OMC 5.6 cannot be run here: the watchdog and reconciler
 * are the project's restatement of upstream (test/helpers/omc56.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { latestBudgetByMode, pauseBudgetWarning } from '../../src/store/omc56/budget-log.js';
import { explainOmc56Path } from '../../src/store/omc56/known-files.js';
import { envStaleThreshold, staleRuns } from '../../src/store/omc56/next-session.js';
import { RunsDomain } from '../../src/store/runs/domain.js';
import { resolveOmcRoot } from '../../src/store/root.js';
import type { GitProbe } from '../../src/io/git.js';
import { OmcStore } from '../../src/store/store.js';
import { waitFor, writeOmcJson } from '../helpers/fixtures.js';
import * as omc56 from '../helpers/omc56.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const age = (file: string, hours: number) => {
  const t = new Date(Date.now() - hours * 3_600_000);
  fs.utimesSync(file, t, t);
};

/** A live store on the project (watching) and the sessions its stale-run facts name. */
async function watching(p: { root: string; dir: string }, clock: () => number) {
  const store = new OmcStore({ root: p.root, watch: 'auto', projectDir: p.dir, rootRule: 'git', clock });
  store.start();
  await waitFor(() => store.status.getSnapshot().watchMode === 'events', { timeoutMs: 20_000, what: 'watching' });
  const stale = () =>
    store.runs
      .nextSession()
      .filter((f) => f.kind === 'stale-run')
      .map((f) => f.sessionId);
  return { store, stale };
}

describe('stale-run watchdog, as OMC 5.6 will report it', () => {
  it('same findings as the watchdog, with OMC_STALE_RUN_HOURS honoured', ({ emptyProject: p }) => {
    const s = (sid: string, mode: string) => path.join(p.root, 'state', 'sessions', sid, `${mode}-state.json`);
    writeOmcJson(s('s1', 'ralph'), { active: true });
    age(s('s1', 'ralph'), 3);
    writeOmcJson(s('s2', 'autopilot'), { active: true });
    age(s('s2', 'autopilot'), 5);
    writeOmcJson(s('s3', 'ultrawork'), { active: true }); // not a watched mode
    age(s('s3', 'ultrawork'), 9);
    writeOmcJson(s('s4', 'team'), { active: false });
    age(s('s4', 'team'), 9);
    writeOmcJson(path.join(p.root, 'state', 'ralph-state.json'), { active: true }); // fresh
    const now = Date.now();
    const ours = (env: NodeJS.ProcessEnv) =>
      staleRuns(p.root, now, envStaleThreshold(env)).map((f) => ({
        mode: f.mode,
        sessionId: f.sessionId,
        ageHours: f.ageHours,
      }));
    expect(ours({})).toEqual(omc56.findStale(p.root, now, 2));
    expect(ours({}).map((f) => f.mode)).toEqual(['autopilot', 'ralph']);
    expect(ours({ OMC_STALE_RUN_HOURS: '4' })).toEqual(omc56.findStale(p.root, now, 4));
    expect(ours({ OMC_STALE_RUN_HOURS: '4' })).toHaveLength(1);
    expect(ours({ OMC_STALE_RUN_HOURS: 'nonsense' })).toHaveLength(2);
    const d = new RunsDomain({ root: p.root, env: {} });
    d.scan();
    expect(d.problems().map((x) => x.path)).toEqual([
      'state/sessions/s2/autopilot-state.json',
      'state/sessions/s1/ralph-state.json',
    ]);
    expect(d.problems()[0]!.message).toMatch(/STALE RUN.*~5h.*fix: cancel/);
  });

  it('in a live monitor: a rewrite with the same bytes (a new mtime) makes a stale run fresh, a fresh run turns stale', async ({
    emptyProject: p,
  }) => {
    const s = (sid: string) => path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json');
    const content = { active: true, iteration: 3 };
    writeOmcJson(s('s1'), content);
    age(s('s1'), 3);
    writeOmcJson(s('s2'), content);
    let skew = 0;
    const { store, stale } = await watching(p, () => Date.now() + skew);
    try {
      expect(stale()).toEqual(['s1']);
      // OMC rewrites s1's state unchanged: its mtime is new, so the watchdog no longer sees a stale run.
      writeOmcJson(s('s1'), content);
      await waitFor(() => stale().length === 0, { timeoutMs: 20_000, what: 's1 fresh again' });
      // Three hours pass with no write to either: the next change anywhere finds both stale.
      skew = 3 * 3_600_000;
      writeOmcJson(path.join(p.root, 'state', 'sessions', 's3', 'ultrawork-state.json'), { active: true });
      writeOmcJson(path.join(p.root, 'state', 'sessions', 's3', 'ralph-state.json'), { active: false });
      await waitFor(() => stale().length === 2, { timeoutMs: 20_000, what: 's1 and s2 stale' });
      expect(stale().sort()).toEqual(['s1', 's2']);
    } finally {
      await store.close();
    }
  });

  it('in a live monitor: a fresh run rewritten with bytes the watchdog cannot parse is no stale run (the last good value keeps no age)', async ({
    emptyProject: p,
  }) => {
    const s = (sid: string) => path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json');
    const content = { active: true, iteration: 3 };
    writeOmcJson(s('s1'), content);
    writeOmcJson(s('s4'), content);
    writeOmcJson(s('s2'), content);
    age(s('s2'), 3);
    const { store, stale } = await watching(p, Date.now);
    try {
      expect(stale()).toEqual(['s2']);
      // s1 turns binary and s4 grows past the read cap: the rows keep their last good values, with a problem each.
      fs.writeFileSync(s('s1'), '\u0000\u0001garbage');
      fs.writeFileSync(s('s4'), JSON.stringify({ ...content, pad: 'x'.repeat(4_300_000) }));
      const problemAt = (sid: string) =>
        store.problems.getSnapshot().some((x) => x.path === `state/sessions/${sid}/ralph-state.json`);
      await waitFor(() => problemAt('s1') && problemAt('s4'), { timeoutMs: 20_000, what: 'both read' });
      // A later change the tracker follows (s2 written again, so fresh): judged after s1's and s4's reads.
      writeOmcJson(s('s2'), content);
      await waitFor(() => !stale().includes('s2'), { timeoutMs: 20_000, what: 's2 fresh again' });
      expect(stale()).toEqual([]);
      expect(
        store.problems
          .getSnapshot()
          .map((x) => x.message)
          .join('\n'),
      ).not.toMatch(/STALE RUN/);
    } finally {
      await store.close();
    }
  });
  it('a run ended without its closeout is a next-session fact, as the reconciler finds', ({ emptyProject: p }) => {
    const ts = new Date(Date.now() - 3_600_000).toISOString();
    omc56.start(p.root, 'ralph', 'sA', ts);
    omc56.observeClear(p.root, 'ralph', 'sA', { active: true, started_at: ts }, new Date().toISOString());
    const d = new RunsDomain({ root: p.root, env: {} });
    d.scan();
    const facts = d.nextSession();
    expect(facts.map((f) => [f.kind, f.mode, f.sessionId])).toEqual(
      omc56.reconcile(p.root, Date.now()).findings.map((f) => ['no-closeout', f.run, f.sessionId]),
    );
    expect(facts[0]!.action).toMatch(/notepads\/ralph\/problems\.md/);
    // Whose run comes first: two of them under one notepad path still differ in a 60-column pane's problem line.
    expect(facts[0]!.message).toMatch(
      /^the ralph run of session sA ended \d{4}-\d\d-\d\dT[\d:.]+Z without its closeout \(.*\); OMC will report it at the next session start$/,
    );
    expect((d.report().next_session as unknown[]).length).toBe(1);
  });
});

describe('budget guard log', () => {
  const line = (pct: number, mode = 'ralph') =>
    JSON.stringify({
      ts: new Date().toISOString(),
      rule: 'budget-stop',
      mode,
      outcome: pct >= 100 ? 'block' : 'pass',
      detail: `~${pct * 1000}/100000 tokens (${pct}%)`,
      latencyMs: 3,
    });

  it('spend against budget, newest per mode, read from the log through the runs domain', ({ emptyProject: p }) => {
    fs.mkdirSync(path.join(p.root, 'state', 'enforcement'), { recursive: true });
    fs.writeFileSync(
      path.join(p.root, 'state', 'enforcement', 'shadow.jsonl'),
      [line(40), 'garbage', line(101), line(20, 'team')].join('\n') + '\n',
    );
    const d = new RunsDomain({ root: p.root, env: {} });
    d.scan();
    expect(d.budgetFor('ralph')).toMatchObject({ spend: 101_000, budget: 100_000, pct: 101 });
    expect(d.budgetFor('team')?.pct).toBe(20);
    expect(d.budgetFor('autopilot')).toBeNull();
  });

  it("only the budget guard's lines count (other guards share the log), as upstream's budget-guard writes them", ({
    emptyProject: p,
  }) => {
    omc56.logBudget(p.root, { mode: 'ralph', spend: 95_000, budget: 100_000 });
    omc56.logBudget(p.root, { mode: 'ralph', spend: 999_000, budget: 100_000, rule: 'git-guardrails' });
    const d = new RunsDomain({ root: p.root, env: {} });
    d.scan();
    expect(d.budgetFor('ralph')).toMatchObject({ spend: 95_000, budget: 100_000, pct: 95, outcome: 'warn' });
  });

  it('a pause warns when the loop is at or over budget and enforcement is active', () => {
    const over = latestBudgetByMode([line(100)]).get('ralph');
    const under = latestBudgetByMode([line(80)]).get('ralph');
    const active = { OMC_RUN_BUDGET_TOKENS: '100000', OMC_BUDGET_ENFORCE: 'active' };
    expect(pauseBudgetWarning(active, over)).toMatch(/may block one more stop/);
    expect(pauseBudgetWarning(active, under)).toBeNull();
    expect(pauseBudgetWarning({ OMC_RUN_BUDGET_TOKENS: '100000' }, over)).toMatch(/only logs/);
    expect(pauseBudgetWarning(active, null)).toBeNull();
  });
});

describe('recognised 5.6 files', () => {
  it.each([
    'state/runs/ledger.jsonl',
    'state/runs/ledger.jsonl.1',
    'state/enforcement/shadow.jsonl',
    'state/sessions/abc/feedback-baseline.json',
    'notepads/ralph/problems.md',
    'state/intake-lock.json',
  ])('%s is explained', (rel) => {
    expect(explainOmc56Path(rel)?.what).toMatch(/OMC 5\.6/);
  });
  it('other paths are not', () => {
    expect(explainOmc56Path('state/ralph-state.json')).toBeNull();
  });
});

describe('root resolution as OMC 5.6 does it', () => {
  const noGit: GitProbe = {
    topLevel: () => null,
    superproject: () => null,
    remoteOrigin: () => null,
    commonDir: () => null,
  };
  // Outside os.tmpdir() as far as the sensitivity rule is concerned: tmpdir is passed as a path that holds nothing.
  const base = () => {
    const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc56-root-')));
    dirs.push(d);
    return d;
  };

  it('a non-git directory adopts the nearest ancestor with a .omc/ directory (not a file) before $HOME/.omc', () => {
    const b = base();
    const home = path.join(b, 'home');
    fs.mkdirSync(path.join(home, '.omc', 'state'), { recursive: true });
    const proj = path.join(b, 'work', 'proj');
    const deep = path.join(proj, 'a', 'b');
    fs.mkdirSync(path.join(proj, '.omc'), { recursive: true });
    fs.mkdirSync(deep, { recursive: true });
    fs.writeFileSync(path.join(proj, 'a', '.omc'), 'not a directory');
    const r = resolveOmcRoot({
      cwd: deep,
      env: { PATH: process.env.PATH },
      home,
      tmpdir: '/nonexistent-tmp',
      git: noGit,
    });
    expect(r.rule).toBe('non-git-ancestor');
    expect(r.root).toBe(path.join(proj, '.omc'));
    expect(r.explain).toMatch(/OMC 5\.6/);
    // A .omc-workspace marker still wins.
    fs.writeFileSync(path.join(proj, 'a', '.omc-workspace'), '{}');
    const m = resolveOmcRoot({
      cwd: deep,
      env: { PATH: process.env.PATH },
      home,
      tmpdir: '/nonexistent-tmp',
      git: noGit,
    });
    expect(m.rule).toBe('marker');
  });

  it('without the git binary the top level is found by its .git entry', () => {
    const b = base();
    const repo = path.join(b, 'repo');
    fs.mkdirSync(path.join(repo, 'src', 'x'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.git'), 'gitdir: ../elsewhere\n'); // a worktree's .git file counts
    const home = path.join(b, 'home');
    fs.mkdirSync(home);
    const gone = resolveOmcRoot({
      cwd: path.join(repo, 'src', 'x'),
      env: { PATH: path.join(b, 'empty-bin') },
      home,
      tmpdir: '/nonexistent-tmp',
      git: noGit,
    });
    expect(gone.rule).toBe('git');
    expect(gone.root).toBe(path.join(repo, '.omc'));
    // With git on PATH and git saying "not a repository", 5.6 does not walk.
    const present = resolveOmcRoot({
      cwd: path.join(repo, 'src', 'x'),
      env: { PATH: process.env.PATH },
      home,
      tmpdir: '/nonexistent-tmp',
      git: noGit,
    });
    expect(present.rule).not.toBe('git');
  });
});
