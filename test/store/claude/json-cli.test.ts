/** The bundle's --json with Claude Code's files beside OMC's (no real CLI needed). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../../helpers/it.js';
import { processStartIdentity } from '../../../src/io/process-start.js';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { ownPidDomain } from '../../../src/store/claude/process-status.js';
import { REPO, writeLiveRalph } from '../../helpers/fixtures.js';
import { assistant, prompt } from './lines.js';

const SID = 'cccccccc-1111-4222-8333-444444444444';
const OTHER = 'dddddddd-1111-4222-8333-444444444444';

describe('--json process and tokens', () => {
  it('adds "process" and "tokens" per session: waiting for a live CLI, null when there is no entry', ({
    emptyProject: p,
  }) => {
    const cfg = path.join(p.dir, 'cfg');
    for (const sid of [SID, OTHER]) writeLiveRalph(p, { sessionId: sid, iteration: 1, max: 5, projectPath: p.dir });
    fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
    // This test's own process stands in for the CLI: a live pid with its real start time.
    fs.writeFileSync(
      path.join(cfg, 'sessions', `${process.pid}.json`),
      JSON.stringify({
        pid: process.pid,
        sessionId: SID,
        cwd: p.dir,
        procStart: processStartIdentity(process.pid),
        pidDomain: ownPidDomain(),
        status: 'waiting',
        waitingFor: 'permission prompt',
        statusUpdatedAt: 1796116119433,
        version: '2.1.332',
        entrypoint: 'cli',
      }),
    );
    const t = path.join(cfg, transcriptRel(p.dir, SID));
    fs.mkdirSync(path.dirname(t), { recursive: true });
    fs.writeFileSync(
      t,
      [
        prompt(SID, '2026-12-01T09:00:00Z', 'x'),
        ...assistant(SID, '2026-12-01T09:00:01Z', 'm', 3, [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ]),
      ].join('\n') + '\n',
    );
    const out = execFileSync(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), '--json', '--root', p.root], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: cfg },
      encoding: 'utf8',
    });
    const doc = JSON.parse(out) as { sessions: Record<string, any>[]; claude: Record<string, unknown> };
    const row = doc.sessions.find((s) => s.id === SID)!;
    expect(row.process).toEqual({
      pid: process.pid,
      status: 'waiting',
      since: new Date(1796116119433).toISOString(),
      gone_dated_by: null,
      entrypoint: 'cli',
      version: '2.1.332',
    });
    expect(row.tokens).toEqual({ input: 103, output: 13, cache_read: 3000, cache_write: 5 });
    expect(row.agent.attention).toEqual([
      { kind: 'waiting-for-you', reason: null, text: 'Claude is waiting for you: permission prompt' },
    ]);
    const other = doc.sessions.find((s) => s.id === OTHER)!;
    expect(other.process).toBeNull();
    expect(other.tokens).toBeNull();
    expect(doc.claude).toEqual({ config_dir: cfg, rule: 'CLAUDE_CONFIG_DIR', registry_missing: false });
  });
});
