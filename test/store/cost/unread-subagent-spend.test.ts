/**
 * A subagent file over FULL_READ_MAX (Claude Code writes a subagent's transcript beside the session's, under
 * `<session>/subagents/agent-<id>.jsonl`) is read from its last 64 MB only, as the session's own transcript over it
 * is: what its subagent spent before that is never counted. The session's spend is then a lower bound for good, and
 * every surface marks it as it marks a transcript read only in part: the session detail says which file and how
 * much, a list's cell says `+part`, `--json` says `lower_bound` with the files and bytes not read, the Cost pane
 * counts the session among those read only in part, and a `watch --json --rows` row carries `costUnread`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../../helpers/it.js';
import { writeLiveRalph, type TempProject } from '../../helpers/fixtures.js';
import { writeTranscript } from '../../helpers/claude-files.js';
import { assistant, prompt } from '../claude/lines.js';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { FULL_READ_MAX } from '../../../src/store/claude/transcript-reader.js';
import { addClaudeToReport } from '../../../src/store/claude/report.js';
import { addCostToReport } from '../../../src/feeds/cost-report.js';
import { rowOf } from '../../../src/feeds/row.js';
import { costPaneLines } from '../../../src/panes/cost/lines.js';
import { costLines } from '../../../src/panes/sessions/cost-lines.js';
import { rowCost } from '../../../src/panes/fleet/layout.js';
import type { FleetRow } from '../../../src/fleet/model.js';
import type { OmcStore } from '../../../src/store/store.js';
import { oneShotStore } from '../../helpers/claude-registry-rig.js';

const S = 'aaaaaaaa-1111-4222-8333-0000000000f3';
const AGENT = 'a0123456789abcdef';
const NOW = Date.parse('2026-12-02T12:00:00Z');
const HOLE = FULL_READ_MAX + 8 * 1024 * 1024;

/**
 * A ralph session with one response of its own, and one subagent whose file holds response s1, then `hole` bytes
 * with no line end (no disk: a sparse hole), then response s2: a first read of a file over 64 MB starts inside the
 * hole and counts s2 only.
 */
function session(p: TempProject, cfg: string, hole: number): string {
  writeLiveRalph(p, {
    sessionId: S,
    iteration: 2,
    max: 10,
    startedAt: '2026-12-02T10:00:00.000Z',
    checkedAt: NOW,
    projectPath: p.dir,
    prompt: 'ralph: x',
  });
  writeTranscript(cfg, p.dir, S, [
    prompt(S, '2026-12-02T10:00:00Z', 'hi'),
    ...assistant(S, '2026-12-02T10:00:10Z', 'm1', 1, [{ type: 'text', text: 'one' }]),
  ]);
  const f = path.join(cfg, transcriptRel(p.dir, S).replace(/\.jsonl$/, ''), 'subagents', `agent-${AGENT}.jsonl`);
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(
    f,
    assistant(S, '2026-12-02T10:10:10Z', 's1', 3, [{ type: 'text', text: 'sub one' }]).join('\n') + '\n',
  );
  if (hole > 0) fs.truncateSync(f, fs.statSync(f).size + hole);
  fs.appendFileSync(
    f,
    '\n' + assistant(S, '2026-12-02T11:10:10Z', 's2', 4, [{ type: 'text', text: 'sub two' }]).join('\n') + '\n',
  );
  return f;
}

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
    pane: ((src) => src.slice(0, src.length).map((l) => l.text))(costPaneLines(store, {}, NOW, 200)),
    detail: costLines(s, c, NOW, {}).map((l) => l.text),
    row,
    cell: rowCost({ ...row, key: 'k', host: null, rootId: 'r' } as FleetRow),
  };
}

describe('a subagent file read only from its last 64 MB', () => {
  it("the session's spend is a lower bound on every surface, said as for its transcript", ({
    emptyProject: p,
    claudeDir,
    newStore,
  }) => {
    const file = session(p, claudeDir, HOLE);
    const v = surfaces(oneShotStore(newStore, p, claudeDir, NOW));
    // m1 and s2 are counted; s1 lies before the part of the subagent file read.
    expect(v.spend.by_model[0].responses).toBe(2);
    const notRead = fs.statSync(file).size - FULL_READ_MAX;
    expect(v.spend).toMatchObject({
      lower_bound: true,
      partial_from: 0,
      lines_not_read: 0,
      subagent_files_partial: 1,
      subagent_bytes_not_read: notRead,
      subagents_reading: false,
    });
    expect(v.json.cost.project).toMatchObject({ partial_sessions: 1, lower_bound: true });
    for (const m of v.json.cost.by_mode) expect(m.lower_bound).toBe(true);
    for (const d of v.json.cost.by_day) expect(d.lower_bound).toBe(true);
    expect(v.json.cost.loops.find((l: any) => l.session === S).lower_bound).toBe(true);
    expect(v.detail.find((t) => t.startsWith('  cost '))).toMatch(
      /\+unread part \(1 subagent file over 64\.0 MB is read from its last 64\.0 MB only \(8\.0 MB not read\): a lower bound\)/,
    );
    expect(v.pane.some((t) => /\$[0-9.]+\+part/.test(t))).toBe(true);
    expect(v.pane.join('\n')).toContain("+unread part 1 session's transcript is read only in part");
    expect(v.row).toMatchObject({
      costPartial: false,
      costReading: null,
      costUnread: { fromByte: 0, longLines: 0, subagentFiles: 1, subagentBytes: notRead },
    });
    expect(v.cell).toMatch(/^\$[0-9.]+\+part$/);
  });

  it('a subagent file read whole says none of it', ({ emptyProject: p, claudeDir, newStore }) => {
    session(p, claudeDir, 0);
    const v = surfaces(oneShotStore(newStore, p, claudeDir, NOW));
    expect(v.spend.by_model[0].responses).toBe(3);
    expect(v.spend).toMatchObject({ lower_bound: false, subagent_files_partial: 0, subagent_bytes_not_read: 0 });
    expect(v.json.cost.project).toMatchObject({ partial_sessions: 0, lower_bound: false });
    expect(v.detail.join('\n')).not.toContain('+unread');
    expect(v.row.costUnread).toBeUndefined();
    expect(v.cell).toMatch(/^\$[0-9.]+$/);
  });
});
