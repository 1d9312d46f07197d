/**
 * The Claude domain's liveness tick at rest: what it costs must follow what can change (the registered
 * processes), not the number of transcripts followed; and it still notices a CLI killed without a file change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { describe, expect, it } from '../../helpers/it.js';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { ClaudeDomain, LIVENESS_MS } from '../../../src/store/claude/domain.js';
import type { LivenessProbe } from '../../../src/store/claude/process-status.js';
import { TranscriptReader } from '../../../src/store/claude/transcript-reader.js';
import { SessionsDomain } from '../../../src/store/sessions/domain.js';
import { waitFor, writeLiveRalph } from '../../helpers/fixtures.js';
import { prompt } from './lines.js';

const SESSIONS = 60;
const sid = (i: number) => `aaaaaaaa-1111-4222-8333-${String(i).padStart(12, '0')}`;
const PID = 424242;

let claude: ClaudeDomain | null = null;
afterEach(() => {
  claude?.dispose();
  claude = null;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Claude domain: the idle liveness tick', () => {
  it('touches no transcript reader while nothing moves, and still marks a killed CLI gone', async ({
    emptyProject: p,
  }) => {
    const cfg = path.join(p.dir, 'claude-config');
    fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
    const now = new Date().toISOString();
    for (let i = 0; i < SESSIONS; i++) {
      writeLiveRalph(p, {
        sessionId: sid(i),
        iteration: 1,
        max: 10,
        startedAt: now,
        checkedAt: now,
        projectPath: p.dir,
        prompt: 'ralph: x',
      });
      const t = path.join(cfg, transcriptRel(p.dir, sid(i)));
      fs.mkdirSync(path.dirname(t), { recursive: true });
      fs.writeFileSync(t, `${prompt(sid(i), now, `task ${i}`)}\n`);
    }
    fs.writeFileSync(
      path.join(cfg, 'sessions', `${PID}.json`),
      JSON.stringify({
        pid: PID,
        sessionId: sid(0),
        cwd: p.dir,
        procStart: '777',
        status: 'busy',
        kind: 'interactive',
      }),
    );
    let alive = true;
    const probe: LivenessProbe = { startIdentity: () => (alive ? '777' : 'absent'), pidDomain: null };
    const sessions = new SessionsDomain({ root: p.root, projectDir: p.dir });
    sessions.scan();
    // Only the interval is faked: the ticks run when the test says, everything else (watches, catch-up) is real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    claude = new ClaudeDomain({ config: { dir: cfg, rule: 'CLAUDE_CONFIG_DIR' }, sessions, projectDir: p.dir, probe });
    claude.scan();
    const d = claude;
    await waitFor(() => d.getSnapshot().bySession.get(sid(SESSIONS - 1))?.transcript?.facts.lastLineMs != null, {
      timeoutMs: 30_000,
      what: 'every transcript read',
    });
    expect(d.getSnapshot().bySession.get(sid(0))?.process?.status).toBe('busy');

    const version = d.getSnapshot().version;
    const looked = vi.spyOn(TranscriptReader.prototype, 'state');
    vi.advanceTimersByTime(LIVENESS_MS * 5);
    expect(looked, 'reader states looked at by five idle ticks').not.toHaveBeenCalled();
    expect(d.getSnapshot().version).toBe(version);

    // SIGKILL changes no file: only the tick's probe notices, and then it publishes.
    alive = false;
    vi.advanceTimersByTime(LIVENESS_MS);
    expect(d.getSnapshot().bySession.get(sid(0))?.process?.status).toBe('gone');
    expect(d.getSnapshot().version).toBeGreaterThan(version);
    // The transcripts' facts are still there (published with the new verdict, not lost).
    expect(d.getSnapshot().bySession.get(sid(SESSIONS - 1))?.transcript?.facts.lastLineMs).not.toBeNull();
  });
});
