/**
 * The attention model in small: which conditions need you, the identity of
 * each occurrence (the same condition arising anew is a new item), oldest
 * first, acknowledged items apart and not counted. Synthetic snapshots; the
 * store-level and real-CLI scenes are agree.test.ts and test/agent.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_CANCEL_RECORDS } from '../../src/store/cancel/cancel-records.js';
import { agentNeeds, teamNeeds, tmuxWindow } from '../../src/feeds/attention/needs.js';
import { attentionOf, splitAcked } from '../../src/feeds/attention/view.js';
import type { AttentionInput } from '../../src/feeds/attention/kinds.js';
import type { ClaudeSessionView, ClaudeSnapshot } from '../../src/store/claude/model.js';
import type { SessionView } from '../../src/store/sessions/model.js';
import type { TeamView } from '../../src/store/teams/model.js';
import { EMPTY_TEAMS } from '../../src/store/teams/model.js';

const SID = '11111111-2222-4333-8444-555555555555';
const session = (enforced: boolean, id = SID): SessionView =>
  ({
    id,
    kind: 'session',
    dir: `state/sessions/${id}`,
    modes: [
      {
        mode: 'ralph',
        path: `state/sessions/${id}/ralph-state.json`,
        active: true,
        enforced,
        status: enforced ? 'enforced' : 'finished',
        iteration: 2,
        max: 10,
      },
    ],
    cancel: null,
    ended: null,
    problems: [],
  }) as unknown as SessionView;

const claude = (status: string, since: number, extra: Record<string, unknown> = {}): ClaudeSessionView =>
  ({
    sessionId: SID,
    transcript: null,
    process: {
      pid: 4242,
      procStart: '777',
      status,
      since,
      name: 'fix-login',
      tmux: 'main:@3.%7',
      waitingFor: 'permission prompt',
      ...extra,
    },
  }) as unknown as ClaudeSessionView;

const input = (sessions: SessionView[], by: Record<string, ClaudeSessionView>): AttentionInput => ({
  sessions: { version: 1, sessions, problems: [], derivedAt: 0 },
  teams: EMPTY_TEAMS,
  cancels: { version: 0, entries: new Map() },
  cancelRecords: EMPTY_CANCEL_RECORDS,
  problems: [],
  claude: {
    version: 1,
    configDir: '/c',
    rule: 'test',
    bySession: new Map(Object.entries(by)),
    problems: [],
    registryMissing: false,
  } as ClaudeSnapshot,
});

describe('what needs you', () => {
  it('Claude waiting for you: one item, named by the session, its tmux window and what it waits on', () => {
    const [n, ...rest] = agentNeeds(session(true), claude('waiting', 1000));
    expect(rest).toEqual([]);
    expect(n).toMatchObject({
      id: `waiting:${SID}@1000`,
      kind: 'waiting',
      reason: 'waiting for you',
      waitingOn: 'permission prompt',
      name: 'fix-login',
      tmux: 'main:@3',
      since: 1000,
      action: 'jump',
      path: `state/sessions/${SID}/ralph-state.json`,
    });
    // A new waiting episode (the registry's status time moved) is a new occurrence.
    expect(agentNeeds(session(true), claude('waiting', 2000))[0]?.id).toBe(`waiting:${SID}@2000`);
  });

  it('an orphaned loop is named by the process that died; busy or no loop is nothing', () => {
    expect(agentNeeds(session(true), claude('gone', 5))).toMatchObject([
      { kind: 'orphaned', id: `orphaned:${SID}/ralph@4242:777`, action: 'cancel', mode: 'ralph' },
    ]);
    expect(agentNeeds(session(true), claude('busy', 5))).toEqual([]);
    expect(agentNeeds(session(false), claude('gone', 5))).toEqual([]);
  });

  it('Claude idle while its loop is active needs you (the row\'s "!idle" is counted)', () => {
    const v = attentionOf(input([session(true)], { [SID]: claude('idle', 9) }));
    expect(v.count).toBe(1);
    expect(v.open[0]).toMatchObject({ kind: 'idle-loop', reason: 'idle loop', id: `idle-loop:${SID}/ralph@9` });
  });

  it('oldest first; acknowledged items are listed apart and not counted; a new occurrence counts again', () => {
    const other = '99999999-2222-4333-8444-555555555555';
    const sessions = [session(true), session(true, other)];
    const by = { [SID]: claude('waiting', 3000), [other]: { ...claude('gone', 100), sessionId: other } };
    const v = attentionOf(input(sessions, by as Record<string, ClaudeSessionView>));
    expect(v.open.map((n) => n.kind)).toEqual(['orphaned', 'waiting']);
    const acked = new Set([v.open[1]!.id]);
    const w = splitAcked([...v.open], (id) => acked.has(id));
    expect(w).toMatchObject({ count: 1, open: [{ kind: 'orphaned' }], acked: [{ kind: 'waiting' }] });
    // The same session waits again later: a new id, not acknowledged.
    const again = attentionOf(input(sessions, { ...by, [SID]: claude('waiting', 4000) }), (id) => acked.has(id));
    expect(again.count).toBe(2);
  });

  it('a stalled team is one item; a dead worker of a team that lives is its own', () => {
    const worker = (name: string, pidAlive: boolean, beat: number) => ({
      name,
      state: 'working',
      pidAlive,
      heartbeat: { pid: 10, lastBeatMs: beat, turnCount: 1, reportedAlive: true },
    });
    const team = (stalled: boolean, workers: unknown[]) =>
      ({
        key: 't',
        name: 't',
        dir: 'state/team/t',
        phase: 'executing',
        stalled,
        phaseHistory: [],
        workers,
        owner: {
          sessionId: 's1',
          source: 'team-state.json',
          modePath: 'state/sessions/s1/team-state.json',
          modeActive: true,
        },
      }) as unknown as TeamView;
    expect(teamNeeds(team(true, [worker('w1', false, 50), worker('w2', false, 70)]))).toMatchObject([
      { kind: 'team-stalled', id: 'team-stalled:t@70', worker: null },
    ]);
    expect(teamNeeds(team(false, [worker('w1', false, 50), worker('w2', true, 70)]))).toMatchObject([
      { kind: 'worker-dead', worker: 'w1', id: 'worker-dead:t/w1@10' },
    ]);
  });

  it("a stalled team run by a session's active team mode: c cancels that mode; once the mode ended it no longer counts", () => {
    const dead = { name: 'w1', state: 'working', pidAlive: false, heartbeat: { pid: 10, lastBeatMs: 50 } };
    const team = (owner: object | null) =>
      ({
        key: 'fix',
        name: 'fix',
        dir: 'state/team/fix',
        phase: 'executing',
        stalled: true,
        phaseHistory: [],
        workers: [dead],
        owner,
      }) as unknown as TeamView;
    const mode = (modeActive: boolean) => ({
      sessionId: 's1',
      source: 'team-state.json',
      modePath: 'state/sessions/s1/team-state.json',
      modeActive,
    });
    const running = teamNeeds(team(mode(true)));
    expect(running).toMatchObject([{ kind: 'team-stalled', session: 's1', mode: 'team', team: 'fix' }]);
    expect(running[0]!.text).toMatch(
      /c cancels its session's team mode; `omc team shutdown fix` shuts its workers down/,
    );
    // The mode ended (set inactive), or its file is gone and nothing else names a session: no longer counted.
    expect(teamNeeds(team(mode(false)))).toEqual([]);
    expect(teamNeeds(team(null))).toEqual([]);
    // A leader named in the config with no mode state (the CLI's team): nothing of omc-top's to cancel; OMC's command.
    const cli = teamNeeds(
      team({ sessionId: 's1', source: 'config.leader_session_id', modePath: null, modeActive: null }),
    );
    expect(cli).toMatchObject([{ kind: 'team-stalled', mode: null }]);
    expect(cli[0]!.text).toMatch(/`omc team shutdown fix` shuts its workers down and removes state\/team\/fix\//);
  });

  it('tmux windows: the pane is dropped, odd values kept as they are', () => {
    expect(tmuxWindow('main:@3.%7')).toBe('main:@3');
    expect(tmuxWindow(null)).toBeNull();
  });
});
