/**
 * Subagent usage folded into the session (issue 26): files in the shapes Claude Code 2.1.332 writes
 * (test/fixtures/claude-2.1.332: a real subagent transcript and real meta files), read by the store
 * as omc-top runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../../src/store/store.js';
import { makeProject, type TempProject, waitFor, writeLiveRalph } from '../../helpers/fixtures.js';
import { sessionFiles } from './ralph-session.js';
import { assistant, prompt, stopBlock } from './lines.js';

const FIX = path.resolve(__dirname, '../../fixtures/claude-2.1.332');
const SID = 'cc6fc808-6688-476c-8026-1eb9c6137698';
const REAL_AGENT = 'a0e00d397f52ffbde';
const HAIKU_AGENT = 'a252a86dfc5134a56';
let p: TempProject;
let cfg: string;
let store: OmcStore | null = null;

beforeEach(() => {
  p = makeProject();
  cfg = path.join(p.dir, 'claude-config');
  writeLiveRalph(p, { sessionId: SID, iteration: 2, projectPath: p.dir, prompt: 'ralph: delegate' });
});
afterEach(async () => {
  await store?.close();
  store = null;
  p.cleanup();
});

const parentFile = () => sessionFiles(cfg, p.dir, SID).parent;
const subDir = () => sessionFiles(cfg, p.dir, SID).subDir;
const realLines = () =>
  fs.readFileSync(path.join(FIX, `q3-subagent-transcript-agent-${REAL_AGENT}.user-assistant-lines.jsonl`), 'utf8');

/** The parent: one response before the Stop hook's "ITERATION 2/10" block, one after it. */
function writeParent() {
  fs.mkdirSync(path.dirname(parentFile()), { recursive: true });
  const lines = [
    prompt(SID, '2026-12-01T22:51:00Z', 'ralph: delegate'),
    ...assistant(SID, '2026-12-01T22:51:01Z', 'msg_p1', 1, [{ type: 'text', text: 'Delegating.' }]),
    stopBlock(SID, '2026-12-01T22:51:10Z', '[RALPH LOOP - ITERATION 2/10] Work is NOT done.'),
    ...assistant(SID, '2026-12-01T22:51:11Z', 'msg_p2', 2, [{ type: 'text', text: 'More.' }]),
  ];
  fs.writeFileSync(parentFile(), lines.join('\n') + '\n');
}

/** The real subagent (started 22:51:19, in iteration 2) and a haiku one made from the same lines (started before the block). */
function writeSubagents() {
  fs.mkdirSync(subDir(), { recursive: true });
  fs.writeFileSync(path.join(subDir(), `agent-${REAL_AGENT}.jsonl`), realLines());
  fs.copyFileSync(
    path.join(FIX, `q3-agent-${REAL_AGENT}.meta.json`),
    path.join(subDir(), `agent-${REAL_AGENT}.meta.json`),
  );
  const haiku = realLines()
    .replaceAll('claude-opus-5-5', 'claude-haiku-5-5')
    .replaceAll('msg_cc6fc808_b620ec40_', 'msg_cc6fc808_hhhhhhhh_')
    .replace(/2026-12-01T22:51:\d\d/g, '2026-12-01T22:51:05');
  fs.writeFileSync(path.join(subDir(), `agent-${HAIKU_AGENT}.jsonl`), haiku);
  fs.copyFileSync(
    path.join(FIX, `q3-agent-${HAIKU_AGENT}.meta.json`),
    path.join(subDir(), `agent-${HAIKU_AGENT}.meta.json`),
  );
}

