/**
 * The cancel signal omc-top writes, against what OMC itself writes and reads:
 * the byte format of the lab's hand-written omc-top signal, the key order of
 * state_clear's digest-bound signal, the digest as OMC's own state_clear
 * computes it, and the Stop hook's verdict on every lab signal.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from '../helpers/it.js';
import {
  autopilotEnforceable,
  autopilotSignalVerdict,
  checkLockOwnerText,
  signalVerdict,
} from '../../src/store/cancel/hook-rules.js';
import { ownStartIdentity, processStartIdentity, startTicksFromStat } from '../../src/io/process-start.js';
import {
  autopilotDigest,
  autopilotSignal,
  genericSignal,
  serializeSignal,
  signalRel,
} from '../../src/store/cancel/signal.js';
import { FIXTURE, FIXTURE_TREE, readReader, SESSION } from '../helpers/fixtures.js';
import { OMC55 } from '../helpers/omc-packages.mjs';

const signalFixture = (name: string) => fs.readFileSync(path.join(FIXTURE, 'cancel-signals', name), 'utf8');
const AUTOPILOT_TEXT = fs.readFileSync(
  path.join(FIXTURE_TREE, 'state', 'sessions', SESSION.autopilot, 'autopilot-state.json'),
  'utf8',
);
const OMC_STATE_TOOLS = path.join(OMC55, 'dist', 'tools', 'state-tools.js');

describe('generic signal (cancel and pause of ralph, team, …)', () => {
  it('is byte-identical to the lab signal OMC honoured (C2: omc-top shape, pretty, no trailing newline)', () => {
    const fixture = signalFixture('C2-omc-top-shape.session.json');
    const at = Date.parse(JSON.parse(fixture).requested_at);
    expect(serializeSignal(genericSignal('ralph', at))).toBe(fixture);
  });

  it('lasts exactly 30 s and carries none of the keys that make the hook reject it', () => {
    const sig = genericSignal('team', Date.parse('2026-11-30T18:00:00.000Z'));
    expect(Object.keys(sig)).toEqual(['active', 'requested_at', 'expires_at', 'mode', 'source']);
    expect(Date.parse(sig.expires_at) - Date.parse(sig.requested_at)).toBe(30_000);
    expect(sig).toMatchObject({ active: true, mode: 'team', source: 'omc-top' });
  });

  it('refuses to name autopilot: the hook rejects a generic signal that does', () => {
    expect(() => genericSignal('autopilot', 0)).toThrow(/autopilot/);
  });

  it('lives in the session directory, or state/ for session-less state', () => {
    expect(signalRel('abc-1')).toBe('state/sessions/abc-1/cancel-signal-state.json');
    expect(signalRel(null)).toBe('state/cancel-signal-state.json');
  });
});

describe('autopilot signal and digest', () => {
  it("has state_clear's key order (A4) with source omc-top and no run id for a plain autopilot", () => {
    const a4 = JSON.parse(signalFixture('A4-state_clear-autopilot-restored-identical.session.json'));
    const sig = autopilotSignal(AUTOPILOT_TEXT, Date.parse(a4.requested_at));
    expect(Object.keys(sig)).toEqual(Object.keys(a4));
    expect(sig).toMatchObject({
      mode: 'autopilot',
      source: 'omc-top',
      requested_at: a4.requested_at,
      expires_at: a4.expires_at,
    });
    expect(sig).not.toHaveProperty('target_workflow_run_id');
    expect(sig.target_state_sha256).toMatch(/^[a-f0-9]{64}$/);
  });

  it('adds target_workflow_run_id exactly when the state is a named workflow run', () => {
    const runId = '3f0c7a52-9a1e-4c1b-8f65-0b8a2e6f9d11';
    const named = JSON.stringify({ ...JSON.parse(AUTOPILOT_TEXT), workflowRunId: runId }, null, 2);
    const sig = autopilotSignal(named, 0);
    expect(Object.keys(sig).slice(-2)).toEqual(['target_state_sha256', 'target_workflow_run_id']);
    expect(sig.target_workflow_run_id).toBe(runId);
    expect(sig.target_state_sha256).not.toBe(autopilotSignal(AUTOPILOT_TEXT, 0).target_state_sha256);
  });

  it('hashes the compact re-serialisation, not the file bytes (e3 in the 5.5 lab blocked on the bytes)', () => {
    const compact = createHash('sha256')
      .update(JSON.stringify(JSON.parse(AUTOPILOT_TEXT)))
      .digest('hex');
    const bytes = createHash('sha256').update(AUTOPILOT_TEXT).digest('hex');
    expect(autopilotDigest(AUTOPILOT_TEXT)).toBe(compact);
    expect(autopilotDigest(AUTOPILOT_TEXT)).not.toBe(bytes);
    // Whitespace and CRLF do not matter, key order does.
    expect(autopilotDigest(AUTOPILOT_TEXT.replace(/\n/g, '\r\n  '))).toBe(compact);
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(AUTOPILOT_TEXT)).reverse()));
    expect(autopilotDigest(reordered)).not.toBe(compact);
  });

  it("equals the digest OMC's own state_clear (5.5.0 dist) writes for the same state", async ({ emptyProject: p }) => {
    const S = '0b5e9c1e-1111-4222-8333-444455556666';
    const state = {
      ...JSON.parse(AUTOPILOT_TEXT),
      session_id: S,
      project_path: p.dir,
      last_checked_at: new Date().toISOString(),
    };
    state._meta = { ...state._meta, sessionId: S };
    const text = JSON.stringify(state, null, 2);
    const file = path.join(p.root, 'state', 'sessions', S, 'autopilot-state.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    const ours = autopilotDigest(text);
    const cwd = process.cwd();
    const env = { HOME: process.env.HOME, OMC_NOTIFY: process.env.OMC_NOTIFY };
    // OMC's state_clear also looks at ~/.omc: give it an empty home, never the user's.
    const home = fs.mkdtempSync(path.join(p.dir, 'home-'));
    process.env.HOME = home;
    process.env.OMC_NOTIFY = '0';
    process.chdir(p.dir); // OMC trusts only the git root of its own cwd
    try {
      const { stateClearTool } = (await import(OMC_STATE_TOOLS)) as {
        stateClearTool: { handler(a: unknown): Promise<{ content: Array<{ text: string }> }> };
      };
      const reply = await stateClearTool.handler({ mode: 'autopilot', session_id: S, workingDirectory: p.dir });
      expect(reply.content[0]?.text).toMatch(/Successfully cleared state for mode: autopilot/);
    } finally {
      process.chdir(cwd);
      for (const [k, v] of Object.entries(env)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    const written = JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'cancel-signal-state.json'), 'utf8'));
    expect(written.target_state_sha256).toBe(ours);
  });
});

describe("the Stop hook's verdict on every lab signal (readers/cancel-interop.json, plugin hook)", () => {
  const interop = readReader('cancel-interop.json');
  const HOOK = 'scripts/persistent-mode.mjs (plugin Stop hook)';
  const caseById = (id: string) => interop.cases.find((c: any) => c.id === id);
  const files = fs.readdirSync(path.join(FIXTURE, 'cancel-signals'));
  const load = (id: string): unknown => {
    const f = files.find((n) => n.startsWith(`${id}-`));
    try {
      return JSON.parse(signalFixture(f as string));
    } catch {
      return null; // C9: malformed JSON, as OMC's readJsonFile sees it
    }
  };

  // Sessions with an active ralph/team/ultrawork and no autopilot: the signal alone decides.
  const generic = ['A1', 'A2', 'B2', 'B3', 'B4', 'B5', 'C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C9', 'D1', 'D3'];
  it.each(generic)('%s: generic rule agrees with the real hook', (short) => {
    const c = interop.cases.find((x: any) => x.id.startsWith(`${short}-`));
    const at = Date.parse(c.readers_run_at);
    const allowed = String(c.verdicts[HOOK].verdict).startsWith('ALLOW');
    expect(signalVerdict(load(short), null, at).inForce).toBe(allowed);
  });

  it('C10 (no digest) and C12 (generic) never cancel an enforceable autopilot, as the hook blocked them', () => {
    for (const id of ['C10-autopilot-no-digest', 'C12-autopilot-generic-signal']) {
      const c = caseById(id);
      expect(c.verdicts[HOOK].verdict).toMatch(/^BLOCK/);
      expect(
        signalVerdict(load(id.split('-')[0] as string), AUTOPILOT_TEXT, Date.parse(c.readers_run_at)).inForce,
      ).toBe(false);
    }
  });

  it('honours our autopilot form only while the digest matches the current state', () => {
    const now = Date.parse('2026-11-30T18:20:00.000Z');
    const sig = autopilotSignal(AUTOPILOT_TEXT, now);
    expect(autopilotSignalVerdict(sig, AUTOPILOT_TEXT, now + 1000)).toMatchObject({ inForce: true });
    const moved = JSON.stringify({ ...JSON.parse(AUTOPILOT_TEXT), reinforcement_count: 1 }, null, 2);
    expect(autopilotSignalVerdict(sig, moved, now + 1000)).toMatchObject({
      inForce: false,
      reason: expect.stringMatching(/digest no longer matches/),
    });
    expect(autopilotSignalVerdict(sig, AUTOPILOT_TEXT, now + 30_001)).toMatchObject({
      inForce: false,
      reason: expect.stringMatching(/expired/),
    });
  });
});

describe('which autopilot the hook enforces (and so demands the digest-bound form)', () => {
  const S = SESSION.autopilot;
  const base = JSON.parse(AUTOPILOT_TEXT);
  const at = Date.parse(base._meta.updatedAt);

  it('the fixture autopilot, fresh, in its own session', () => {
    expect(
      autopilotEnforceable({ ...base, last_checked_at: new Date(at).toISOString() }, S, at, null).enforceable,
    ).toBe(true);
  });
  it.each([
    ['inactive', { active: false }],
    ['complete', { phase: 'complete' }],
    ['another session', { session_id: 'other-session' }],
    [
      'awaiting confirmation',
      { awaiting_confirmation: true, awaiting_confirmation_set_at: '2026-11-30T18:13:00.000Z' },
    ],
  ])('not when %s', (_what, patch) => {
    expect(
      autopilotEnforceable({ ...base, last_checked_at: new Date(at).toISOString(), ...patch }, S, at, null).enforceable,
    ).toBe(false);
  });
  it('not when stale (2 h without a Stop-hook timestamp), unless it is a named run', () => {
    const later = at + 3 * 3_600_000;
    expect(autopilotEnforceable(base, S, later, null).enforceable).toBe(false);
    expect(autopilotEnforceable({ ...base, workflowRunId: 'x' }, S, later, null).enforceable).toBe(true);
  });
  it("not when the session's working directory is another project", () => {
    expect(
      autopilotEnforceable({ ...base, last_checked_at: new Date(at).toISOString() }, S, at, '/somewhere/else')
        .enforceable,
    ).toBe(false);
    expect(
      autopilotEnforceable({ ...base, last_checked_at: new Date(at).toISOString() }, S, at, '/home/dev/acme-webapp/')
        .enforceable,
    ).toBe(true);
  });
});

describe('lock records and process identity', () => {
  it("accepts exactly OMC's owner record", () => {
    const good = {
      version: 1,
      pid: 42,
      processStart: '123456',
      createdAt: '2026-11-30T18:00:00.000Z',
      nonce: '3f0c7a52-9a1e-4c1b-8f65-0b8a2e6f9d11',
    };
    expect(checkLockOwnerText(JSON.stringify(good)).ok).toBe(true);
    expect(checkLockOwnerText('garbage').ok).toBe(false);
    expect(checkLockOwnerText(JSON.stringify({ ...good, version: 2 })).ok).toBe(false);
    expect(checkLockOwnerText(JSON.stringify({ ...good, nonce: 'short' })).ok).toBe(false);
    expect(checkLockOwnerText(JSON.stringify({ ...good, processStart: 'has space' })).ok).toBe(false);
  });

  it('reads field 22 of /proc/<pid>/stat even when the command name has spaces and parentheses', () => {
    const rest = Array.from({ length: 20 }, (_, i) => String(i + 3)).join(' ');
    expect(startTicksFromStat(`1234 (evil) name (x) ${rest}`)).toBe('22');
    expect(startTicksFromStat('nonsense')).toBeNull();
  });

  it.runIf(process.platform === 'linux')('states our own start identity the way OMC will check it', () => {
    const stat = fs.readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    const field22 = stat
      .slice(stat.lastIndexOf(')') + 2)
      .trim()
      .split(/\s+/)[19];
    expect(ownStartIdentity()).toBe(field22);
    expect(processStartIdentity(2 ** 22 + 12345)).toBe('absent');
  });
});
