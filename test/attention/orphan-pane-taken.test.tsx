/**
 * An orphaned loop whose tmux pane now runs another Claude: the loop's Claude was `kill -9`ed in pane %0, and a plain
 * `claude` (a session of its own) was started in the same pane. J would land in that other session's prompt, so
 * nothing offers J there: every surface that carries the advice says the pane runs another Claude (its name and pid)
 * and that r resumes the loop in a new window; J says the same instead of jumping. The tester's case: the detail said
 * "J to its tmux pane to resume it" and J switched to the other session's prompt.
 */
import path from 'node:path';
import { attentionReport } from '../../src/feeds/attention/report.js';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { attentionFor } from '../../src/store/claude/attention.js';
import { planJump } from '../../src/store/claude/jump.js';
import { DEAD_PID, writeRegistry } from '../helpers/claude-files.js';
import { attentionEnv, loopWithClaudes, registryStore } from '../helpers/claude-registry-rig.js';
import { describe, expect, it, KEY, onTestFinished } from '../helpers/it.js';
import { waitFor } from '../helpers/fixtures.js';

const S = 'abababab-1111-4222-8333-444444444444';
const OTHER = 'cdcdcdcd-1111-4222-8333-555555555555';
const PANE = 'ta-main:@0.%0';

describe('an orphaned loop whose tmux pane now runs another Claude', () => {
  it('says so and points to r on every surface; J does not jump into the other session', async ({
    emptyProject: p,
    claudeDir,
    tempDir,
    newStore,
    mount,
  }) => {
    const pool = loopWithClaudes(p, S, 100);
    // The loop's Claude, killed in pane %0 (its entry left behind), and a plain claude started in the same pane since.
    writeRegistry(claudeDir, DEAD_PID, S, {
      status: 'busy',
      cwd: p.dir,
      procStart: '5',
      tmux: PANE,
      name: 'proj-14',
      startedAt: Date.now() - 600_000,
    });
    const other = (await pool.start()).pid as number;
    writeRegistry(claudeDir, other, OTHER, { status: 'idle', cwd: p.dir, tmux: PANE, name: 'proj-x' });
    const said = `its pane now runs another Claude (proj-x, pid ${other}): r resumes this loop in a new window`;
    const env = attentionEnv({ claudeDir, tempDir });
    const store = registryStore({ newStore, claudeDir }, p);

    // The domain's view: the dead process knows who holds its pane now.
    const proc = store.claude.getSnapshot().bySession.get(S)?.process ?? null;
    expect(proc?.status).toBe('gone');
    const session = store.sessions.getSnapshot().sessions.find((s) => s.id === S);
    if (!session) throw new Error('no session');
    const [fact] = attentionFor(session, proc, null);
    expect(fact?.kind).toBe('orphaned-loop');
    expect(fact?.paneKnown).toBe(false);
    // The notification points to r, not J.
    expect(fact?.notice).toContain('r resumes it');
    expect(fact?.notice).not.toContain('J to its pane');

    // --json / watch --json: the item's text carries the advice.
    const item = attentionReport(store, env).items.find((i) => i.session === S);
    expect(item?.kind).toBe('orphaned');
    expect(item?.text).toContain(said);

    // J's plan: a tmux whose pane %0 sits where the registry says (it would be jumped to) is not jumped to.
    const plan = planJump(proc!, { TMUX: '/tmp/no-such-tmux,1,0' }, () => ({ status: 0, stdout: 'ta-main\t@0\n' }));
    expect(plan.ok).toBe(false);
    expect(plan.ok ? '' : plan.reason).toContain(said);

    // The monitor: the session's detail says it, and not "J to its tmux pane"; J flashes it.
    const tmux = process.env.TMUX;
    process.env.TMUX = `${path.join(tempDir(), 'no-server')},1,0`;
    onTestFinished(() => {
      if (tmux === undefined) delete process.env.TMUX;
      else process.env.TMUX = tmux;
    });
    const monitor = new AttentionMonitor(store);
    const a = mount(store, {
      columns: 200,
      rows: 40,
      attention: { monitor, notifier: { isEnabled: () => true, setEnabled: () => undefined } },
    });
    await a.ready;
    await a.waitForText(/abababab/);
    while (!a.lines().some((l) => /▸.*abababab/.test(l))) await a.step('j');
    await a.step(KEY.enter);
    await a.waitForText(`Session ${S}`);
    await a.waitForText(said);
    expect(a.text()).not.toContain('J to its tmux pane');
    await a.step('J');
    await a.waitForText(`jump: ${said}`);

    // The ! inbox: J is not offered for the item; pressed, it says the same.
    await a.step(KEY.esc);
    await a.step('!');
    await a.waitForText(/orphaned loop/);
    await waitFor(() => a.text().includes(said), { what: 'the advice in the item’s detail' });
    const footer =
      a
        .lines()
        .filter((l) => l.trim() !== '')
        .at(-1) ?? '';
    expect(footer).not.toMatch(/J jump/);
    await a.step('J');
    await a.waitForText(`jump: ${said}`);
  });
});
