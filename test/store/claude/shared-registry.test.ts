/**
 * The fleet's projects share one registry reader: two projects' Claude domains see the same Claude process through
 * it, a status the CLI writes reaches both from one read, a held check asks each process once for both projects,
 * and a process that ends (SIGKILL: no file changes; a clean exit: its entry removed) is seen by both.
 * Linux only (procfs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { describe, expect, it } from '../../helpers/it.js';
import { processStartIdentity } from '../../../src/io/process-start.js';
import { ClaudeDomain, HELD_CHECK_MS } from '../../../src/store/claude/domain.js';
import { systemProbe } from '../../../src/store/claude/process-status.js';
import { SharedRegistry } from '../../../src/store/claude/shared-registry.js';
import { SessionsDomain } from '../../../src/store/sessions/domain.js';
import { makeProject, type TempProject, waitFor } from '../../helpers/fixtures.js';
import { writeBareRegistry } from '../../helpers/claude-files.js';
import { sleeperPool } from '../../helpers/claude-stand-in.js';

const SIDS = ['dddddddd-1111-4222-8333-000000000001', 'dddddddd-1111-4222-8333-000000000002'];

const cleanups: Array<() => void> = [];
const sleepers = sleeperPool();
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
  vi.useRealTimers();
  sleepers.killAll();
});

function domainOn(p: TempProject, cfg: string, registry: SharedRegistry): ClaudeDomain {
  const sessions = new SessionsDomain({ root: p.root, projectDir: p.dir });
  sessions.scan();
  const d = new ClaudeDomain({
    config: { dir: cfg, rule: 'CLAUDE_CONFIG_DIR' },
    sessions,
    projectDir: p.dir,
    registry,
  });
  cleanups.push(() => d.dispose());
  d.scan();
  return d;
}

describe.skipIf(process.platform !== 'linux')('Claude domains sharing one registry reader', () => {
  it('two projects see the same processes; each is asked once per held check; an end is seen by both', async ({
    emptyProject: a,
  }) => {
    const b = makeProject();
    cleanups.push(() => b.cleanup());
    const cfg = path.join(a.dir, 'claude-config');
    fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
    const [one, two] = [await sleepers.start(), await sleepers.start()];
    writeBareRegistry(cfg, one.pid as number, SIDS[0] as string, a.dir, 'idle');
    const twoFile = writeBareRegistry(cfg, two.pid as number, SIDS[1] as string, b.dir, 'busy');

    const system = systemProbe();
    const asked = vi.fn((pid: number, identity: string) => system.holds?.stillRunning(pid, identity) ?? null);
    const byPath = vi.fn((pid: number) => system.startIdentity(pid));
    const holds = system.holds as NonNullable<typeof system.holds>;
    const probe = {
      ...system,
      startIdentity: byPath,
      holds: { hold: holds.hold.bind(holds), retain: holds.retain.bind(holds), stillRunning: asked },
    };
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const registry = new SharedRegistry({ dir: cfg, rule: 'CLAUDE_CONFIG_DIR' }, { probe });
    cleanups.push(() => registry.close());
    const [da, db] = [domainOn(a, cfg, registry), domainOn(b, cfg, registry)];
    const status = (d: ClaudeDomain, sid: string) => d.getSnapshot().bySession.get(sid)?.process?.status;
    const both = (sid: string) => [status(da, sid), status(db, sid)];
    expect(both(SIDS[0] as string)).toEqual(['idle', 'idle']);
    expect(both(SIDS[1] as string)).toEqual(['busy', 'busy']);

    // Idle: each held process is asked once per held check (the ticks between ask nothing), however many projects
    // judge it; nothing by path.
    asked.mockClear();
    byPath.mockClear();
    vi.advanceTimersByTime(HELD_CHECK_MS * 3);
    expect(asked, 'held-process reads in three held checks, two processes, two projects').toHaveBeenCalledTimes(6);
    expect(byPath).not.toHaveBeenCalled();

    // The CLI writes a status: one read of the registry brings it to both projects.
    writeBareRegistry(cfg, two.pid as number, SIDS[1] as string, b.dir, 'waiting');
    await waitFor(() => both(SIDS[1] as string).every((s) => s === 'waiting'), {
      timeoutMs: 20_000,
      what: 'both projects see the new status',
    });

    // SIGKILL changes no file: the next held check tells both.
    one.kill('SIGKILL');
    await new Promise((r) => one.once('exit', r));
    await waitFor(() => processStartIdentity(one.pid as number) === 'absent', {
      timeoutMs: 10_000,
      what: 'the killed process reaped',
    });
    vi.advanceTimersByTime(HELD_CHECK_MS);
    expect(both(SIDS[0] as string)).toEqual(['gone', 'gone']);

    // A clean exit removes the entry: both projects say the process exited.
    fs.rmSync(twoFile);
    await waitFor(() => both(SIDS[1] as string).every((s) => s === 'exited'), {
      timeoutMs: 20_000,
      what: 'both projects see the clean exit',
    });
  });
});
