/**
 * Class 11 of the second hardening round: exit codes under races. Two
 * `omc-top cancel` of one session started at once: one takes effect (0); the
 * other either also finds its change already made (0) or finds nothing left
 * to cancel, which is exit 4 as the README says — never 1 ("did not take
 * effect") with a "nothing to cancel" message. The real bundle, ten rounds.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { runCancelCommand } from '../../src/commands/cancel.js';
import { writeLiveRalph, writeOmcJson } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

const S = 'race0000-0000-4000-8000-000000000001';

function cancel(dir: string): Promise<{ code: number; json: { ok?: boolean; error?: string } }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [BIN, 'cancel', S, '--cwd', dir, '--json']);
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('exit', (code) => resolve({ code: code ?? -1, json: JSON.parse(out || '{}') }));
  });
}

function freshRalph(dir: string, root: string): string {
  const now = Date.now();
  const file = path.join(root, 'state', 'sessions', S, 'ralph-state.json');
  writeOmcJson(file, {
    active: true,
    iteration: 3,
    max_iterations: 100,
    started_at: new Date(now - 60_000).toISOString(),
    last_checked_at: new Date(now - 5_000).toISOString(),
    prompt: 'race',
    session_id: S,
    project_path: dir,
  });
  return file;
}

describe('a cancel that loses the race, made deterministic', () => {
  it('the other cancel wins between our plan and our write: "nothing to cancel", exit 4', async ({ newProject }) => {
    const p = newProject({ prefix: 'omc-top-race-' });
    const file = freshRalph(p.dir, p.root);
    let calls = 0;
    let out = '';
    const code = await runCancelCommand([S, '--json', '--cwd', p.dir], {
      out: (t) => (out += t),
      err: (t) => (out += t),
      cwd: p.dir,
      // The second look at the clock is the re-plan right before writing: the winner has just cleared the loop.
      now: () => {
        if (++calls === 2) fs.rmSync(file);
        return Date.now();
      },
    });
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(code).toBe(4);
    expect(JSON.parse(out)).toMatchObject({ ok: false, error: 'nothing-to-cancel' });
  });
});

describe('two concurrent cancels of one session', () => {
  it(
    'ten rounds: one exits 0, the other 0 or 4 (nothing to cancel), never 1',
    { timeout: scaled(240_000) },
    async ({ newProject }) => {
      const seen: number[] = [];
      for (let round = 0; round < 10; round++) {
        const p = newProject({ prefix: 'omc-top-race-' });
        const now = Date.now();
        writeLiveRalph(p, {
          sessionId: S,
          iteration: 3,
          max: 100,
          startedAt: now - 60_000,
          checkedAt: now - 5_000,
          projectPath: p.dir,
          prompt: 'race',
        });
        const results = await Promise.all([cancel(p.dir), cancel(p.dir)]);
        const codes = results.map((r) => r.code).sort();
        seen.push(...codes);
        expect(codes[0], JSON.stringify(results)).toBe(0);
        expect([0, 4], JSON.stringify(results)).toContain(codes[1]);
        for (const r of results)
          if (r.code === 4) expect(r.json.error).toMatch(/^(nothing-active|nothing-to-cancel|not-found)$/);
        p.cleanup();
      }
      console.log(`cancel race exit codes over 10 rounds: ${seen.join(' ')}`);
    },
  );
});
