/**
 * A transcript line over MAX_PARSED_LINE (4 MB) is not read: a response on it is missing from every figure. That is
 * said as a problem line naming the file and how many lines, and the spend is marked a lower bound the way a
 * transcript read only in part is (test/store/cost/unread-transcript-spend.test.ts): `+unread part` with why in the
 * session detail, `+part` in a list's cell, `lines_not_read` and `lower_bound` in `--json`, `costUnread` on a row.
 * A long line of a type never counted (a request shape) is skipped as before, and said nowhere.
 */
import { describe, expect, it } from '../../helpers/it.js';
import { writeLiveRalph, type TempProject } from '../../helpers/fixtures.js';
import { writeTranscript } from '../../helpers/claude-files.js';
import { assistant, bigShape, prompt } from '../claude/lines.js';
import { MAX_PARSED_LINE, STEP_BYTES } from '../../../src/store/claude/transcript-reader.js';
import { addClaudeToReport } from '../../../src/store/claude/report.js';
import { addCostToReport } from '../../../src/feeds/cost-report.js';
import { rowOf } from '../../../src/feeds/row.js';
import { costLines } from '../../../src/panes/sessions/cost-lines.js';
import { rowCost } from '../../../src/panes/fleet/layout.js';
import type { FleetRow } from '../../../src/fleet/model.js';
import type { OmcStore } from '../../../src/store/store.js';
import { oneShotStore } from '../../helpers/claude-registry-rig.js';
import type { Fixtures } from '../../helpers/it.js';

const S = 'aaaaaaaa-1111-4222-8333-0000000000f2';
const NOW = Date.parse('2026-12-02T12:00:00Z');

/** a1, then a response whose one line is over 4 MB (a long tool input), then a2; `shape`: a long request shape too. */
function transcript(p: TempProject, cfg: string, longResponse: boolean): void {
  writeLiveRalph(p, {
    sessionId: S,
    iteration: 2,
    max: 10,
    startedAt: '2026-12-02T10:00:00.000Z',
    checkedAt: NOW,
    projectPath: p.dir,
    prompt: 'ralph: x',
  });
  // Past the limit by more than one read step (a line ending in the step that passes the limit is still read whole).
  const big = 'x'.repeat(MAX_PARSED_LINE + 2 * STEP_BYTES);
  writeTranscript(cfg, p.dir, S, [
    prompt(S, '2026-12-02T10:00:00Z', 'hi'),
    ...assistant(S, '2026-12-02T10:00:10Z', 'a1', 1, [{ type: 'text', text: 'one' }]),
    bigShape(5 * 1024),
    ...(longResponse
      ? assistant(S, '2026-12-02T10:30:10Z', 'a9', 9, [{ type: 'tool_use', name: 'Write', input: { content: big } }])
      : []),
    ...assistant(S, '2026-12-02T11:00:10Z', 'a2', 2, [{ type: 'text', text: 'two' }]),
  ]);
}

const oneShot = (newStore: Fixtures['newStore'], p: TempProject, cfg: string): OmcStore =>
  oneShotStore(newStore, p, cfg, NOW);

function surfaces(store: OmcStore) {
  const sessions = store.sessions.getSnapshot().sessions;
  const claude = store.claude.getSnapshot();
  const s = sessions.find((x) => x.id === S)!;
  const c = claude.bySession.get(S);
  const doc: Record<string, any> = { sessions: sessions.map((x) => ({ id: x.id })), runs: [] };
  addClaudeToReport(doc, sessions, claude, NOW);
  addCostToReport(doc, store, {}, NOW);
  const row = rowOf(s, c, NOW);
  return {
    json: doc,
    spend: doc.sessions.find((x: any) => x.id === S).agent.spend,
    problems: store.problems.getSnapshot().map((x) => `${x.path}: ${x.message}`),
    detail: costLines(s, c, NOW, {}).map((l) => l.text),
    row,
    cell: rowCost({ ...row, key: 'k', host: null, rootId: 'r' } as FleetRow),
  };
}

describe('a transcript line over 4 MB', () => {
  it('is a problem line, and the spend is a lower bound on every surface', ({
    emptyProject: p,
    claudeDir,
    newStore,
  }) => {
    transcript(p, claudeDir, true);
    const v = surfaces(oneShot(newStore, p, claudeDir));
    // a1 and a2 are counted; a9's line is not read.
    expect(v.spend.by_model[0].responses).toBe(2);
    expect(v.problems.filter((t) => t.includes(`${S}.jsonl: 1 transcript line over 4.0 MB not read`))).toEqual([
      expect.stringMatching(/: 1 transcript line over 4\.0 MB not read: the figure may be low$/),
    ]);
    expect(v.spend).toMatchObject({ lower_bound: true, lines_not_read: 1, partial_from: 0 });
    expect(v.json.cost.project).toMatchObject({ partial_sessions: 1, lower_bound: true });
    expect(v.detail.find((t) => t.startsWith('  cost '))).toMatch(
      /\+unread part \(1 transcript line over 4\.0 MB not read: a lower bound\)/,
    );
    expect(v.row.costUnread).toEqual({ fromByte: 0, size: expect.any(Number), longLines: 1 });
    expect(v.cell).toMatch(/^\$[0-9.]+\+part$/);
  });

  it('a long line of a type never counted (a request shape) is said nowhere', ({
    emptyProject: p,
    claudeDir,
    newStore,
  }) => {
    transcript(p, claudeDir, false);
    const v = surfaces(oneShot(newStore, p, claudeDir));
    expect(v.spend.by_model[0].responses).toBe(2);
    expect(v.problems.join('\n')).not.toContain('over 4.0 MB');
    expect(v.spend).toMatchObject({ lower_bound: false, lines_not_read: 0 });
    expect(v.row.costUnread).toBeUndefined();
    expect(v.cell).toMatch(/^\$[0-9.]+$/);
  });
});
