/**
 * A transcript directory Claude Code has not created yet (a project it never wrote to): the idle tick does not
 * try a watch on it every 2 s; it looks at `projects/` once per tick, and when the directory appears there the
 * next tick watches it and reads the transcript in it. While it is missing no transcript in it is even opened.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, vi } from 'vitest';
import { describe, expect, it } from '../../helpers/it.js';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { ClaudeDomain, LIVENESS_MS } from '../../../src/store/claude/domain.js';
import type { LivenessProbe } from '../../../src/store/claude/process-status.js';
import { SessionsDomain } from '../../../src/store/sessions/domain.js';
import { TranscriptReader } from '../../../src/store/claude/transcript-reader.js';
import { waitFor, writeLiveRalph } from '../../helpers/fixtures.js';
import { prompt } from './lines.js';

const SID = 'bbbbbbbb-1111-4222-8333-000000000001';
const PID = 434343;

let claude: ClaudeDomain | null = null;
afterEach(() => {
  claude?.dispose();
  claude = null;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Claude domain: a transcript directory that does not exist yet', () => {
  it('is not retried per tick while projects/ is unchanged, and is watched once it appears', async ({
    emptyProject: p,
  }) => {
    const cfg = path.join(p.dir, 'claude-config');
    fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
    fs.mkdirSync(path.join(cfg, 'projects'), { recursive: true });
    const now = new Date().toISOString();
    writeLiveRalph(p, {
      sessionId: SID,
      iteration: 1,
      max: 10,
      startedAt: now,
      checkedAt: now,
      projectPath: p.dir,
      prompt: 'ralph: x',
    });
    fs.writeFileSync(
      path.join(cfg, 'sessions', `${PID}.json`),
      JSON.stringify({ pid: PID, sessionId: SID, cwd: p.dir, procStart: '777', status: 'busy', kind: 'interactive' }),
    );
    const probe: LivenessProbe = { startIdentity: () => '777', pidDomain: null };
    const sessions = new SessionsDomain({ root: p.root, projectDir: p.dir });
    sessions.scan();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const opened = vi.spyOn(TranscriptReader.prototype, 'refresh');
    claude = new ClaudeDomain({ config: { dir: cfg, rule: 'CLAUDE_CONFIG_DIR' }, sessions, projectDir: p.dir, probe });
    claude.scan();
    const d = claude;
    vi.advanceTimersByTime(LIVENESS_MS); // the first tick tries the missing directory once
    expect(opened, 'transcripts opened in a directory that is not there').not.toHaveBeenCalled();

    const transcript = path.join(cfg, transcriptRel(p.dir, SID));
    const watched = vi.spyOn(fs, 'watch');
    vi.advanceTimersByTime(LIVENESS_MS * 5);
    expect(
      watched.mock.calls.filter(([dir]) => String(dir) === path.dirname(transcript)),
      'watches tried on the missing directory by five idle ticks',
    ).toEqual([]);

    // Claude Code writes its first line: the directory appears in projects/, the next tick watches and reads it.
    fs.mkdirSync(path.dirname(transcript));
    fs.writeFileSync(transcript, `${prompt(SID, now, 'first task')}\n`);
    vi.advanceTimersByTime(LIVENESS_MS);
    expect(watched.mock.calls.some(([dir]) => String(dir) === path.dirname(transcript))).toBe(true);
    await waitFor(() => d.getSnapshot().bySession.get(SID)?.transcript?.facts.lastLineMs != null, {
      timeoutMs: 10_000,
      what: 'the new transcript read',
    });
  });
});
