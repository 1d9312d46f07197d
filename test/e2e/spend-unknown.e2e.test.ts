/**
 * A session whose transcript is there but cannot be read (a FIFO, a link to /dev/urandom, a 2 GB sparse file with
 * no line in it) has a spend nobody knows: the Cost pane says "—" with why on its loop and counts it as not priced
 * beside the project's total, and --json says the same (usd_est null, spend_unknown, not_priced_sessions), never
 * "$0". The sparse file has a problem line of its own. The real bundle in a pty (sweep 6 §7).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { writeTranscript } from '../helpers/claude-files.js';
import { SESSION } from '../helpers/fixtures.js';
import { describe, expect, it } from '../helpers/it.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

/** One priced response: 1,000 input and 500 output tokens of claude-sonnet-4-5. */
const response = (at: string) =>
  JSON.stringify({
    type: 'assistant',
    timestamp: at,
    requestId: 'req_1',
    message: {
      id: 'msg_1',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'ok' }],
      usage: { input_tokens: 1000, output_tokens: 500, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    },
  });

/** The three transcripts that cannot be read, and one that can (the team session's). */
function scene(dir: string, cfg: string): { sparse: string } {
  const file = (sid: string) => {
    const f = path.join(cfg, transcriptRel(dir, sid));
    fs.mkdirSync(path.dirname(f), { recursive: true });
    return f;
  };
  expect(spawnSync('mkfifo', [file(SESSION.ralph)]).status).toBe(0);
  fs.symlinkSync('/dev/urandom', file(SESSION.hookRalph));
  const sparse = file(SESSION.autopilot);
  fs.writeFileSync(sparse, '');
  fs.truncateSync(sparse, 2 * 1024 ** 3);
  writeTranscript(cfg, dir, SESSION.team, [response(new Date().toISOString())]);
  return { sparse };
}

describe('a transcript that cannot be read: spend unknown, never $0', () => {
  it('the Cost pane: "—" and why on each loop, "+ 3 not priced" by the total; --json the same', async ({
    project: p,
    claudeDir: cfg,
    pty,
  }) => {
    scene(p.dir, cfg);
    // Wide enough for the total on one line; tall enough for every loop.
    const h = pty({ cwd: p.dir, cols: 170, rows: 50, env: { CLAUDE_CONFIG_DIR: cfg } });
    await h.waitForText('ralph 3/10');
    h.write('$');
    // The 2 GB file is read after the monitor is live: the figures settle once it is.
    const screen = await h.waitForText(/\+ 3 not priced/, scaled(30_000));
    // The one transcript that can be read is the total; the three that cannot are said beside it, not as $0.
    expect(screen).toMatch(/Spent in this project: \$\d[\d.]* est\. · 1\.5k tokens over 1 session .*\+ 3 not priced/);
    expect(screen).toContain('spend unknown: its transcript is not a regular file');
    expect(screen).toContain("3 sessions' spend not priced");
    expect(screen).toContain('spend unknown: its transcript is a symlink; not followed');
    expect(screen).toContain('spend unknown: its transcript has no line end in its last 64.0 MB of 2048.0 MB');
    // Each of the three rows' SPENT EST cell is "—".
    const rows = h.screen();
    const at = rows.find((l) => l.includes('SPENT EST'))?.indexOf('SPENT EST') ?? -1;
    expect(at).toBeGreaterThan(0);
    for (const sid of [SESSION.ralph, SESSION.hookRalph, SESSION.autopilot]) {
      const row = rows.find((l) => l.includes(` ${sid.slice(0, 8)} `)) ?? '';
      expect(row.slice(at).split(/\s+/)[0], sid).toBe('—');
    }
    // No figure of $0 anywhere (the pane's own words "not counted as $0", "never as $0" aside).
    expect(screen.replaceAll('as $0', '')).not.toMatch(/\$0(?![.\d])/);
    h.write('q');
    expect(await h.waitForExit()).toBe(0);

    const doc = JSON.parse(
      execFileSync(process.execPath, [BIN, '--json', '--root', p.root], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: cfg },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      }),
    ) as {
      cost: {
        project: { sessions: number; not_priced_sessions: number; usd_est: number | null };
        loops: { session: string; usd_est: number | null; tokens: number | null; spend_unknown: string | null }[];
      };
      sessions: { id: string; agent?: { spend: unknown; spend_unknown: string | null } }[];
      problems: { path: string; message: string }[];
    };
    expect(doc.cost.project).toMatchObject({ sessions: 1, not_priced_sessions: 3 });
    expect(doc.cost.project.usd_est).toBeGreaterThan(0);
    for (const sid of [SESSION.ralph, SESSION.hookRalph, SESSION.autopilot]) {
      const loop = doc.cost.loops.find((l) => l.session === sid);
      expect(loop, sid).toMatchObject({ usd_est: null, tokens: null });
      expect(loop?.spend_unknown, sid).toBeTruthy();
      const s = doc.sessions.find((x) => x.id === sid);
      expect(s?.agent, sid).toMatchObject({ spend: null, spend_unknown: loop?.spend_unknown });
    }
    expect(doc.problems).toContainEqual(
      expect.objectContaining({
        path: expect.stringContaining(`${SESSION.autopilot}.jsonl`),
        message: expect.stringMatching(/^has no line end in its last 64\.0 MB of 2048\.0 MB/),
      }),
    );
  });
});
