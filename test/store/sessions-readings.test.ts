/**
 * With the OMC version unknown, every rule book's reading of a session where they disagree: worked out when the
 * detail view or --json asks, and the same as the books decide on their own.
 */
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { stopVerdict } from '../../src/store/verdict/index.js';
import { detailLines } from '../../src/panes/sessions/detail.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import type { OmcStore, OmcStoreOptions } from '../../src/store/store.js';

const S = 'a1b2c3d4-0000-4000-8000-00000000000a';
const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const iso = (ago: number) => new Date(NOW - ago).toISOString();
// Retired in 5.5.0 (its hook lets the agent stop), still reinforced by 4.15's and 4.4.4's.
const ULTRAWORK = {
  active: true,
  started_at: iso(60_000),
  last_checked_at: iso(5_000),
  original_prompt: 'ulw',
  session_id: S,
  reinforcement_count: 3,
};

function open(p: TempProject, newStore: (o: OmcStoreOptions) => OmcStore, version: string | null) {
  writeOmcJson(path.join(p.root, `state/sessions/${S}/ultrawork-state.json`), ULTRAWORK);
  const store = newStore({
    root: p.root,
    watch: 'none',
    clock: () => NOW,
    projectDir: p.dir,
    omc: makeOmcInstall(version, 'test'),
  });
  store.start();
  return store.sessions.getSnapshot();
}

describe('readings of every rule book (OMC version unknown)', () => {
  it("the detail says 'not found' once, then the book assumed", ({ emptyProject: p, newStore }) => {
    writeOmcJson(path.join(p.root, `state/sessions/${S}/ultrawork-state.json`), ULTRAWORK);
    const store = newStore({
      root: p.root,
      watch: 'none',
      clock: () => NOW,
      projectDir: p.dir,
      omc: makeOmcInstall(null, 'not found: assuming the newest rules', 'assumed'),
    });
    store.start();
    const s = store.sessions.getSnapshot().sessions.find((x) => x.id === S)!;
    const line = detailLines(s, NOW, 400).find((l) => l.text.startsWith('OMC'))?.text;
    expect(line).toBe('OMC: not found; judged by the 5.5.0 rules (the newest, assumed)');
  });

  it('shows where the books disagree, as each book decides on its own', ({ emptyProject: p, newStore }) => {
    const snap = open(p, newStore, null);
    const s = snap.sessions.find((x) => x.id === S)!;
    expect(s.verdict).toMatchObject({ rules: '5.5.0', decision: 'stop' });
    const tree = {
      read: (rel: string) => (rel === `state/sessions/${S}/ultrawork-state.json` ? ULTRAWORK : null),
      findOwnedCopy: () => null,
    };
    const alone = (rules: '5.5.0' | '4.15.10' | '4.4.4') =>
      stopVerdict(tree, { rules, sessionId: S, cwd: p.dir, now: NOW, flock: true }).decision;
    expect(alone('5.5.0')).toBe('stop');
    expect(alone('4.15.10')).toBe('block');
    expect(alone('4.4.4')).toBe('block');
    expect(s.verdict!.readings).toEqual([
      expect.objectContaining({ rules: ['5.5.0'], decision: 'stop', mode: null }),
      expect.objectContaining({ rules: ['4.15.10', '4.4.4'], decision: 'block', mode: 'ultrawork' }),
    ]);
    const text = detailLines(s, NOW, 400)
      .map((l) => l.text)
      .join('\n');
    expect(text).toContain(
      'the OMC version is not known and the rule books disagree: 5.5.0 rules let the agent stop; 4.15.10, 4.4.4 rules block for ultrawork',
    );
    // Judged by 5.5.0's book, the ultrawork is out of OMC's registry: said so, not "inactive (active and fresh)".
    expect(text).toContain('OMC registry: inactive (retired in OMC 5.5.0: its registry no longer lists ultrawork)');
    const json = JSON.parse(
      JSON.stringify(buildJsonReport({ root: p.root, rootRule: 't', notices: [], sessions: snap })),
    );
    expect(json.sessions[0].verdict).toEqual({
      rules: '5.5.0',
      decision: 'stop',
      mode: null,
      rule: s.verdict!.rule,
      detail: s.verdict!.detail,
      unless: [],
      readings: [
        { rules: ['5.5.0'], decision: 'stop', mode: null, rule: expect.any(String) },
        { rules: ['4.15.10', '4.4.4'], decision: 'block', mode: 'ultrawork', rule: expect.any(String) },
      ],
    });
  });

  it('has none when the version is known', ({ emptyProject: p, newStore }) => {
    const s = open(p, newStore, '4.15.10').sessions.find((x) => x.id === S)!;
    expect(s.verdict).toMatchObject({ rules: '4.15.10', decision: 'block', mode: 'ultrawork', readings: null });
    expect(JSON.parse(JSON.stringify(s.verdict)).readings).toBeNull();
  });
});
