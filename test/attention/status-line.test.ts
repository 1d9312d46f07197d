/** `omc-top status --tmux`: the line tmux shows, from one read of a real-shaped tree. */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../src/commands/args.js';
import { runStatusCommand } from '../../src/commands/status.js';
import { statusCacheName, statusCacheText } from '../../src/feeds/attention/status-cache.js';
import { atomicWriteSync, ensureOwnDir } from '../../src/io/safe-fs/index.js';
import type { RulesVersion } from '../../src/store/verdict/types.js';
import { writeFreshUltrawork, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';

const SID = '11111111-2222-4333-8444-555555555555';
function ralph(p: TempProject, iteration: number, max: number): void {
  const now = new Date().toISOString();
  writeOmcJson(path.join(p.root, 'state', 'sessions', SID, 'ralph-state.json'), {
    active: true,
    // Top-level session_id, as OMC's keyword detector writes it: the Stop hook enforces this loop.
    session_id: SID,
    iteration,
    max_iterations: max,
    started_at: now,
    prompt: 'ralph do it',
    _meta: { mode: 'ralph', sessionId: SID, updatedAt: now, updatedBy: 'state_write_tool' },
  });
}

function status(p: TempProject, ...argv: string[]): { code: number; out: string } {
  let out = '';
  const code = runStatusCommand(argv, {
    out: (s) => void (out += s),
    err: () => {},
    cwd: p.dir,
    // A scratch state directory: no monitor's cache, no acknowledgements from this machine.
    env: { ...process.env, XDG_STATE_HOME: path.join(p.dir, 'xdg-state') },
  });
  return { code, out };
}

describe('omc-top status', () => {
  it('shows the running loop with its progress; a loop at its max is news, not counted', ({ emptyProject: p }) => {
    expect(status(p, '--tmux').out).toBe('no loops · needs you: 0\n');
    ralph(p, 2, 5);
    expect(status(p, '--tmux').out).toBe('ralph 2/5 · needs you: 0\n');
    ralph(p, 5, 5);
    expect(status(p, '--tmux')).toEqual({ code: 0, out: 'ralph 5/5 · needs you: 0\n' });
  });

  it('fills a format; with --tmux a "#" is doubled; control bytes never pass', ({ emptyProject: p }) => {
    ralph(p, 1, 3);
    expect(status(p, '--tmux', '--format', '#[fg=red]{active} {needs}\u001b]2;x\u0007').out).toBe('##[fg=red]1 0\n');
    expect(status(p, '--format', '#{active}').out).toBe('#1\n');
    expect(() => status(p, '--format', '{lops}')).toThrow(UsageError);
  });
});

describe('omc-top status --omc-version and the status cache', () => {
  const SID = 'dddddddd-dddd-4ddd-addd-dddddddddddd';
  /** What a live monitor that judged by `book` keeps (this process is its writer: alive while the test runs). */
  function monitorCache(p: TempProject, root: string, book: RulesVersion | null): void {
    const dir = path.join(p.dir, 'xdg-state', 'omc-top');
    const values = { loops: 'from the cache', active: 1, needs: 0, project: 'p' };
    const text = statusCacheText(root, values, null, Date.now(), book);
    if (text === null) throw new Error('this platform cannot prove a writer alive: no status cache');
    ensureOwnDir(dir);
    atomicWriteSync(dir, statusCacheName(root), text);
  }

  it("takes a monitor's line only when it judged by the pinned book", ({ emptyProject: p }) => {
    // 4.15's Stop hook enforces this ultrawork; 5.5 retired ultrawork.
    writeFreshUltrawork(p, SID);
    const root = fs.realpathSync(p.root);
    const pinned = (v: string) => status(p, '--tmux', '--root', root, '--omc-version', v).out;
    monitorCache(p, root, '4.15.10');
    expect(status(p, '--tmux', '--root', root).out).toBe('from the cache · needs you: 0\n');
    expect(pinned('4.15.10')).toBe('from the cache · needs you: 0\n');
    expect(pinned('v4.15.10')).toBe('from the cache · needs you: 0\n');
    expect(pinned('5.5.0')).toBe('no loops · needs you: 0\n');
    // A monitor that found no OMC (every book read, the newest assumed) judged by no one book.
    monitorCache(p, root, null);
    expect(pinned('5.5.0')).toBe('no loops · needs you: 0\n');
    expect(pinned('4.15.10')).toBe('ultrawork 7/50 · needs you: 0\n');
    monitorCache(p, root, '5.5.0');
    expect(pinned('5.5.0')).toBe('from the cache · needs you: 0\n');
    expect(pinned('4.15.10')).toBe('ultrawork 7/50 · needs you: 0\n');
    expect(() => pinned('5.5')).toThrow(new UsageError('--omc-version needs a version like 5.5.0 or 4.4.4, not "5.5"'));
  });
});
