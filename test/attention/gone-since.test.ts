/**
 * An orphaned loop's age is one fact for every omc-top process that never saw its Claude run. The process was
 * SIGKILLed and left its registry entry behind; "gone" is then dated by the entry's last sign of life (the time the
 * CLI last wrote it), not by when each process first looked (test/store/claude/gone-since.test.ts: one that saw it
 * run dates it from when it saw it gone). A monitor that started long after, `--json` and the rows give the same `since`,
 * so the inbox's "oldest first" order is the same everywhere too.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { attentionReport } from '../../src/feeds/attention/report.js';
import { ownStateDir } from '../../src/io/state-dir.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { DEAD_PID, writeRegistry } from '../helpers/claude-files.js';
import { attentionEnv } from '../helpers/claude-registry-rig.js';
import { writeOmcJson } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';

// The older death has the id that sorts last: "oldest first" must come from the times, not from the ids.
const OLDER = 'bbbbbbbb-2222-4333-8444-555555555555';
const NEWER = 'aaaaaaaa-2222-4333-8444-555555555555';

describe('the age of a gone Claude process', () => {
  it('two processes started 25 s and 10 min apart, and --json, give the same since and the same order', async ({
    emptyProject: p,
    claudeDir,
    tempDir,
    newStore,
  }) => {
    const env = attentionEnv({ claudeDir, tempDir });
    const now = Date.now();
    const lastWrite = { [OLDER]: now - 300_000, [NEWER]: now - 120_000 };
    for (const [sid, at] of Object.entries(lastWrite)) {
      writeOmcJson(path.join(p.root, 'state', 'sessions', sid, 'ralph-state.json'), {
        active: true,
        session_id: sid,
        iteration: 2,
        max_iterations: 10,
        started_at: new Date(at - 60_000).toISOString(),
        last_checked_at: new Date(at).toISOString(),
        prompt: 'ralph: do it',
      });
    }
    // Two CLIs killed (their pids are gone), each entry last written at its time.
    writeRegistry(claudeDir, DEAD_PID, OLDER, {
      status: 'busy',
      cwd: p.dir,
      procStart: '12345',
      statusUpdatedAt: lastWrite[OLDER],
    });
    writeRegistry(claudeDir, DEAD_PID - 1, NEWER, {
      status: 'busy',
      cwd: p.dir,
      procStart: '12346',
      statusUpdatedAt: lastWrite[NEWER],
    });
    // Each CLI started before it last wrote its entry.
    for (const [pid, sid] of [
      [DEAD_PID, OLDER],
      [DEAD_PID - 1, NEWER],
    ] as const) {
      const file = path.join(claudeDir, 'sessions', `${pid}.json`);
      const entry = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(file, JSON.stringify({ ...entry, startedAt: lastWrite[sid] - 600_000 }));
    }

    const readAt = (clockMs: number) => {
      const store = newStore({
        root: p.root,
        projectDir: p.dir,
        stateDir: ownStateDir(env),
        clock: () => clockMs,
        watch: 'none',
        claude: { env, live: false },
      });
      store.start();
      return {
        items: attentionReport(store, env).items.map((i) => [i.kind, i.session, i.since]),
        rowSince: store.claude.getSnapshot().bySession.get(OLDER)?.process?.since,
      };
    };
    const first = readAt(now + 25_000);
    const later = readAt(now + 600_000);
    const want = [
      ['orphaned', OLDER, new Date(lastWrite[OLDER]).toISOString()],
      ['orphaned', NEWER, new Date(lastWrite[NEWER]).toISOString()],
    ];
    expect(first.items).toEqual(want);
    expect(later.items).toEqual(want);
    // The Claude column's `!gone <age>` counts from the same moment.
    expect(first.rowSince).toBe(lastWrite[OLDER]);
    expect(later.rowSince).toBe(lastWrite[OLDER]);

    const json = JSON.parse(
      execFileSync(process.execPath, [BUNDLE, '--json', '--root', p.root], {
        cwd: p.dir,
        env: { ...process.env, ...env },
        encoding: 'utf8',
      }),
    ) as { attention: { items: { kind: string; session: string; since: string }[] } };
    expect(json.attention.items.map((i) => [i.kind, i.session, i.since])).toEqual(want);
  });
});
