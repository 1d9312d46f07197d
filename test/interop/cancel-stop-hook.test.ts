/**
 * Interop against the real thing: after `omc-top cancel` (the bundled CLI),
 * OMC 5.5.0's shipped Stop hook is run exactly as Claude Code runs it
 * (hooks.json: `node scripts/run.cjs scripts/persistent-mode.mjs`, JSON on
 * stdin, an isolated HOME) on a fresh git project per case. Each hook run
 * costs ~0.2–0.5 s, so the cases are few and each one proves one claim.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { runCancelCommand } from '../../src/commands/cancel.js';
import { judgeSignal, type WrittenSignal } from '../../src/store/cancel/execute.js';
import { FIXTURE_TREE, liveRalph, makeProject, SESSION, type TempProject, writeOmcJson } from '../helpers/fixtures.js';
import { BIN } from '../helpers/pty.js';
import { OMC55 } from '../helpers/omc-packages.mjs';
import { scaled } from '../helpers/time-scale.js';

const PKG = OMC55;
const S = '0b5e9c1e-1111-4222-8333-444455556666';
const CONTINUE = { continue: true, suppressOutput: true };

let p: TempProject | null = null;
let home: string | null = null;
afterEach(() => {
  p?.cleanup();
  if (home) fs.rmSync(home, { recursive: true, force: true });
  p = null;
  home = null;
});

const sessionRel = (file: string) => `state/sessions/${S}/${file}`;
const abs = (rel: string) => path.join((p as TempProject).root, rel);
const readJson = (rel: string) => JSON.parse(fs.readFileSync(abs(rel), 'utf8'));

/** A fresh scratch project with one OMC loop in session S (shapes from the 5.5 addendum, Appendix A). */
function project(mode: 'ralph' | 'autopilot'): void {
  p = makeProject({ prefix: 'omc-top-hook-' });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-hook-home-'));
  const now = Date.now();
  if (mode === 'ralph') {
    writeOmcJson(
      abs(sessionRel('ralph-state.json')),
      liveRalph({
        sessionId: S,
        iteration: 3,
        max: 100,
        startedAt: now - 60_000,
        checkedAt: now - 5_000,
        projectPath: p.dir,
        prompt: 'scratch task',
      }),
    );
  } else {
    // The autopilot OMC's own initAutopilot/transitionPhase wrote in the fixture, moved into this project and session.
    const real = JSON.parse(
      fs.readFileSync(path.join(FIXTURE_TREE, 'state', 'sessions', SESSION.autopilot, 'autopilot-state.json'), 'utf8'),
    );
    writeOmcJson(abs(sessionRel('autopilot-state.json')), {
      ...real,
      session_id: S,
      project_path: p.dir,
      last_checked_at: new Date(now - 5_000).toISOString(),
      reinforcement_count: 0,
      _meta: { ...real._meta, sessionId: S },
    });
  }
}

/**
 * `omc-top cancel`, resolving the root from the project dir as a user would:
 * through the real bundle once (the path scripts take), in-process otherwise
 * (the same code, without another 0.5 s node start per case).
 */
async function omcTopCancel(...args: string[]): Promise<{ code: number; json: any }> {
  const argv = [S, '--cwd', (p as TempProject).dir, '--json', '--omc-version', '5.5.0', ...args];
  let out = '';
  const code = await runCancelCommand(argv, {
    out: (t) => void (out += t),
    err: (t) => void (out += t),
    cwd: (p as TempProject).dir,
    now: Date.now,
  });
  return { code, json: JSON.parse(out) };
}
function omcTopCancelBundle(...args: string[]): { code: number; json: any } {
  const r = spawnSync(process.execPath, [BIN, 'cancel', S, '--cwd', (p as TempProject).dir, '--json', ...args], {
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, json: JSON.parse(r.stdout) };
}

/** OMC's Stop hook, as hooks.json runs it. */
function stopHook(): any {
  const dir = (p as TempProject).dir;
  const out = execFileSync(
    process.execPath,
    [path.join(PKG, 'scripts', 'run.cjs'), path.join(PKG, 'scripts', 'persistent-mode.mjs')],
    {
      cwd: dir,
      input: JSON.stringify({
        session_id: S,
        transcript_path: path.join(home as string, '.claude', 'projects', 'x', `${S}.jsonl`),
        cwd: dir,
        permission_mode: 'default',
        hook_event_name: 'Stop',
        stop_hook_active: false,
      }),
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home as string,
        OMC_NOTIFY: '0',
        CLAUDE_PLUGIN_ROOT: PKG,
      },
      encoding: 'utf8',
      timeout: scaled(15_000),
    },
  );
  return JSON.parse(out.trim().split('\n').pop() as string);
}

