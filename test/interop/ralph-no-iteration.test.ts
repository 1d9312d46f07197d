/**
 * A ralph whose state has no iteration and no max yet (OMC 4.4.4's keyword detector writes it so until its first Stop)
 * is shown as its Stop hook reads it: iteration 1 of 100 (`iteration || 1`, `max_iterations || 100`), where it used to
 * show a bare `ralph` (and `null/null` in --json). The real 4.4.4 and 5.5.0 Stop hooks say what they read: their first
 * Stop continues it as the iteration after 1, of 100.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modeProgress } from '../../src/store/sessions/omc-rules.js';
import { makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { hookDecision, spawnStopHook, type HookVersion } from '../helpers/stop-hook.js';

const S = '0b5e9c1e-4444-4222-8333-444455556666';
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

describe('a ralph written without iteration or max', () => {
  it.each(['4.4.4', '5.5.0'] as HookVersion[])('reads 1/100, as OMC %s’s Stop hook does', (version) => {
    const p: TempProject = makeProject({ prefix: 'omc-top-ralph-noit-' });
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-ralph-noit-home-'));
    cleanups.push(
      () => p.cleanup(),
      () => fs.rmSync(home, { recursive: true, force: true }),
    );
    const state = {
      active: true,
      started_at: new Date().toISOString(),
      last_checked_at: new Date().toISOString(),
      prompt: 'ralph fix the flaky test',
      session_id: S,
    };
    writeOmcJson(path.join(p.root, 'state', 'sessions', S, 'ralph-state.json'), state);
    expect(modeProgress('ralph', state)).toMatchObject({ iteration: 1, max: 100 });
    // A wrong type is not absent: unknown, as before.
    expect(modeProgress('ralph', { ...state, iteration: 'two' })).toMatchObject({ iteration: null, max: null });
    const hook = hookDecision(spawnStopHook(version, { cwd: p.dir, sessionId: S, home, now: Date.now() }));
    expect(hook).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(hook.raw).toContain('2/100');
  });
});
