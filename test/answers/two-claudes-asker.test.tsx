/**
 * Two Claudes on one session (the loop's Claude, and `claude --resume <same id>` in another tmux window): a permission
 * prompt is credited to the Claude that asked (the request's `claude_pid`), not to the session's newest process. Its
 * name and tmux pane are the asker's in the `!` list, in the needs-you item (`--json`'s attention), in the session's
 * detail, and J goes to its pane. The tester's case: the prompt of pid A showed B's name, B's window, and J went to B.
 */
import path from 'node:path';
import { answerInputOf, answerItems } from '../../src/feeds/answers/items.js';
import { attentionReport } from '../../src/feeds/attention/report.js';
import { answeringStore, loopWithClaudes, twoClaudesOneWaiting } from '../helpers/claude-registry-rig.js';
import { describe, expect, it, KEY, onTestFinished } from '../helpers/it.js';
import { askPermission } from '../helpers/permission-ask.js';
import { waitFor } from '../helpers/fixtures.js';

const S = 'ffffffff-1111-4222-8333-444444444444';

describe('a permission prompt of one of two Claudes on a session', () => {
  it('names the Claude that asked and its pane on every surface, and J goes there', async ({
    emptyProject: p,
    claudeDir,
    tempDir,
    newStore,
    mount,
  }) => {
    // A, the loop's Claude, waits on the prompt in window 1; B, resumed later in window 2, is idle (and the newer).
    const { asker, resumed } = await twoClaudesOneWaiting(loopWithClaudes(p, S, 100), claudeDir, p, S);
    const xdg = tempDir();
    const env: NodeJS.ProcessEnv = { CLAUDE_CONFIG_DIR: claudeDir, XDG_STATE_HOME: xdg, HOME: p.dir };
    const store = answeringStore({ newStore, claudeDir }, p, xdg);
    expect(store.claude.getSnapshot().bySession.get(S)?.process?.pid).toBe(resumed);

    const hook = askPermission({
      env: { ...env, CLAUDE_PID: String(asker) },
      session: S,
      cwd: p.dir,
      command: 'touch other.txt',
      transcriptPath: path.join(claudeDir, 'projects', 'p', `${S}.jsonl`),
    });
    await waitFor(() => store.permissions.getSnapshot().requests.length === 1, { what: 'the request' });

    // The `!` list's item and its detail.
    const [item] = answerItems(answerInputOf(store));
    expect(item?.text).toMatch(/— proj-a \(ffffffff\)/);
    expect(item?.detail.join('\n')).toMatch(/\(proj-a\)/);
    expect(JSON.stringify(item)).not.toMatch(/proj-b/);
    // Needs you (what --json and watch --json list): the asker's name and tmux window.
    // One item for the session, the prompt (A's registry says it waits: the session's own waiting item counts it).
    const items = attentionReport(store, { ...env, XDG_STATE_HOME: xdg }).items.filter((i) => i.session === S);
    expect(items.map((i) => i.kind)).toEqual(['waiting']);
    const need = items[0];
    expect(need).toMatchObject({ name: 'proj-a', tmux: 'ta-main:@1' });
    // The place in the words a session's own waiting item uses (4b: one form on every item).
    expect(need?.text).toContain('(session proj-a · tmux ta-main:@1)');

    // The monitor: the inbox names A; the session's detail says A asks; J goes to A's pane (%1), not B's (%2).
    const a = mount(store, { columns: 160, rows: 30 });
    await a.ready;
    await a.step('!');
    await a.waitForText(/» permission: Bash touch other\.txt — proj-a \(ffffffff\)/);
    expect(a.text()).not.toMatch(/proj-b/);
    await a.step(KEY.esc);
    await a.waitForText(/ffffffff/);
    await a.step(KEY.enter);
    await a.waitForText(`asked by pid ${asker} (session proj-a · tmux ta-main:@1)`);
    // A tmux server that is not there: the plan names the pane it looked for, which is the asker's.
    const tmux = process.env.TMUX;
    process.env.TMUX = `${path.join(tempDir(), 'no-server')},1,0`;
    onTestFinished(() => {
      if (tmux === undefined) delete process.env.TMUX;
      else process.env.TMUX = tmux;
    });
    await a.step('J');
    await a.waitForText(/jump: pane %1 is on another tmux server/);
    await a.step('n');
    expect((await hook).outcome).toBe('deny');
  });
});
