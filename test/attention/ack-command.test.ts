/**
 * `omc-top ack <item-id>…` (what a fleet or serve page on another machine runs over ssh): the ids land in
 * omc-top's acknowledgements file for the project, which `status --tmux` then leaves out of its count; a
 * malformed id, no id or no `.omc` is a usage error (exit 2) and writes nothing.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ackFileName, parseAcks } from '../../src/feeds/attention/acks.js';
import { DEAD_PID, writeRegistry } from '../helpers/claude-files.js';
import { REPO } from '../helpers/fixtures.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { describe, expect, it } from '../helpers/it.js';

const run = promisify(execFile);
const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');

describe('omc-top ack', () => {
  it('records the ids for the project (status --tmux counts one fewer); bad input is exit 2 and writes nothing', async ({
    emptyProject: p,
    tempDir,
    claudeDir,
  }) => {
    const state = tempDir('omc-top-ack-state-');
    const env = { PATH: process.env.PATH, HOME: state, XDG_STATE_HOME: state, CLAUDE_CONFIG_DIR: claudeDir };
    const omcTop = (...args: string[]) =>
      run(process.execPath, [BUNDLE, ...args], { env }).then(
        (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
      );
    const loop = sessionId(931);
    makeLive(p.root, loop);
    writeRegistry(claudeDir, DEAD_PID, loop, { status: 'busy', cwd: p.dir, procStart: '12345' });
    const before = await omcTop('status', '--tmux', '--format', '{needs}', '--root', p.root);
    expect(before.out.trim()).toBe('1');
    const watch = await omcTop('--json', '--root', p.root);
    const id = (JSON.parse(watch.out) as { attention: { items: { id: string }[] } }).attention.items[0]?.id ?? '';
    expect(id).toMatch(new RegExp(`^orphaned:${loop}/ralph@`));

    const file = path.join(state, 'omc-top', ackFileName(p.root));
    for (const bad of [[], ['not-an-item'], ['waiting:x\u001b[2J@1'], ['--evil']]) {
      const r = await omcTop('ack', ...bad, '--root', p.root);
      expect(r.code, JSON.stringify(bad)).toBe(2);
      expect(fs.existsSync(file)).toBe(false);
    }
    expect((await omcTop('ack', id, '--cwd', path.join(p.dir, 'nowhere'))).code).toBe(2);

    const ok = await omcTop('ack', id, '--root', p.root);
    expect(ok).toMatchObject({ code: 0, out: 'acknowledged 1 item\n' });
    // The same id again: recorded already, and said so (no claim of a change).
    expect(await omcTop('ack', id, '--root', p.root)).toMatchObject({
      code: 0,
      out: 'already acknowledged: 1 item (nothing changed)\n',
    });
    const acks = parseAcks(fs.readFileSync(file, 'utf8'));
    expect(acks.ok && [...acks.acks.keys()]).toEqual([id]);
    const after = await omcTop('status', '--tmux', '--format', '{needs}', '--root', p.root);
    expect(after.out.trim()).toBe('0');
  });
});