describe.runIf(fs.existsSync(path.join(PKG, 'scripts', 'persistent-mode.mjs')))(
  "OMC 5.5.0's real Stop hook after omc-top's cancel",
  () => {
    it('ralph, cancel (the bundled CLI): the hook lets the agent stop, and the loop is gone from disk', () => {
      project('ralph');
      const { code, json } = omcTopCancelBundle();
      expect([code, json.ok, json.signal.form]).toEqual([0, true, 'generic']);
      expect(stopHook()).toEqual(CONTINUE);
      expect(fs.existsSync(abs(sessionRel('ralph-state.json')))).toBe(false);
    });

    it('ralph, pause (--signal-only): the signal alone lets the agent stop and the loop keeps its state', async () => {
      project('ralph');
      expect((await omcTopCancel('--signal-only')).code).toBe(0);
      expect(stopHook()).toEqual(CONTINUE);
      expect(readJson(sessionRel('ralph-state.json'))).toMatchObject({ active: true, iteration: 3 });
    });

    it('ralph, the same signal moved 31 s into the past: the hook blocks again (and deletes it), as omc-top predicts', async () => {
      project('ralph');
      const { json } = await omcTopCancel('--signal-only');
      const rel = sessionRel('cancel-signal-state.json');
      const sig = readJson(rel);
      const back = (iso: string) => new Date(Date.parse(iso) - 31_000).toISOString();
      const moved = JSON.stringify(
        { ...sig, requested_at: back(sig.requested_at), expires_at: back(sig.expires_at) },
        null,
        2,
      );
      fs.writeFileSync(abs(rel), moved);
      const written: WrittenSignal = {
        rel,
        form: 'generic',
        text: moved,
        requestedMs: 0,
        expiresMs: 0,
        autopilotRel: null,
      };
      expect(judgeSignal((p as TempProject).root, written, S, Date.now())).toMatchObject({
        inForce: false,
        reason: expect.stringMatching(/expired/),
      });
      expect(json.ok).toBe(true);
      const verdict = stopHook();
      expect(verdict.decision).toBe('block');
      expect(verdict.reason).toMatch(/^\[RALPH LOOP - ITERATION 4\/100\]/);
      expect(fs.existsSync(abs(rel))).toBe(false);
    });

    it('autopilot, cancel: the hook lets the agent stop; the autopilot is kept inactive for resume', async () => {
      project('autopilot');
      const { code, json } = await omcTopCancel();
      expect([code, json.signal.form, json.steps[0].detail]).toEqual([
        0,
        'autopilot',
        'set active:false (progress kept for resume)',
      ]);
      expect(stopHook()).toEqual(CONTINUE);
      expect(readJson(sessionRel('autopilot-state.json'))).toMatchObject({
        active: false,
        phase: 'execution',
        reinforcement_count: 0,
      });
    });

    it('autopilot, pause: the digest-bound signal is honoured while the autopilot stays active', async () => {
      project('autopilot');
      const { code, json } = await omcTopCancel('--signal-only');
      expect([code, json.signal.form, json.signal.in_force]).toEqual([0, 'autopilot', true]);
      expect(stopHook()).toEqual(CONTINUE);
      expect(readJson(sessionRel('autopilot-state.json'))).toMatchObject({ active: true, reinforcement_count: 0 });
    });

    it('autopilot, pause, then the state changes under the signal: the hook blocks, which is what omc-top reports', async () => {
      project('autopilot');
      await omcTopCancel('--signal-only');
      const rel = sessionRel('autopilot-state.json');
      writeOmcJson(abs(rel), { ...readJson(rel), reinforcement_count: 1 });
      const sigRel = sessionRel('cancel-signal-state.json');
      const written: WrittenSignal = {
        rel: sigRel,
        form: 'autopilot',
        text: fs.readFileSync(abs(sigRel), 'utf8'),
        requestedMs: 0,
        expiresMs: 0,
        autopilotRel: rel,
      };
      expect(judgeSignal((p as TempProject).root, written, S, Date.now())).toMatchObject({
        inForce: false,
        reason: expect.stringMatching(/digest no longer matches/),
      });
      const verdict = stopHook();
      expect(verdict.decision).toBe('block');
      expect(verdict.reason).toMatch(/^\[AUTOPILOT - Phase: execution\]/);
    });
  },
);
