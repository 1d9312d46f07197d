/**
 * Claude Code writes a message it made itself (an API error, an interrupted turn) as an assistant reply from the
 * model `<synthetic>`, with a usage of all zeros: no API call, no cost. It is never "unpriced" and asks the user for
 * no price, and `--json`'s `by_model` and `unpriced_models` agree: a model `by_model` calls unpriced is in
 * `unpriced_models`, and one it does not is not.
 */
import { describe, expect, it } from '../../helpers/it.js';
import { writeLiveRalph, type TempProject } from '../../helpers/fixtures.js';
import { writeTranscript } from '../../helpers/claude-files.js';
import { assistant, prompt } from '../claude/lines.js';
import { addClaudeToReport } from '../../../src/store/claude/report.js';
import { addCostToReport } from '../../../src/feeds/cost-report.js';
import { costLines } from '../../../src/panes/sessions/cost-lines.js';
import type { OmcStore } from '../../../src/store/store.js';
import { oneShotStore } from '../../helpers/claude-registry-rig.js';
import type { Fixtures } from '../../helpers/it.js';

const S = 'aaaaaaaa-1111-4222-8333-0000000000f3';
const NOW = Date.parse('2026-12-02T12:00:00Z');

/** The line Claude Code 2.1.332 writes for an API error shown as Claude's reply (its shape, zero usage). */
const synthetic = (at: string, id: string) =>
  JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    uuid: `u-${id}`,
    timestamp: at,
    type: 'assistant',
    sessionId: S,
    version: '2.1.332',
    isApiErrorMessage: true,
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: '<synthetic>',
      stop_reason: 'stop_sequence',
      content: [{ type: 'text', text: 'API Error: Connection error.' }],
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  });

/** A newer model no table prices, with tokens. */
const future = (at: string) =>
  assistant(S, at, 'f1', 3, [{ type: 'text', text: 'hi' }]).map((l) =>
    l.replace('"model":"claude-opus-5-5"', '"model":"claude-future-9"'),
  );

function session(p: TempProject, cfg: string): void {
  writeLiveRalph(p, {
    sessionId: S,
    iteration: 1,
    max: 10,
    startedAt: '2026-12-02T10:00:00.000Z',
    checkedAt: NOW,
    projectPath: p.dir,
    prompt: 'ralph: x',
  });
  writeTranscript(cfg, p.dir, S, [
    prompt(S, '2026-12-02T10:00:00Z', 'hi'),
    ...assistant(S, '2026-12-02T10:00:10Z', 'a1', 1, [{ type: 'text', text: 'one' }]),
    synthetic('2026-12-02T10:00:20Z', 'syn-1'),
    ...future('2026-12-02T10:00:30Z'),
  ]);
}

const oneShot = (newStore: Fixtures['newStore'], p: TempProject, cfg: string): OmcStore =>
  oneShotStore(newStore, p, cfg, NOW);

describe('the <synthetic> model', () => {
  it('costs nothing: not unpriced in the detail nor in --json, and by_model agrees with unpriced_models', ({
    emptyProject: p,
    claudeDir,
    newStore,
  }) => {
    session(p, claudeDir);
    const store = oneShot(newStore, p, claudeDir);
    const sessions = store.sessions.getSnapshot().sessions;
    const claude = store.claude.getSnapshot();
    const detail = costLines(
      sessions.find((x) => x.id === S)!,
      claude.bySession.get(S),
      NOW,
      {},
    ).map((l) => l.text);
    const syn = detail.find((t) => t.trim().startsWith('<synthetic>:'));
    expect(syn).toBe(`    <synthetic>: 1 responses · 0 tokens · $0 (Claude Code's own message, no API call)`);
    // A model no table prices is still said to be unpriced, with the way out.
    expect(detail.find((t) => t.trim().startsWith('claude-future-9:'))).toMatch(/unpriced: add it under "prices"/);

    const doc: Record<string, any> = { sessions: sessions.map((x) => ({ id: x.id })), runs: [] };
    addClaudeToReport(doc, sessions, claude, NOW);
    addCostToReport(doc, store, {}, NOW);
    const spend = doc.sessions.find((x: any) => x.id === S).agent.spend;
    expect(spend.by_model.find((m: any) => m.model === '<synthetic>')).toMatchObject({
      responses: 1,
      usd_est: 0,
      price: 'built-in',
    });
    const unpricedInByModel = spend.by_model.filter((m: any) => m.price === 'unpriced').map((m: any) => m.model);
    expect(unpricedInByModel).toEqual(spend.unpriced_models.map((u: any) => u.model));
    expect(unpricedInByModel).toEqual(['claude-future-9']);
  });
});
