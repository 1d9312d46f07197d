/**
 * The prompt omc-top's permission hook holds is the truth about the Claude that asked: with two Claudes on one
 * session (the loop's Claude A, `claude --resume` B beside it, B the one shown), A's registry entry may still say
 * `idle` when the hook hands its prompt over (Claude Code writes `waiting` on its own time). Needs you then held two
 * items for the one prompt (B's "idle loop" and the prompt) until the registry said `waiting`; it holds one, the
 * session's waiting item credited to A, and the session reads as waiting. One Claude alone, its entry stale, the same.
 */
import path from 'node:path';
import { attentionReport } from '../../src/feeds/attention/report.js';
import { lifeOf } from '../../src/store/claude/life.js';
import { answerPermission } from '../../src/store/permissions/answer.js';
import {
  answeringStore,
  loopWithClaudes,
  twoClaudesOneWaiting,
  writeAskerEntry,
} from '../helpers/claude-registry-rig.js';
import { writeRegistry } from '../helpers/claude-files.js';
import { describe, expect, it } from '../helpers/it.js';
import { askPermission } from '../helpers/permission-ask.js';
import { waitFor } from '../helpers/fixtures.js';

const S = 'eeeeeeee-1111-4222-8333-444444444444';

describe("a held prompt whose Claude's registry entry still says idle", () => {
  it('two Claudes on the session: one needs-you item, the prompt, credited to the Claude that asked', async ({
    emptyProject: p,
    claudeDir,
    tempDir,
    newStore,
  }) => {
    // Both entries say idle: A has asked, but its entry is not rewritten yet.
    const { asker, resumed } = await twoClaudesOneWaiting(loopWithClaudes(p, S, 100), claudeDir, p, S, 'idle');
    const xdg = tempDir();
    const env: NodeJS.ProcessEnv = { CLAUDE_CONFIG_DIR: claudeDir, XDG_STATE_HOME: xdg, HOME: p.dir };
    const store = answeringStore({ newStore, claudeDir }, p, xdg);
    expect(store.claude.getSnapshot().bySession.get(S)?.process?.pid).toBe(resumed);
    const before = attentionReport(store, env).items.filter((i) => i.session === S);
    expect(before.map((i) => i.kind)).toEqual(['idle-loop']);

    const hook = askPermission({
      env: { ...env, CLAUDE_PID: String(asker) },
      session: S,
      cwd: p.dir,
      command: 'touch stale.txt',
      transcriptPath: path.join(claudeDir, 'projects', 'p', `${S}.jsonl`),
    });
    await waitFor(() => store.permissions.getSnapshot().requests.length === 1, { what: 'the request' });
    const items = attentionReport(store, env).items.filter((i) => i.session === S);
    expect(items.map((i) => i.kind)).toEqual(['waiting']);
    expect(items[0]).toMatchObject({ name: 'proj-a', tmux: 'ta-main:@1' });
    expect(lifeOf(store.claude.getSnapshot().bySession.get(S)).status).toBe('waiting');

    // Claude Code catches up and writes `waiting` a moment after the prompt: the same wait, the same item (its id
    // carries its date: a new id would be told again by notifications and push).
    const heldId = items[0]!.id;
    writeAskerEntry(claudeDir, asker, S, p, {
      status: 'waiting',
      waitingFor: 'permission prompt',
      statusUpdatedAt: Date.now() + 1_000,
      // A name of its own, so the wait below knows this entry was read.
      name: 'proj-a (asking)',
    });
    await waitFor(
      () => {
        const snap = store.claude.getSnapshot();
        const shown = snap.bySession.get(S)?.process;
        const pv = shown?.pid === asker ? shown : snap.others?.get(asker);
        return pv?.status === 'waiting' && pv.name === 'proj-a (asking)';
      },
      { what: "the asker's entry read as waiting" },
    );
    expect(
      attentionReport(store, env)
        .items.filter((i) => i.session === S)
        .map((i) => i.id),
    ).toEqual([heldId]);

    // Answered: the hook lets go, and the session is what its registry says again (idle, its loop idle).
    expect(
      answerPermission(store.permissions.stateDir, store.permissions.getSnapshot().requests[0]!, 'deny', {
        claudeEnv: env,
      }),
    ).toMatchObject({ ok: true });
    expect((await hook).outcome).toBe('deny');
    // Claude Code writes its entry again once the prompt is answered.
    writeAskerEntry(claudeDir, asker, S, p, { status: 'idle', statusUpdatedAt: Date.now() + 2_000 });
    await waitFor(() => store.permissions.getSnapshot().requests.length === 0, { what: 'the request gone' });
    await waitFor(
      () =>
        attentionReport(store, env)
          .items.filter((i) => i.session === S)
          .map((i) => i.kind)
          .join() === 'idle-loop',
      { what: 'the idle loop again' },
    );
  });

  it('one Claude on the session: one item, the prompt', async ({ emptyProject: p, claudeDir, tempDir, newStore }) => {
    const pool = loopWithClaudes(p, S, 100);
    const only = (await pool.start()).pid as number;
    writeRegistry(claudeDir, only, S, { status: 'idle', cwd: p.dir, tmux: 'ta-main:@1.%1', name: 'proj-a' });
    const xdg = tempDir();
    const env: NodeJS.ProcessEnv = { CLAUDE_CONFIG_DIR: claudeDir, XDG_STATE_HOME: xdg, HOME: p.dir };
    const store = answeringStore({ newStore, claudeDir }, p, xdg);
    const hook = askPermission({
      env: { ...env, CLAUDE_PID: String(only) },
      session: S,
      cwd: p.dir,
      command: 'touch alone.txt',
    });
    await waitFor(() => store.permissions.getSnapshot().requests.length === 1, { what: 'the request' });
    const items = attentionReport(store, env).items.filter((i) => i.session === S);
    expect(items.map((i) => i.kind)).toEqual(['waiting']);
    expect(
      answerPermission(store.permissions.stateDir, store.permissions.getSnapshot().requests[0]!, 'deny', {
        claudeEnv: env,
      }),
    ).toMatchObject({ ok: true });
    expect((await hook).outcome).toBe('deny');
  });
});
