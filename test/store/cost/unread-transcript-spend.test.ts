/**
 * A transcript over FULL_READ_MAX is read from its last 64 MB only: what was spent before that is never counted.
 * The figure is then a lower bound for good, and every surface that shows it says so the same way: the session
 * detail, the Cost pane's loop and project lines, a list's cell (fleet rows, History), `--json` and the rows
 * `watch --json --rows` sends. A transcript read whole says none of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../../helpers/it.js';
import { writeLiveRalph, type TempProject } from '../../helpers/fixtures.js';
import { assistant, prompt } from '../claude/lines.js';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { FULL_READ_MAX } from '../../../src/store/claude/transcript-reader.js';
import { estimate, formatUsd } from '../../../src/store/claude/prices.js';
import { addClaudeToReport } from '../../../src/store/claude/report.js';
import { addCostToReport } from '../../../src/feeds/cost-report.js';
import { rowOf } from '../../../src/feeds/row.js';
import { costPaneLines } from '../../../src/panes/cost/lines.js';
import { costLines } from '../../../src/panes/sessions/cost-lines.js';
import { rowCost } from '../../../src/panes/fleet/layout.js';
import type { FleetRow } from '../../../src/fleet/model.js';
import type { OmcStore } from '../../../src/store/store.js';
import { oneShotStore } from '../../helpers/claude-registry-rig.js';
import type { Fixtures } from '../../helpers/it.js';

const S = 'aaaaaaaa-1111-4222-8333-0000000000f1';
const NOW = Date.parse('2026-12-02T12:00:00Z');

/**
 * A ralph session whose transcript holds response a1, then more than FULL_READ_MAX of bytes (a hole: no disk, no
 * line end until its last byte), then response a2: a first read starts inside the hole and counts a2 only.
 */
function bigTranscript(p: TempProject, cfg: string, big: boolean): void {
  writeLiveRalph(p, {
    sessionId: S,
    iteration: 2,
    max: 10,
    startedAt: '2026-12-02T10:00:00.000Z',
    checkedAt: NOW,
    projectPath: p.dir,
    prompt: 'ralph: x',
  });
  const f = path.join(cfg, transcriptRel(p.dir, S));
  fs.mkdirSync(path.dirname(f), { recursive: true });
  const head = [
    prompt(S, '2026-12-02T10:00:00Z', 'hi'),
    ...assistant(S, '2026-12-02T10:00:10Z', 'a1', 1, [{ type: 'text', text: 'one' }]),
  ];
  fs.writeFileSync(f, head.join('\n') + '\n');
  if (big) fs.truncateSync(f, fs.statSync(f).size + FULL_READ_MAX + 1024 * 1024);
  fs.appendFileSync(f, '\n' + assistant(S, '2026-12-02T11:00:10Z', 'a2', 2, [{ type: 'text', text: 'two' }]) + '\n');
}

const oneShot = (newStore: Fixtures['newStore'], p: TempProject, cfg: string): OmcStore =>
  oneShotStore(newStore, p, cfg, NOW);

/** Everything a user reads of the session's spend, from the functions each surface draws with. */
function surfaces(store: OmcStore) {
  const sessions = store.sessions.getSnapshot().sessions;
  const claude = store.claude.getSnapshot();
  const s = sessions.find((x) => x.id === S)!;
  const c = claude.bySession.get(S);
  const doc: Record<string, any> = { sessions: sessions.map((x) => ({ id: x.id })), runs: [] };
  addClaudeToReport(doc, sessions, claude, NOW);
  addCostToReport(doc, store, {}, NOW);
  const pane = costPaneLines(store, {}, NOW, 120);
  const row = rowOf(s, c, NOW);
  return {
    json: doc,
    spend: doc.sessions.find((x: any) => x.id === S).agent.spend,
    pane: pane.slice(0, pane.length).map((l) => l.text),
    detail: costLines(s, c, NOW, {}).map((l) => l.text),
    row,
    cell: rowCost({ ...row, key: 'k', host: null, rootId: 'r' } as FleetRow),
  };
}

// The price of a2 alone (usage(2) in lines.ts), as the figures must read.
const usdOf = (i: number) =>
  estimate(
    new Map([
      [
        'claude-opus-5-5',
        {
          responses: 1,
          input: 100 + i,
          output: 10 + i,
          cacheRead: 1000 * i,
          cacheWrite: 5,
          cacheWrite1h: 0,
          webSearches: 0,
        } as any,
      ],
    ]),
    {},
  ).usd;

describe('a transcript read only from its last 64 MB', () => {
  it('its spend is a lower bound on every surface, said the same way', ({ emptyProject: p, claudeDir, newStore }) => {
    bigTranscript(p, claudeDir, true);
    const v = surfaces(oneShot(newStore, p, claudeDir));
    // Only a2 is counted: a1 lies before the part read.
    expect(v.spend.by_model[0].responses).toBe(1);
    expect(v.spend.usd_est).toBeCloseTo(usdOf(2), 9);
    // --json: the session, the project, the rollups and the loop say "lower bound"; where the counted part starts.
    expect(v.spend.lower_bound).toBe(true);
    const bytes = v.json.sessions.find((x: any) => x.id === S).agent.transcript.bytes;
    expect(v.spend.partial_from).toBe(bytes - FULL_READ_MAX);
    expect(v.spend.transcript_reading).toBe(false);
    expect(v.json.cost.project).toMatchObject({ partial_sessions: 1, lower_bound: true, transcript_reading: false });
    for (const m of v.json.cost.by_mode) expect(m.lower_bound).toBe(true);
    for (const d of v.json.cost.by_day) expect(d.lower_bound).toBe(true);
    expect(v.json.cost.loops.find((l: any) => l.session === S).lower_bound).toBe(true);
    // The session detail's cost line: the mark and how much was read.
    const cost = v.detail.find((t) => t.startsWith('  cost '))!;
    expect(cost).toMatch(/\+unread part \(only the last 64\.0 MB of its 65\.\d MB transcript is read: a lower bound\)/);
    // The Cost pane: the loop's SPENT EST cell and a line under the project's total.
    const money = formatUsd(usdOf(2));
    expect(v.pane.some((t) => t.includes(`${money}+part`))).toBe(true);
    expect(v.pane.join('\n')).toContain("+unread part 1 session's transcript is read only in part");
    // A row (watch --json --rows, a fleet's): not "still being read", but a part never read, and its cell says so.
    expect(v.row).toMatchObject({
      costPartial: false,
      costReading: null,
      costUnread: { fromByte: v.spend.partial_from },
    });
    expect(v.cell).toBe(`${money}+part`);
  });

  it('a transcript read whole says none of it', ({ emptyProject: p, claudeDir, newStore }) => {
    bigTranscript(p, claudeDir, false);
    const v = surfaces(oneShot(newStore, p, claudeDir));
    expect(v.spend.by_model[0].responses).toBe(2);
    expect(v.spend).toMatchObject({ lower_bound: false, partial_from: 0 });
    expect(v.json.cost.project).toMatchObject({ partial_sessions: 0, lower_bound: false });
    expect(v.detail.join('\n')).not.toContain('+unread');
    expect(v.pane.join('\n')).not.toContain('+part');
    expect(v.row.costUnread).toBeUndefined();
    expect(v.cell).toBe(formatUsd(usdOf(1) + usdOf(2)));
  });
});
