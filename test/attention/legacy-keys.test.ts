/**
 * The session-less state (OMC's files in state/ and the root) and a session directory that is itself named
 * `legacy` are two sessions in the attention model, as they are two rows: each loop is its own fact, a cancel of one
 * that did not take is that one's item only, and every surface tells them apart (the row's need, the JSON's
 * `sessionless`, the inbox's words, "(legacy)" where a user reads it).
 */
import { describe, expect, it } from 'vitest';
import { factsOf, needsYou } from '../../src/feeds/attention/engine.js';
import type { AttentionInput } from '../../src/feeds/attention/kinds.js';
import { needJson } from '../../src/feeds/attention/view.js';
import { needsBySession } from '../../src/feeds/row.js';
import { whoOf } from '../../src/ui/inbox-layout.js';
import type { TrackedCancel } from '../../src/store/cancel/tracker.js';
import type { ClaudeSnapshot } from '../../src/store/claude/model.js';
import { LEGACY_KEY, type SessionView } from '../../src/store/sessions/model.js';
import { EMPTY_TEAMS } from '../../src/store/teams/model.js';

const loop = (kind: 'legacy' | 'session', iteration: number): SessionView => {
  const dir = kind === 'legacy' ? 'state' : 'state/sessions/legacy';
  return {
    id: 'legacy',
    kind,
    dir,
    modes: [
      {
        mode: 'ralph',
        path: `${dir}/ralph-state.json`,
        active: true,
        enforced: true,
        status: 'enforced',
        iteration,
        max: 50,
        // Written after the cancel below (at 1,000): re-armed.
        writtenMs: 2_000,
      },
    ],
    cancel: null,
    ended: null,
    problems: [],
  } as unknown as SessionView;
};

/** omc-top cancelled the session-less ralph and the verdict engine judged that it did not take. */
const notTaken = {
  key: LEGACY_KEY,
  label: 'legacy',
  pauseOnly: false,
  modes: ['ralph'],
  phase: 'not-taken',
  final: true,
  text: 'cancel did not take: ralph still enforced',
  reason: 'the Stop hook still blocks',
  requestedMs: 1_000,
  expiresMs: 31_000,
  settledMs: 2_000,
} as unknown as TrackedCancel;

const input = (sessions: SessionView[], cancels: TrackedCancel[] = []): AttentionInput => ({
  sessions: { version: 1, sessions, problems: [], derivedAt: 0 } as unknown as AttentionInput['sessions'],
  teams: EMPTY_TEAMS,
  cancels: { version: 1, entries: new Map(cancels.map((c) => [c.key, c])) },
  // The record every omc-top process reads of the cancels: where "cancel did not take" comes from.
  cancelRecords: {
    version: 1,
    records: new Map(
      cancels.map((c) => [
        c.key,
        { key: c.key, modes: c.modes, requestedMs: c.requestedMs, expiresMs: c.expiresMs, notEnded: [] },
      ]),
    ),
    problem: null,
  },
  problems: [],
  claude: {
    version: 1,
    configDir: '/c',
    rule: 'test',
    bySession: new Map(),
    problems: [],
    registryMissing: false,
  } as unknown as ClaudeSnapshot,
});

describe('the session-less state beside a session directory named legacy', () => {
  it('each loop is a fact of its own: neither hides the other', () => {
    const facts = factsOf(input([loop('legacy', 3), loop('session', 7)]));
    const iterations = [...(facts.byKind.get('iteration') ?? new Map()).values()].map((f) => [f.session, f.value]);
    expect(iterations.sort()).toEqual([
      [LEGACY_KEY, '3'],
      ['legacy', '7'],
    ]);
  });

  it("a cancel of the session-less loop that did not take is that state's item, not the directory's", () => {
    const open = needsYou(factsOf(input([loop('legacy', 3), loop('session', 7)], [notTaken])));
    expect(open.map((n) => [n.kind, n.session])).toEqual([['cancel-not-taken', LEGACY_KEY]]);
    const bySession = needsBySession(open);
    expect(bySession.get(LEGACY_KEY)?.kind).toBe('cancel-not-taken');
    expect(bySession.get('legacy')).toBeUndefined();
    // Said apart on every surface: the JSON keeps the word `legacy` and says which one it is; a user reads (legacy).
    expect(needJson(open[0]!, false)).toMatchObject({ session: 'legacy', sessionless: true });
    expect(whoOf(open[0]!)).toContain('(legacy)');
  });
});
