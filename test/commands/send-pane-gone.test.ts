/**
 * `omc-top send --pane` to a session whose Claude is gone: the reason said is that the Claude is gone (there is no
 * Claude to type into), inside tmux or not; before, it was "not in tmux" outside tmux and "no pane to jump to"
 * inside, and with a pane named it would have typed the note into the shell left in that pane.
 */
import { describe, expect, it } from '../helpers/it.js';
import { runSendCommand } from '../../src/commands/send.js';
import { DEAD_PID, writeRegistry } from '../helpers/claude-files.js';

const S = 'dddddddd-1111-4222-8333-444444444444';

describe('send --pane to a Claude that is gone', () => {
  it.for([
    { where: 'outside tmux', tmux: undefined },
    { where: 'inside tmux', tmux: '/tmp/omc-top-no-such-tmux-socket,1,0' },
  ])('$where: says the Claude process is gone, first', async ({ tmux }, { claudeDir, emptyProject }) => {
    writeRegistry(claudeDir, DEAD_PID, S, {
      status: 'idle',
      cwd: emptyProject.dir,
      procStart: '12345',
      tmux: 'main:@3.%7',
    });
    const out: string[] = [];
    const err: string[] = [];
    const env: NodeJS.ProcessEnv = { CLAUDE_CONFIG_DIR: claudeDir, HOME: emptyProject.dir, PATH: process.env.PATH };
    if (tmux) env.TMUX = tmux;
    const code = await runSendCommand([S, 'hello', '--pane'], {
      out: (s) => void out.push(s),
      err: (s) => void err.push(s),
      env,
    });
    expect(code).toBe(1);
    expect(err.join('')).toMatch(
      new RegExp(
        `^omc-top send: its Claude process \\(pid ${DEAD_PID}\\) is gone: there is no Claude to type the note into`,
      ),
    );
    expect(err.join('')).not.toMatch(/not in tmux|no pane to jump to/);
  });
});
