/**
 * Two Claudes on one session (the loop's Claude A, and `claude --resume <same id>` in another window, B, the newer, so
 * the one the session's row shows): while A waits on a permission prompt and B is idle, the session needs you for
 * the prompt, once. The row says `!waiting`, not `!idle`; needs you holds one item, "waiting for you" with A's name
 * and window, and no "idle loop" for B; the fleet's row says waiting; the detail says which process each key acts
 * on (J goes to A, m and I to B). The tester's case: the row said `!idle` and an idle loop item was counted beside
 * the prompt.
 */
import path from 'node:path';
import { attentionReport } from '../../src/feeds/attention/report.js';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { rowOf } from '../../src/feeds/row.js';
import { answeringStore, loopWithClaudes, twoClaudesOneWaiting } from '../helpers/claude-registry-rig.js';
import { describe, expect, it, KEY } from '../helpers/it.js';
import { askPermission } from '../helpers/permission-ask.js';
import { waitFor } from '../helpers/fixtures.js';

const S = 'fefefefe-1111-4222-8333-444444444444';

describe('two Claudes on a session, the one not shown waiting on a prompt', () => {
  it('the session needs you for the prompt once: !waiting, no idle loop, and the keys say whom they act on', async ({
    emptyProject: p,
    claudeDir,
    tempDir,
    newStore,
    mount,
  }) => {
    const { asker, resumed } = await twoClaudesOneWaiting(loopWithClaudes(p, S, 100), claudeDir, p, S);
    const xdg = tempDir();
    const env: NodeJS.ProcessEnv = { CLAUDE_CONFIG_DIR: claudeDir, XDG_STATE_HOME: xdg, HOME: p.dir };
    const store = answeringStore({ newStore, claudeDir }, p, xdg);
    const claude = store.claude.getSnapshot().bySession.get(S);
    expect(claude?.process?.pid).toBe(resumed);

    // Needs you (--json, watch --json, the title, status --tmux): one item, the prompt, credited to A.
    const items = () => attentionReport(store, env).items.filter((i) => i.session === S);
    expect(items().map((i) => i.kind)).toEqual(['waiting']);
    expect(items()[0]).toMatchObject({ reason: 'waiting for you', name: 'proj-a', tmux: 'ta-main:@1' });
    expect(attentionReport(store, env).needs_you).toBe(1);
    // The fleet's and watch --json --rows' row: waiting, with its need.
    const session = store.sessions.getSnapshot().sessions.find((s) => s.id === S);
    if (!session) throw new Error('no session');
    expect(rowOf(session, claude, Date.now()).process).toBe('waiting');

    // The prompt handed over by the hook: still one item for the session (the prompt), no idle loop beside it.
    const hook = askPermission({
      env: { ...env, CLAUDE_PID: String(asker) },
      session: S,
      cwd: p.dir,
      command: 'touch other.txt',
      transcriptPath: path.join(claudeDir, 'projects', 'p', `${S}.jsonl`),
    });
    await waitFor(() => store.permissions.getSnapshot().requests.length === 1, { what: 'the request' });
    expect(items().map((i) => i.kind)).toEqual(['waiting']);
    expect(attentionReport(store, env).needs_you).toBe(1);

    // The monitor: the row says !waiting; the detail says J goes to A, m and I act on B.
    const monitor = new AttentionMonitor(store);
    const a = mount(store, {
      columns: 200,
      rows: 40,
      attention: { monitor, notifier: { isEnabled: () => true, setEnabled: () => undefined } },
    });
    await a.ready;
    await a.waitForText(/fefefefe/);
    const row = () => a.lines().find((l) => l.includes('fefefefe')) ?? '';
    await waitFor(() => /!waiting/.test(row()), { what: 'the row saying !waiting' });
    expect(row()).not.toMatch(/idle/);
    await a.step(KEY.enter);
    await a.waitForText(`Session ${S}`);
    await a.waitForText(
      `pid ${resumed} is the one shown: m and I act on it; J goes to pid ${asker}, which waits on a prompt`,
    );
    expect(a.text()).not.toMatch(/J, m and I act on it/);
    expect(a.text()).not.toMatch(/Claude is idle while ralph is active/);
    await a.step('n');
    expect((await hook).outcome).toBe('deny');
  });
});
