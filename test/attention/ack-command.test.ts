/**
 * `omc-top ack <item-id>…` (what a fleet or serve page on another machine runs over ssh): the ids land in
 * omc-top's acknowledgements file for the project, which `status --tmux` then leaves out of its count; a
 * malformed id, no id or no `.omc` is a usage error (exit 2) and writes nothing, and so is an id no item has now
 * (mistyped, or its condition ended): the refusal names it and lists the ids `--json` lists.
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
    // Shaped as an item, named by none: refused in words, with the id that does hold, and nothing written.
    const nothing = `orphaned:${sessionId(932)}/ralph@1:2`;
    const none = await omcTop('ack', nothing, '--root', p.root);
    expect(none.code).toBe(2);
    expect(none.out).toBe('');
    expect(none.err).toContain(`omc-top ack: no item has the id "${nothing}" now (nothing acknowledged)`);
    expect(none.err).toContain(`\n  ${id}\n`);
    expect(none.err).toContain('omc-top --json lists them (attention.items[].id)');
    expect(fs.existsSync(file)).toBe(false);
    // One good id beside it takes nothing either: the refusal is the whole answer.
    expect((await omcTop('ack', id, nothing, '--root', p.root)).code).toBe(2);
    expect(fs.existsSync(file)).toBe(false);

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

    // The loop gone (its session's files removed): its item has ended, and its id names nothing now.
    fs.rmSync(path.join(p.root, 'state', 'sessions', loop), { recursive: true, force: true });
    const gone = await omcTop('ack', id, '--root', p.root);
    expect(gone).toMatchObject({ code: 2, out: '' });
    expect(gone.err).toBe(
      `omc-top ack: no item has the id "${id}" now (nothing acknowledged)\nomc-top ack: nothing needs you here now\n`,
    );
  });
});
