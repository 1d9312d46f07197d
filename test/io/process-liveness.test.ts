/**
 * A process that has ended runs nothing, even while its parent has not collected it: a SIGKILLed Claude Code CLI
 * under a tmux that missed the SIGCHLD stays a zombie for minutes (seen in the real-CLI resume test). Both ways
 * omc-top asks whether a process runs — by path and through a held descriptor — must say it does not, while the
 * OMC-form identity (what OMC's state locks compare) stays exactly what OMC reads.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessHolds, processStartIdentity, runningStartIdentity } from '../../src/io/process-start.js';
import { ClaudeDomain } from '../../src/store/claude/domain.js';
import { waitFor } from '../helpers/fixtures.js';

const linux = process.platform === 'linux';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** A child of a parent that never waits: `sh` starts it in the background, then becomes `sleep`. */
async function orphanableChild(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 300 & echo $!; exec sleep 300'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(parent);
  let out = '';
  parent.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const pid = await waitFor(() => /^(\d+)\n/.exec(out)?.[1], { what: 'the child pid' });
  return Number(pid);
}

const state = (pid: number): string | null => {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] ?? null;
  } catch {
    return null;
  }
};

describe.skipIf(!linux)('a process that ended but was not reaped (a zombie)', () => {
  it('runs nothing: by path and through the held descriptor it is gone; its OMC-form identity is unchanged', async () => {
    const pid = await orphanableChild();
    const identity = runningStartIdentity(pid);
    expect(identity).toMatch(/^\d+$/);
    const holds = new ProcessHolds();
    expect(holds.hold(pid, identity as string)).toBe(true);
    expect(holds.stillRunning(pid, identity as string)).toBe(true);

    process.kill(pid, 'SIGKILL');
    await waitFor(() => state(pid) === 'Z', { what: 'the killed child to be a zombie' });

    expect(runningStartIdentity(pid)).toBe('absent');
    expect(holds.stillRunning(pid, identity as string)).toBe(false);
    expect(holds.size).toBe(0);
    // A zombie is not held again.
    expect(holds.hold(pid, identity as string)).toBe(false);
    // OMC's own check reads the same field of the same file: it still sees this identity.
    expect(processStartIdentity(pid)).toBe(identity);
  });

  it("a Claude Code registry entry whose CLI is a zombie is 'gone' in the Claude view", async () => {
    const pid = await orphanableChild();
    const procStart = runningStartIdentity(pid) as string;
    const dir = fs.mkdtempSync('/tmp/omc-top-zombie-');
    try {
      fs.mkdirSync(`${dir}/sessions`);
      const sid = '11111111-2222-4333-8444-555555555555';
      fs.writeFileSync(
        `${dir}/sessions/${pid}.json`,
        JSON.stringify({ pid, sessionId: sid, cwd: dir, startedAt: Date.now(), procStart, status: 'busy' }),
      );
      const sessions = {
        getSnapshot: () => ({ sessions: [], version: 0 }),
        subscribe: () => () => {},
        setSessionInstalls: () => {},
        setSessionProcesses: () => {},
        setStopFacts: () => {},
      };
      const claude = new ClaudeDomain({
        config: { dir, rule: 'CLAUDE_CONFIG_DIR' },
        sessions: sessions as never,
        projectDir: null,
        live: false,
        transcripts: false,
      });
      claude.scan();
      expect(claude.getSnapshot().bySession.get(sid)?.process?.status).toBe('busy');
      process.kill(pid, 'SIGKILL');
      await waitFor(() => state(pid) === 'Z', { what: 'the killed child to be a zombie' });
      claude.scan();
      expect(claude.getSnapshot().bySession.get(sid)?.process).toMatchObject({
        status: 'gone',
        reason: `pid ${pid} is not running (the CLI was killed)`,
      });
      claude.dispose();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
