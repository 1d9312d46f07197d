/**
 * What the run-history domains add to the sessions pane, in the real App over
 * a real store: ralph's story progress from PRDs written by OMC 5.5.0's own
 * PRD functions, the next-session badges (OMC 5.6's stale-run watchdog and
 * missing closeout, restated in test/helpers/omc56.ts), the 5.6 files
 * explained, and the pause dialog's budget warning.
 */
import fs from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { addCostToReport } from '../../src/feeds/cost-report.js';
import { makeProject, NO_CLAUDE_DIR, SESSION, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { KEY, mountStore, type MountedApp } from '../helpers/mount-app.js';
import * as omc56 from '../helpers/omc56.js';
import { importOmc, OMC55 } from '../helpers/omc-packages.mjs';

const omc55: any = await importOmc(OMC55, 'dist/hooks/ralph/prd.js');

const S = SESSION.ralph;
const ralphRel = `state/sessions/${S}/ralph-state.json`;
const STORIES = [
  { id: 'US-001', title: 'Parse input', description: 'd1', acceptanceCriteria: ['parses a', 'parses b'] },
  { id: 'US-002', title: 'Render output', description: 'd2', acceptanceCriteria: ['renders'] },
  { id: 'US-003', title: 'Docs', description: 'd3', acceptanceCriteria: ['documented'] },
];

let p: TempProject | null = null;
let app: MountedApp | null = null;
afterEach(async () => {
  await app?.unmount();
  p?.cleanup();
  app = null;
  p = null;
});

const abs = (rel: string) => path.join(p!.root, rel);
const readJson = (rel: string) => JSON.parse(fs.readFileSync(abs(rel), 'utf8'));

/** The fixture with its ralph session live (so it is the first, selected row). */
function project(): TempProject {
  p = makeProject({ withFixture: true });
  writeOmcJson(abs(ralphRel), { ...readJson(ralphRel), session_id: S, last_checked_at: new Date().toISOString() });
  return p;
}

async function mount(opts: { columns?: number; rows?: number; env?: NodeJS.ProcessEnv; watch?: 'auto' | 'none' } = {}) {
  const store = new OmcStore({
    root: p!.root,
    projectDir: p!.dir,
    watch: opts.watch ?? 'none',
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
    runs: { env: opts.env ?? {} },
  });
  store.start();
  const mounted = mountStore(store, { columns: opts.columns ?? 100, rows: opts.rows ?? 40 });
  app = mounted;
  await mounted.ready;
  return mounted;
}

const ralphRow = (text: string) => text.split('\n').find((l) => l.includes('88727f43')) ?? '';

describe('sessions pane: run facts', () => {
  it('the ralph row shows stories as OMC counts them, and the detail lists each story with its amendment', async () => {
    project();
    omc55.initPrd(p!.dir, 'proj', 'main', 'task', STORIES, S);
    omc55.markStoryComplete(p!.dir, 'US-001', undefined, S);
    omc55.markStoryArchitectVerified(p!.dir, 'US-002', undefined, S); // verified, never passed: not done
    omc55.markStoryComplete(p!.dir, 'US-002', undefined, S);
    omc55.markStoryArchitectVerified(p!.dir, 'US-002', undefined, S);
    const status = omc55.getPrdStatus(omc55.readPrd(p!.dir, S));
    const a = await mount({ watch: 'auto' });
    const text = await a.waitForText(/stories \d\/3/);
    expect(ralphRow(text)).toContain(`stories ${status.completed}/${status.total} · ${status.nextStory.id}`);
    expect(`${status.completed}/${status.total} ${status.nextStory.id}`).toBe('1/3 US-001');

    const amended = omc55.amendCriterion(
      p!.dir,
      'US-002',
      {
        original: 'renders',
        replacement: 'renders in 80 columns',
        reason: 'narrow panes',
        evidence: 'measured in a real 80x24 terminal',
        authority: S,
      },
      S,
    );
    expect(amended.ok).toBe(true);
    // Amending a criterion un-passes the story, as OMC's own reader now says.
    const after = omc55.getPrdStatus(omc55.readPrd(p!.dir, S));
    expect(after.completed).toBe(0);
    // The watcher's event for the session's prd.json is what redraws the row: rows never stat on their own.
    await waitFor(() => ralphRow(a.text()).includes('stories 0/3 · US-001'), {
      timeoutMs: 30_000,
      what: `the amended PRD on the ralph row\n${a.text()}`,
    });
    await a.press(KEY.enter);
    const detail = await a.waitForText('▌stories');
    expect(detail).toContain('▌stories (state/sessions/');
    expect(detail).toMatch(/· US-001 \[p\d+\] Parse input — claimed, not architect-verified: not counted/);
    expect(detail).toContain('0/3 passed · next US-001');
    expect(detail).toMatch(/· US-002 \[p\d+\] Render output — open/);
    expect(detail).toContain('      - renders in 80 columns');
    expect(detail).toContain('amended (replaced): renders → renders in 80 columns (narrow panes)');
  });

  it("the project's own prd.json (outside the watched root) written after the first frame shows on the ralph row", async () => {
    project();
    // No watcher at all, and nothing but the PRD domain's own timer looks at the project's prd.json.
    const a = await mount();
    await a.waitForText('88727f43');
    expect(ralphRow(a.text())).not.toContain('stories');
    // OMC writes a session-less PRD under .omc by default; ralph also reads (first) one the user put in the project.
    fs.writeFileSync(path.join(p!.dir, 'prd.json'), JSON.stringify(omc55.createPrd('proj', 'main', 'task', STORIES)));
    expect(omc55.markStoryComplete(p!.dir, 'US-001')).toBe(true);
    expect(omc55.markStoryArchitectVerified(p!.dir, 'US-001')).toBe(true);
    const status = omc55.getPrdStatus(omc55.readPrd(p!.dir, S));
    expect(`${status.completed}/${status.total} ${status.nextStory.id}`).toBe('1/3 US-002');
    // The domain's timer looks every PROJECT_PRD_RECHECK_MS (2 s); the bound is generous for a loaded machine.
    await waitFor(() => ralphRow(a.text()).includes('stories 1/3 · US-002'), {
      timeoutMs: 30_000,
      what: `the project's PRD on the ralph row\n${a.text()}`,
    });
  });

  it('an invalid PRD says so on the row and in the detail, never 0/0', async () => {
    project();
    writeOmcJson(abs(`state/sessions/${S}/prd.json`), { project: 'x', userStories: [{ id: 'US-001' }] });
    const a = await mount();
    const text = await a.waitForText('PRD invalid');
    expect(ralphRow(text)).toContain('stories: PRD invalid ⚠');
    expect(text).not.toContain('stories 0/0');
    await a.press(KEY.enter);
    const detail = await a.waitForText('invalid PRD');
    expect(detail).toMatch(/⚠ .+/);
  });

  it('badges: a stale run and a missing closeout, with file and fix in the detail and the problems view', async () => {
    project();
    const old = new Date(Date.now() - 3 * 3_600_000);
    fs.utimesSync(abs(ralphRel), old, old);
    omc56.start(p!.root, 'ralph', S, new Date(Date.now() - 4 * 3_600_000).toISOString());
    omc56.append(p!.root, {
      ts: new Date(Date.now() - 3_600_000).toISOString(),
      run: 'ralph',
      sessionId: S,
      event: 'end',
      outcome: 'cancelled',
      closeoutWritten: false,
    });
    const a = await mount();
    const text = await a.waitForText('[stale run]');
    expect(ralphRow(text)).toContain('[stale run] [no closeout]');
    await a.press(KEY.enter);
    const detail = await a.waitForText('next session (OMC 5.6): stale run');
    expect(detail).toContain(`file: ${ralphRel}`);
    expect(detail).toContain('fix: cancel the session (c)');
    expect(detail).toContain('next session (OMC 5.6): no closeout');
    expect(detail).toContain('file: notepads/ralph/problems.md');
    await a.press(KEY.esc, '!');
    const problems = await a.waitForText('STALE RUN');
    expect(problems).toContain(ralphRel);
  });

  it('the stale-run judgement takes OMC_STALE_RUN_HOURS as the hooks get it (Claude settings `env`) and names the source', async () => {
    project();
    const old = new Date(Date.now() - 3 * 3_600_000);
    fs.utimesSync(abs(ralphRel), old, old);
    const settings = (file: string, hours: string) => {
      fs.mkdirSync(path.join(p!.dir, '.claude'), { recursive: true });
      fs.writeFileSync(path.join(p!.dir, '.claude', file), JSON.stringify({ env: { OMC_STALE_RUN_HOURS: hours } }));
    };
    // omc-top runs with 2 (OMC's default too); the project's settings give its hooks 8: OMC reports nothing.
    settings('settings.json', '8');
    let a = await mount({ env: { OMC_STALE_RUN_HOURS: '2' } });
    let text = await a.waitForText('88727f43');
    expect(ralphRow(text)).not.toContain('[stale run]');
    expect(a.store.runs.report().next_session).toEqual([]);
    expect(a.store.runs.problems().some((x) => x.message.includes('STALE RUN'))).toBe(false);
    await a.unmount();

    // The local settings win over the project's: 1 hour, so stale, and every surface says where the 1 came from.
    settings('settings.local.json', '1');
    a = await mount({ env: { OMC_STALE_RUN_HOURS: '2' } });
    text = await a.waitForText('[stale run]');
    await a.press(KEY.enter);
    const words = "OMC_STALE_RUN_HOURS=1 from the project's .claude/settings.local.json";
    expect((await a.waitForText('next session (OMC 5.6): stale run')).replace(/\s+/g, ' ')).toContain(words);
    const next = a.store.runs.report().next_session as Array<Record<string, unknown>>;
    expect(next[0]).toMatchObject({
      kind: 'stale-run',
      setting: { name: 'OMC_STALE_RUN_HOURS', value: '1', source: "the project's .claude/settings.local.json" },
    });
    expect(next[0]?.message).toContain(`(${words})`);
    await a.press(KEY.esc, '!');
    expect((await a.waitForText('STALE RUN')).replace(/[│\s]+/g, ' ')).toContain(words);
  });

  it('the modes text gives way to the badges and stories (the badge first at 80 columns); a 60-column pane keeps the row whole', async () => {
    project();
    omc55.initPrd(p!.dir, 'proj', 'main', 'task', STORIES, S);
    const old = new Date(Date.now() - 3 * 3_600_000);
    fs.utimesSync(abs(ralphRel), old, old);
    let a = await mount({ columns: 100, rows: 24 });
    let text = await a.waitForText('[stale run]');
    expect(ralphRow(text)).toMatch(/ralph 3\/10 .*· \[stale run\] · stories 0\/3 · US-001/);
    for (const l of a.lines()) expect(stringWidth(l)).toBeLessThanOrEqual(100);
    await a.unmount();
    // At 80 columns the Claude process cell takes its share: the badge (what OMC will say) is kept first.
    a = await mount({ columns: 80, rows: 24 });
    text = await a.waitForText('[stale run]');
    expect(ralphRow(text)).toMatch(/ralph 3\/10 .*· \[stale run\]/);
    for (const l of a.lines()) expect(stringWidth(l)).toBeLessThanOrEqual(80);
    await a.unmount();
    a = await mount({ columns: 60, rows: 24 });
    text = await a.waitForText('88727f43');
    expect(ralphRow(text)).toContain('ralph 3/10');
    for (const l of a.lines()) expect(stringWidth(l)).toBeLessThanOrEqual(60);
  });

  it('the 5.6 files of a session are explained in its detail; spend against budget is shown', async () => {
    project();
    writeOmcJson(abs(`state/sessions/${S}/feedback-baseline.json`), { signatures: [] });
    fs.mkdirSync(abs('notepads/ralph'), { recursive: true });
    writeOmcJson(abs('state/intake-lock.json'), { pid: 1, startedAt: new Date().toISOString() });
    omc56.logBudget(p!.root, { mode: 'ralph', spend: 45_000, budget: 100_000 });
    const a = await mount({ rows: 80 });
    await a.waitForText('88727f43');
    await a.press(KEY.enter, 'G');
    const detail = await a.waitForText('▌OMC 5.6 files');
    expect(detail).toContain(`state/sessions/${S}/feedback-baseline.json`);
    expect(detail).toMatch(/ralph feedback baseline/);
    expect(detail).toContain('notepads/ralph');
    expect(detail).toMatch(/per-mode notepads/);
    expect(detail).toContain('state/intake-lock.json');
    expect(detail).toContain('state/enforcement/shadow.jsonl');
    expect(detail).toContain('ralph: ~45,000/100,000 tokens (45%), pass');
  });

  it('pausing a loop at or over budget with OMC_BUDGET_ENFORCE=active warns that one more stop may be blocked', async () => {
    project();
    omc56.logBudget(p!.root, { mode: 'ralph', spend: 120_000, budget: 100_000, enforce: 'active' });
    const a = await mount({ env: { OMC_RUN_BUDGET_TOKENS: '100000', OMC_BUDGET_ENFORCE: 'active' } });
    await a.waitForText('88727f43');
    await a.press('p');
    const dialog = await a.waitForText('y:');
    const said = dialog.replace(/[│\s]+/g, ' ');
    expect(said).toMatch(/⚠ budget: ralph: this loop is at or over its token budget \(~120,000\/100,000 tokens/);
    expect(said).toMatch(
      /OMC_BUDGET_ENFORCE=active: a pause keeps it active, so OMC's budget guard may block one more stop/,
    );
    await a.press('n');
    await waitFor(() => !a.text().includes('⚠ budget'), { what: 'dialog closed' });
  });

  it('the budget guard’s variables set in the project’s settings `env` (not omc-top’s environment) warn the pause too', async () => {
    project();
    omc56.logBudget(p!.root, { mode: 'ralph', spend: 120_000, budget: 100_000, enforce: 'active' });
    fs.mkdirSync(path.join(p!.dir, '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(p!.dir, '.claude', 'settings.json'),
      JSON.stringify({ env: { OMC_RUN_BUDGET_TOKENS: '100000', OMC_BUDGET_ENFORCE: 'active' } }),
    );
    const a = await mount({ env: {} });
    await a.waitForText('88727f43');
    await a.press('p');
    const said = (await a.waitForText('y:')).replace(/[│\s]+/g, ' ');
    expect(said).toMatch(/OMC_BUDGET_ENFORCE=active: a pause keeps it active, so OMC's budget guard may block/);
    await a.press('n');
    await waitFor(() => !a.text().includes('⚠ budget'), { what: 'dialog closed' });
    // The Cost pane and --json say the values and where they came from.
    await a.press('$');
    const from = "from the project's .claude/settings.json";
    expect(await a.waitForText(`OMC_RUN_BUDGET_TOKENS=100000 ${from}`)).toContain(`OMC_BUDGET_ENFORCE=active ${from}`);
    const doc: Record<string, any> = { sessions: [], runs: [] };
    addCostToReport(doc, a.store, {}, Date.now());
    expect(doc.cost.budget_guard).toEqual({
      run_budget_tokens: 100000,
      enforce: 'active',
      run_budget_tokens_source: "the project's .claude/settings.json",
      enforce_source: "the project's .claude/settings.json",
    });
  });

  it('no warning under budget', async () => {
    project();
    omc56.logBudget(p!.root, { mode: 'ralph', spend: 50_000, budget: 100_000, enforce: 'active' });
    const a = await mount({ env: { OMC_RUN_BUDGET_TOKENS: '100000', OMC_BUDGET_ENFORCE: 'active' } });
    await a.waitForText('88727f43');
    await a.press('p');
    const dialog = await a.waitForText('y:');
    expect(dialog).not.toContain('budget');
  });
});
