/**
 * The session detail gives one piece of advice for a prompt Claude waits on: while omc-top holds it to answer (the
 * hook handed it over), y / n here first and Claude's terminal (J) as the other way; while it does not, only the
 * terminal (J). Before, with the prompt handed over, it said both "answer it in its terminal (J jumps…)" and
 * "y allow · n deny" as if each were the only way.
 */
import path from 'node:path';
import { writeRegistry } from '../helpers/claude-files.js';
import { answeringStore, loopWithClaudes } from '../helpers/claude-registry-rig.js';
import { describe, expect, it, KEY } from '../helpers/it.js';
import { askPermission } from '../helpers/permission-ask.js';

const S = 'eeeeeeee-1111-4222-8333-444444444444';
const TERMINAL_ONLY = /: answer it in its terminal \(J jumps to its tmux pane\)/;
const BOTH = 'y allow · n deny here (below), or answer it in its terminal (J jumps to its tmux pane)';

describe("the session detail's advice for a waiting Claude", () => {
  it('offers y / n with J as the alternative while omc-top can answer, only J while it cannot', async ({
    emptyProject: p,
    claudeDir,
    tempDir,
    newStore,
    mount,
  }) => {
    const pool = loopWithClaudes(p, S, 100);
    const pid = (await pool.start()).pid as number;
    writeRegistry(claudeDir, pid, S, {
      status: 'waiting',
      waitingFor: 'permission prompt',
      cwd: p.dir,
      tmux: 'main:@1.%1',
      name: 'proj-e',
    });
    const xdg = tempDir();
    const store = answeringStore({ newStore, claudeDir }, p, xdg);
    const a = mount(store, { columns: 200, rows: 40 });
    await a.ready;
    await a.waitForText(/eeeeeeee/);
    await a.step(KEY.enter);
    await a.waitForText(`Session ${S}`);
    // Nothing handed over: Claude's terminal is the only way.
    await a.waitForText(TERMINAL_ONLY);
    expect(a.text()).not.toContain('y allow');

    const hook = askPermission({
      env: { CLAUDE_CONFIG_DIR: claudeDir, XDG_STATE_HOME: xdg, HOME: p.dir, CLAUDE_PID: String(pid) },
      session: S,
      cwd: p.dir,
      command: 'touch e.txt',
      transcriptPath: path.join(claudeDir, 'projects', 'p', `${S}.jsonl`),
    });
    await a.waitForText('! Claude asks permission: Bash touch e.txt');
    await a.waitForText(BOTH);
    // Every line that advises on the prompt offers y / n first: none says the terminal alone.
    expect(a.lines().filter((l) => TERMINAL_ONLY.test(l) && !l.includes('y allow'))).toEqual([]);
    await a.step('n');
    expect((await hook).outcome).toBe('deny');
  });
});