const open = (live: boolean) => {
  store = new OmcStore({
    root: p.root,
    watch: 'none',
    projectDir: p.dir,
    claude: { live, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
  });
  store.start();
  return store;
};

describe('subagents', () => {
  it("a session's tokens are its own plus every subagent's, once per message.id, per model and per type", async () => {
    writeParent();
    writeSubagents();
    const s = open(false);
    const t = s.claude.getSnapshot().bySession.get(SID)?.transcript;
    // Parent: m1 + m2 (lines.ts usage(i)); each subagent: its two responses (the real file repeats msg _1 on two lines).
    const parent = { input: 101 + 102, output: 11 + 12, cacheRead: 1000 + 2000, cacheWrite: 10 };
    const sub = { input: 101 + 102, output: 11 + 12, cacheRead: 1000 + 2000, cacheWrite: 10 };
    expect(t?.facts.tokens).toEqual({
      input: parent.input + 2 * sub.input,
      output: parent.output + 2 * sub.output,
      cacheRead: parent.cacheRead + 2 * sub.cacheRead,
      cacheWrite: parent.cacheWrite + 2 * sub.cacheWrite,
    });
    expect(t?.facts.messages).toBe(2 + 4);
    expect([...(t?.facts.byModel.keys() ?? [])].sort()).toEqual(['claude-haiku-5-5', 'claude-opus-5-5']);
    expect(t?.facts.byModel.get('claude-haiku-5-5')).toMatchObject({ responses: 2, input: 203 });
    expect(t?.subagents?.byType).toEqual([expect.objectContaining({ type: 'general-purpose', count: 2 })]);
    expect(t?.subagents?.agents.map((a) => [a.id, a.meta.model])).toEqual(
      expect.arrayContaining([
        [REAL_AGENT, 'claude-opus-5-5'],
        [HAIKU_AGENT, 'haiku'],
      ]),
    );
    // Each subagent counts in the iteration in which it started; the iterations add up to the session.
    const its = t?.facts.iterations ?? [];
    expect(its.map((i) => [i.iteration, i.tokens.input])).toEqual([
      // The work before the first Stop-hook block is OMC's iteration 1.
      [1, 101 + sub.input],
      [2, 102 + sub.input],
    ]);
    expect(its.reduce((n, i) => n + i.tokens.input, 0)).toBe(t?.facts.tokens.input);

    // --json: the same figures (report.ts + cost-report.ts read the same snapshot).
    const { addClaudeToReport } = await import('../../../src/store/claude/report.js');
    const { addCostToReport } = await import('../../../src/feeds/cost-report.js');
    const doc: Record<string, unknown> = { sessions: [{ id: SID }], runs: [] };
    addClaudeToReport(doc, s.sessions.getSnapshot().sessions, s.claude.getSnapshot(), Date.now());
    addCostToReport(doc, s, {}, Date.now());
    const row = (doc.sessions as Record<string, any>[])[0]!;
    expect(row.tokens.input).toBe(parent.input + 2 * sub.input);
    expect(row.agent.subagents).toMatchObject({ count: 2, by_type: [{ type: 'general-purpose', count: 2 }] });
    expect(row.agent.spend.by_model.map((m: any) => [m.model, m.price])).toEqual(
      expect.arrayContaining([
        ['claude-opus-5-5', 'built-in'],
        ['claude-haiku-5-5', 'built-in'],
      ]),
    );
  });

  it('live: a subagent that appears and grows while its session is quiet shows at once (its own directory watch)', async () => {
    writeParent();
    const s = open(true);
    const input = () => s.claude.getSnapshot().bySession.get(SID)?.transcript?.facts.tokens.input;
    await waitFor(() => input() === 203, { what: 'the parent read' });
    fs.mkdirSync(subDir(), { recursive: true });
    const lines = realLines().split('\n').filter(Boolean);
    const file = path.join(subDir(), `agent-${REAL_AGENT}.jsonl`);
    fs.writeFileSync(file, lines.slice(0, 2).join('\n') + '\n');
    // The parent file does not move: only a touch of it announces the new directory (as a real Agent call does).
    fs.appendFileSync(parentFile(), prompt(SID, '2026-12-01T22:51:18Z', 'async agent launched') + '\n');
    await waitFor(() => input() === 203 + 101, { what: 'the subagent first response', timeoutMs: 20_000 });
    fs.appendFileSync(file, lines.slice(2).join('\n') + '\n');
    await waitFor(() => input() === 203 + 203, { what: 'the subagent second response', timeoutMs: 20_000 });
    expect(s.claude.getSnapshot().bySession.get(SID)?.transcript?.subagents?.agents).toHaveLength(1);
  });

  it('a broken subagent line is skipped and counted, the rest still counts', () => {
    writeParent();
    fs.mkdirSync(subDir(), { recursive: true });
    fs.writeFileSync(path.join(subDir(), `agent-${REAL_AGENT}.jsonl`), '{not json\n' + realLines());
    const s = open(false);
    const t = s.claude.getSnapshot().bySession.get(SID)?.transcript;
    expect(t?.facts.tokens.input).toBe(203 + 203);
    expect(t?.subagents?.agents[0]?.problem).toBe('a line is not valid JSON');
  });
});
