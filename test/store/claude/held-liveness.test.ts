/**
 * The liveness tick with real processes: a CLI seen running is held open (/proc/<pid>/statm), so the held check
 * (every HELD_CHECK_MS) asks it with one read of that descriptor and reads nothing by path, and the ticks between
 * read nothing at all; a SIGKILL (no file changes) is still noticed by the next held check, and a new registry
 * entry for a new process is judged afresh. Linux only (procfs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { describe, expect, it } from '../../helpers/it.js';
import { processStartIdentity } from '../../../src/io/process-start.js';
import { ClaudeDomain, HELD_CHECK_MS, LIVENESS_MS } from '../../../src/store/claude/domain.js';
import { systemProbe } from '../../../src/store/claude/process-status.js';
import { SessionsDomain } from '../../../src/store/sessions/domain.js';
import { waitFor } from '../../helpers/fixtures.js';
import { writeBareRegistry, writeRegistry } from '../../helpers/claude-files.js';
import { sleeperPool } from '../../helpers/claude-stand-in.js';

const SIDS = ['cccccccc-1111-4222-8333-000000000001', 'cccccccc-1111-4222-8333-000000000002'];

let claude: ClaudeDomain | null = null;
const sleepers = sleeperPool();
afterEach(() => {
  claude?.dispose();
  claude = null;
  vi.useRealTimers();
  sleepers.killAll();
});

describe.skipIf(process.platform !== 'linux')('Claude domain: liveness of held processes', () => {
  it('an idle tick reads no /proc file by path, and a held one only every HELD_CHECK_MS; a SIGKILL is noticed by the next check', async ({
    emptyProject: p,
  }) => {
    const cfg = path.join(p.dir, 'claude-config');
    fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
    const [a, b] = [await sleepers.start(), await sleepers.start()];
    writeBareRegistry(cfg, a.pid as number, SIDS[0] as string, p.dir, 'idle');
    writeBareRegistry(cfg, b.pid as number, SIDS[1] as string, p.dir, 'idle');
    const system = systemProbe();
    const byPath = vi.fn((pid: number) => system.startIdentity(pid));
    const holds = system.holds as NonNullable<typeof system.holds>;
    const asked = vi.fn((pid: number, identity: string) => holds.stillRunning(pid, identity));
    const sessions = new SessionsDomain({ root: p.root, projectDir: p.dir });
    sessions.scan();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    claude = new ClaudeDomain({
      config: { dir: cfg, rule: 'CLAUDE_CONFIG_DIR' },
      sessions,
      projectDir: p.dir,
      probe: {
        ...system,
        startIdentity: byPath,
        holds: { hold: holds.hold.bind(holds), retain: holds.retain.bind(holds), stillRunning: asked },
      },
    });
    claude.scan();
    const d = claude;
    const status = (sid: string) => d.getSnapshot().bySession.get(sid)?.process?.status;
    expect([status(SIDS[0] as string), status(SIDS[1] as string)]).toEqual(['idle', 'idle']);

    byPath.mockClear();
    asked.mockClear();
    const version = d.getSnapshot().version;
    vi.advanceTimersByTime(HELD_CHECK_MS * 2);
    expect(byPath, '/proc read by path during two held checks').not.toHaveBeenCalled();
    // Ten ticks, two of them held checks: each held process read twice, not once per tick.
    expect(HELD_CHECK_MS / LIVENESS_MS).toBeGreaterThan(1);
    expect(asked, 'held-process reads over 2 × HELD_CHECK_MS, two processes').toHaveBeenCalledTimes(4);
    expect(d.getSnapshot().version).toBe(version);

    // SIGKILL changes no file: the held descriptor says so at the next held check.
    a.kill('SIGKILL');
    await new Promise((r) => a.once('exit', r));
    await waitFor(() => !fs.existsSync(`/proc/${a.pid}/stat`) || processStartIdentity(a.pid as number) === 'absent', {
      timeoutMs: 10_000,
      what: 'the killed process reaped',
    });
    vi.advanceTimersByTime(HELD_CHECK_MS);
    expect(status(SIDS[0] as string)).toBe('gone');
    expect(status(SIDS[1] as string)).toBe('idle');
    expect(d.getSnapshot().version).toBeGreaterThan(version);

    // A kill leaves its entry behind: judged gone, it does not make the ticks between checks read anything.
    byPath.mockClear();
    asked.mockClear();
    vi.advanceTimersByTime(HELD_CHECK_MS - LIVENESS_MS);
    expect(byPath, '/proc read by path between held checks, one entry gone').not.toHaveBeenCalled();
    expect(asked, 'held reads between held checks').not.toHaveBeenCalled();
    vi.advanceTimersByTime(LIVENESS_MS);
    expect(asked, 'the live process asked at the next held check').toHaveBeenCalledTimes(1);
    expect([status(SIDS[0] as string), status(SIDS[1] as string)]).toEqual(['gone', 'idle']);
  });

  it("a tmux listing that arrives after the registry read names a held process's window", async ({
    emptyProject: p,
  }) => {
    const cfg = path.join(p.dir, 'claude-config');
    const c = await sleepers.start();
    writeRegistry(cfg, c.pid as number, SIDS[0] as string, { status: 'idle', cwd: p.dir, tmux: 'main:@1.%1' });
    const sessions = new SessionsDomain({ root: p.root, projectDir: p.dir });
    sessions.scan();
    // tmux answers later, as `list-windows` does: after the registry was read and the process judged (and held).
    const asked: Array<(out: string | null) => void> = [];
    claude = new ClaudeDomain({
      config: { dir: cfg, rule: 'CLAUDE_CONFIG_DIR' },
      sessions,
      projectDir: p.dir,
      tmux: (done) => asked.push(done),
    });
    claude.scan();
    const d = claude;
    const where = () => d.getSnapshot().bySession.get(SIDS[0] as string)?.process?.tmuxWhere;
    expect(d.getSnapshot().bySession.get(SIDS[0] as string)?.process?.status).toBe('idle');
    expect(where(), 'before the listing: the registry text').toBe('main:@1.%1');
    expect(asked).toHaveLength(1);
    asked[0]?.('main\t@1\t2\tclaude');
    expect(where(), 'the names a user types').toBe('main:2 claude');
  });
});
