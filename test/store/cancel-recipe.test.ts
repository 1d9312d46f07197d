/**
 * The cancel recipe on copies of the real-OMC fixture tree: exactly which
 * files are written, removed, set inactive and left alone; how OMC's
 * mutation locks are honoured; and that a session that changed since the
 * confirmation is re-read instead of overwritten.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { describePlan } from '../../src/store/cancel/describe.js';
import { executeCancel, type CancelDone, type ExecuteOutcome } from '../../src/store/cancel/execute.js';
import { planCancel, type CancelPlan, type CancelRequest } from '../../src/store/cancel/plan.js';
import { autopilotDigest } from '../../src/store/cancel/signal.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { OmcStore } from '../../src/store/store.js';
import { makeProject, SESSION, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { OMC55 } from '../helpers/omc-packages.mjs';

let p: TempProject | null = null;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  p?.cleanup();
  p = null;
});

const sessionDir = (sid: string) => `state/sessions/${sid}`;
const abs = (rel: string) => path.join((p as TempProject).root, rel);
const exists = (rel: string) => fs.existsSync(abs(rel));
const readJson = (rel: string) => JSON.parse(fs.readFileSync(abs(rel), 'utf8'));

/** Every file under the root with its content hash. */
function tree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else out.set(path.relative(root, full), createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
    }
  };
  walk(root);
  return out;
}

function diff(before: Map<string, string>, after: Map<string, string>) {
  const removed = [...before.keys()].filter((k) => !after.has(k)).sort();
  const added = [...after.keys()].filter((k) => !before.has(k)).sort();
  const changed = [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k)).sort();
  return { removed, added, changed };
}

/** Makes a fixture state look like the Stop hook just touched it (the fixture's own timestamps are from 2026-11-30 18:15). */
function touch(rel: string, patch: Record<string, unknown> = {}): void {
  writeOmcJson(abs(rel), { ...readJson(rel), last_checked_at: new Date().toISOString(), ...patch });
}

function plan(req: CancelRequest): CancelPlan {
  const r = planCancel((p as TempProject).root, req, Date.now());
  if (!r.ok) throw new Error(r.message);
  return r.plan;
}

async function run(req: CancelRequest): Promise<CancelDone> {
  const out: ExecuteOutcome = await executeCancel((p as TempProject).root, plan(req), { now: Date.now });
  if (out.kind !== 'done') throw new Error(`expected done, got ${out.kind}: ${JSON.stringify(out)}`);
  return out;
}

describe('cancel recipe on the real OMC fixture', () => {
  it('whole session: writes the generic signal first, removes ralph and its linked ultrawork, touches nothing else', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    const before = tree(p.root);
    const done = await run({ sessionId: S, mode: null, pauseOnly: false });
    expect(done.ok).toBe(true);
    expect(done.plan.modes).toEqual(['ralph', 'ultrawork']);
    const d = diff(before, tree(p.root));
    expect(d.removed).toEqual([`${sessionDir(S)}/ralph-state.json`, `${sessionDir(S)}/ultrawork-state.json`]);
    expect(d.added).toEqual([`${sessionDir(S)}/cancel-signal-state.json`]);
    expect(d.changed).toEqual([]);
    // No lock, temp or lock-database residue: OMC's 4.x guard files stay as they were.
    expect([...tree(p.root).keys()].filter((k) => /mutation\.lock$|\.tmp|state-mutation-locks/.test(k))).toEqual([]);
    expect(exists(`${sessionDir(S)}/ralph-state.json.mutation.lock.reclaim.guard`)).toBe(true);
    expect(readJson(`${sessionDir(S)}/cancel-signal-state.json`)).toMatchObject({
      active: true,
      mode: 'ralph',
      source: 'omc-top',
    });
    expect(done.steps.map((s) => [s.what, s.ok])).toEqual([
      ['remove', true],
      ['remove', true],
    ]);
  });

  it('one mode: --mode ralph of the hook-made session takes its linked ultrawork and keeps everything else', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.hookRalph;
    const pl = plan({ sessionId: S, mode: 'ralph', pauseOnly: false });
    expect([pl.modes, pl.linked]).toEqual([['ralph'], ['ultrawork']]);
    const text = describePlan(pl);
    expect(text.title).toBe(`Cancel ralph + ultrawork of session ${S}?`);
    expect(text.lines).toContain('Linked modes that go with it: ultrawork');
    expect(
      text.lines.some((l) =>
        l.startsWith('  write cancel-signal-state.json  (generic signal, mode ralph, source omc-top, 30 s)'),
      ),
    ).toBe(true);
    expect(text.lines.some((l) => l.startsWith('  remove ralph-state.json  (3/100'))).toBe(true);
    const before = tree(p.root);
    const done = await run({ sessionId: S, mode: 'ralph', pauseOnly: false });
    expect(done.ok).toBe(true);
    const d = diff(before, tree(p.root));
    expect(d.removed).toEqual([`${sessionDir(S)}/ralph-state.json`, `${sessionDir(S)}/ultrawork-state.json`]);
    expect(exists(`${sessionDir(S)}/pre-tool-advisory-throttle.json`)).toBe(true);
  });

  it('autopilot: digest-bound signal of the exact pre-cancel state, then active:false with every other field kept', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.autopilot;
    const rel = `${sessionDir(S)}/autopilot-state.json`;
    touch(rel);
    const beforeText = fs.readFileSync(abs(rel), 'utf8');
    const done = await run({ sessionId: S, mode: null, pauseOnly: false });
    expect(done.ok).toBe(true);
    expect(done.signal.form).toBe('autopilot');
    const sig = readJson(`${sessionDir(S)}/cancel-signal-state.json`);
    expect(sig).toMatchObject({
      mode: 'autopilot',
      source: 'omc-top',
      target_state_sha256: autopilotDigest(beforeText),
    });
    const { active, _meta, ...rest } = readJson(rel);
    const { active: wasActive, _meta: oldMeta, ...oldRest } = JSON.parse(beforeText);
    expect([wasActive, active]).toEqual([true, false]);
    expect(rest).toEqual(oldRest);
    expect(_meta).toEqual({ ...oldMeta, updatedAt: expect.any(String), updatedBy: 'omc-top' });
    expect(Date.parse(_meta.updatedAt)).toBeGreaterThan(Date.parse(oldMeta.updatedAt));
    // The session's other files (mission board, subagent tracking) are untouched.
    expect(exists(`${sessionDir(S)}/mission-state.json`)).toBe(true);
  });

  it("removes the modes' runtime artifacts in the session dir and state/, and only those", async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    const artifacts = [
      `${sessionDir(S)}/ralph-stop-breaker.json`,
      'state/ralph-stop-breaker.json',
      `${sessionDir(S)}/ralph-last-steer-at`,
      'state/ultrawork-continue-steer.lock',
    ];
    const unrelated = ['state/team-stop-breaker.json', `${sessionDir(SESSION.team)}/ralph-stop-breaker.json`];
    for (const a of [...artifacts, ...unrelated]) fs.writeFileSync(abs(a), '{}');
    const done = await run({ sessionId: S, mode: null, pauseOnly: false });
    expect(done.plan.artifacts.sort()).toEqual([...artifacts].sort());
    for (const a of artifacts) expect(exists(a)).toBe(false);
    for (const u of unrelated) expect(exists(u)).toBe(true);
  });

  it('skill-active ledger: removed last on a whole-session cancel, kept when one mode is cancelled', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    const ledger = `${sessionDir(S)}/skill-active-state.json`;
    const slots = {
      version: 2,
      active_skills: {
        ralph: { skill_name: 'ralph', started_at: new Date().toISOString(), completed_at: null, session_id: S },
      },
    };
    writeOmcJson(abs(ledger), slots);
    await run({ sessionId: S, mode: 'ultrawork', pauseOnly: false });
    expect(exists(ledger)).toBe(true);
    const done = await run({ sessionId: S, mode: null, pauseOnly: false });
    expect(done.steps.at(-1)).toMatchObject({ rel: ledger, what: 'remove-skill-active', ok: true });
    expect(exists(ledger)).toBe(false);
  });

  it("follows the session's stranded copies, but never another session's file or an unowned legacy file", async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    const T = SESSION.team;
    const now = new Date().toISOString();
    // S's ralph stranded in T's directory, and T's ultraqa stranded in S's directory.
    const strandedMine = `${sessionDir(T)}/ralph-state.json`;
    writeOmcJson(abs(strandedMine), { active: true, iteration: 1, max_iterations: 5, started_at: now, session_id: S });
    const strandedTheirs = `${sessionDir(S)}/ultraqa-state.json`;
    writeOmcJson(abs(strandedTheirs), { active: true, cycle: 1, max_cycles: 5, started_at: now, session_id: T });
    const ownedLegacy = 'state/ralph-state.json';
    writeOmcJson(abs(ownedLegacy), { active: true, iteration: 2, started_at: now, session_id: S });
    const pl = plan({ sessionId: S, mode: null, pauseOnly: false });
    expect(pl.steps.map((s) => s.rel).sort()).toEqual(
      [`${sessionDir(S)}/ralph-state.json`, `${sessionDir(S)}/ultrawork-state.json`, strandedMine, ownedLegacy].sort(),
    );
    expect(pl.skipped).toEqual([{ rel: strandedTheirs, reason: expect.stringMatching(`owned by session ${T}`) }]);
    expect(describePlan(pl).lines).toContain('Elsewhere under .omc:');
    const done = await run({ sessionId: S, mode: null, pauseOnly: false });
    expect(done.ok).toBe(true);
    expect([exists(strandedMine), exists(ownedLegacy)]).toEqual([false, false]);
    expect([
      exists(strandedTheirs),
      exists('state/ultrawork-state.json'),
      exists(`${sessionDir(T)}/team-state.json`),
    ]).toEqual([true, true, true]);
  });

  it("a team session's cancel names what it leaves: the team's workers and state/team/<name>/, and OMC's command for them", async () => {
    p = makeProject({ withFixture: true });
    const T = SESSION.team;
    const pl = plan({ sessionId: T, mode: 'team', pauseOnly: false });
    const lines = describePlan(pl).lines;
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^Left alone: state\/team\/fix-ts-errors\/: team fix-ts-errors's workers and this directory: .*`omc team shutdown fix-ts-errors`/,
      ),
    );
    const done = await run({ sessionId: T, mode: 'team', pauseOnly: false });
    expect(done.ok).toBe(true);
    // What the dialog said it leaves is left.
    expect([exists(`${sessionDir(T)}/team-state.json`), exists('state/team/fix-ts-errors/config.json')]).toEqual([
      false,
      true,
    ]);
  });

  it('pause writes the signal and nothing else', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    const before = tree(p.root);
    const done = await run({ sessionId: S, mode: null, pauseOnly: true });
    expect(done).toMatchObject({ ok: true, signalInForce: true, steps: [] });
    const d = diff(before, tree(p.root));
    expect(d).toEqual({ removed: [], added: [`${sessionDir(S)}/cancel-signal-state.json`], changed: [] });
    expect(describePlan(done.plan).lines).toContain(
      'Nothing is removed: ralph + ultrawork keep their state for a later resume.',
    );
  });

  it('named workflow autopilot: only the exact pause (active:false, nothing else); never rewritten otherwise', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.autopilot;
    const rel = `${sessionDir(S)}/autopilot-state.json`;
    touch(rel, {
      workflowRunId: '3f0c7a52-9a1e-4c1b-8f65-0b8a2e6f9d11',
      workflow: {
        descriptorVersion: 1,
        workflowName: 'ship',
        profileVersion: 1,
        stages: ['execution'],
        profileHash: 'x',
      },
    });
    const before = readJson(rel);
    const done = await run({ sessionId: S, mode: null, pauseOnly: false });
    expect(done.plan.steps.map((s) => s.action)).toEqual(['pause-named']);
    expect(readJson(`${sessionDir(S)}/cancel-signal-state.json`).target_workflow_run_id).toBe(before.workflowRunId);
    expect(readJson(rel)).toEqual({ ...before, active: false });
  });

  it('acts on the newer state when the loop only moved on after the confirmation (same files, same modes)', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    touch(`${sessionDir(S)}/ralph-state.json`);
    const confirmed = plan({ sessionId: S, mode: null, pauseOnly: false });
    touch(`${sessionDir(S)}/ralph-state.json`, { iteration: 4 }); // a Stop event while the dialog was open
    const out = await executeCancel(p.root, confirmed, { now: Date.now });
    expect(out).toMatchObject({ kind: 'done', ok: true, movedOn: `${sessionDir(S)}/ralph-state.json was rewritten` });
    expect(exists(`${sessionDir(S)}/ralph-state.json`)).toBe(false);
  });

  it('re-reads instead of acting when what would be done changed after the confirmation', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    touch(`${sessionDir(S)}/ralph-state.json`);
    const confirmed = plan({ sessionId: S, mode: null, pauseOnly: false });
    // A new loop starts in the session while the dialog is open: the user never agreed to end it.
    const qaRel = `${sessionDir(S)}/ultraqa-state.json`;
    const qa = readJson(`${sessionDir(SESSION.ultraqa)}/ultraqa-state.json`);
    writeOmcJson(abs(qaRel), {
      ...qa,
      session_id: S,
      _meta: { ...qa._meta, sessionId: S },
      last_checked_at: new Date().toISOString(),
    });
    const before = tree(p.root);
    const out = await executeCancel(p.root, confirmed, { now: Date.now });
    expect(out.kind).toBe('changed');
    if (out.kind !== 'changed') return;
    expect(out.what).toContain(`${qaRel} is new`);
    expect(describePlan(out.plan).lines.some((l) => l.includes('remove ultraqa-state.json'))).toBe(true);
    expect(diff(before, tree(p.root))).toEqual({ removed: [], added: [], changed: [] });
    // Confirming the fresh plan works.
    const again = await executeCancel(p.root, out.plan, { now: Date.now });
    expect(again).toMatchObject({ kind: 'done', ok: true, movedOn: null });
    expect(exists(qaRel)).toBe(false);
  });

  it("says which file is now left alone when another session's state lands in the directory meanwhile", async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    touch(`${sessionDir(S)}/ralph-state.json`);
    const confirmed = plan({ sessionId: S, mode: null, pauseOnly: false });
    const qaRel = `${sessionDir(S)}/ultraqa-state.json`;
    fs.copyFileSync(abs(`${sessionDir(SESSION.ultraqa)}/ultraqa-state.json`), abs(qaRel)); // stranded: owned by another session
    const out = await executeCancel(p.root, confirmed, { now: Date.now });
    expect(out).toMatchObject({
      kind: 'changed',
      what: expect.stringContaining(`${qaRel} is now left alone (owned by session ${SESSION.ultraqa}`),
    });
    expect(exists(`${sessionDir(S)}/ralph-state.json`)).toBe(true);
  });

  it('refuses the wrong session: bad ids, missing dirs, nothing active', () => {
    p = makeProject({ withFixture: true });
    const root = p.root;
    const tryPlan = (sessionId: string | null, mode: string | null = null) =>
      planCancel(root, { sessionId, mode, pauseOnly: false }, Date.now());
    expect(tryPlan('../state')).toMatchObject({ ok: false, code: 'invalid-id' });
    expect(tryPlan('a/b')).toMatchObject({ ok: false, code: 'invalid-id' });
    expect(tryPlan('x\u001b[31m')).toMatchObject({
      ok: false,
      code: 'invalid-id',
      message: expect.not.stringContaining('\u001b'),
    });
    expect(tryPlan('0b5e9c1e-1111-4222-8333-444455556666')).toMatchObject({ ok: false, code: 'not-found' });
    expect(tryPlan(SESSION.finished)).toMatchObject({ ok: false, code: 'nothing-active' });
    expect(tryPlan(SESSION.ralph, 'autopilot')).toMatchObject({
      ok: false,
      code: 'mode-not-active',
      message: `no autopilot state in ${SESSION.ralph}`,
    });
    // A session directory that is a symlink out of the root is refused by every read: no plan, nothing written.
    const outside = fs.mkdtempSync(path.join(path.dirname(root), 'outside-'));
    fs.symlinkSync(outside, abs('state/sessions/evil-link'));
    expect(tryPlan('evil-link')).toMatchObject({ ok: false });
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('bad files: unreadable states are listed as left alone and kept; hostile text never reaches the dialog', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    const bad = `${sessionDir(S)}/ultrawork-state.json`;
    fs.writeFileSync(abs(bad), '{"active":true,"started_at":"');
    fs.mkdirSync(abs(`${sessionDir(S)}/team-state.json`));
    touch(`${sessionDir(S)}/ralph-state.json`, { current_phase: 'exec\u001b[2J\u0007ution', _meta: { sessionId: S } });
    const pl = plan({ sessionId: S, mode: null, pauseOnly: false });
    expect(pl.modes).toEqual(['ralph']);
    expect(pl.skipped).toHaveLength(2);
    expect(pl.skipped).toEqual(
      expect.arrayContaining([
        { rel: bad, reason: 'cannot be read (invalid or truncated JSON): left alone; OMC cannot read it either' },
        {
          rel: `${sessionDir(S)}/team-state.json`,
          reason: expect.stringMatching(/a directory where a state file belongs/),
        },
      ]),
    );
    const text = [describePlan(pl).title, ...describePlan(pl).lines].join('\n');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain('remove ralph-state.json  (3/10, phase execution)'); // the escape sequence and BEL are gone
    const done = await run({ sessionId: S, mode: null, pauseOnly: false });
    expect(done.ok).toBe(true);
    expect(fs.readFileSync(abs(bad), 'utf8')).toBe('{"active":true,"started_at":"');
  });

  it('an autopilot file with a byte-order mark is invisible to OMC, so the signal is the generic form', () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.autopilot;
    const rel = `${sessionDir(S)}/autopilot-state.json`;
    touch(rel);
    fs.writeFileSync(abs(rel), '\uFEFF' + fs.readFileSync(abs(rel), 'utf8'));
    fs.writeFileSync(
      abs(`${sessionDir(S)}/ralph-state.json`),
      JSON.stringify({ active: true, iteration: 1, started_at: new Date().toISOString(), session_id: S }),
    );
    const pl = plan({ sessionId: S, mode: null, pauseOnly: false });
    expect(pl.signal.form).toBe('generic');
    expect(pl.modes).toEqual(['ralph']);
    expect(pl.skipped).toEqual([{ rel, reason: expect.stringMatching(/byte-order mark/) }]);
  });

  it('session-less (legacy) state: its own signal in state/, with the every-session warning', async () => {
    p = makeProject({ withFixture: true });
    const pl = plan({ sessionId: null, mode: null, pauseOnly: false });
    expect(pl.steps.map((s) => s.rel)).toEqual(['state/ultrawork-state.json']);
    expect(pl.signal.rel).toBe('state/cancel-signal-state.json');
    expect(pl.warnings.some((w) => w.includes('every session of this project'))).toBe(true);
    expect(pl.warnings.some((w) => w.includes('replaces the current cancel-signal-state.json'))).toBe(false); // the fixture's legacy signal is long expired
  });
});

describe("OMC's mutation locks", () => {
  function lockFor(rel: string, owner: Record<string, unknown> | string): string {
    const lock = `${rel}.mutation.lock`;
    fs.writeFileSync(abs(lock), typeof owner === 'string' ? owner : JSON.stringify(owner));
    return lock;
  }
  const owner = (pid: number, processStart: string) => ({
    version: 1,
    pid,
    processStart,
    createdAt: new Date().toISOString(),
    nonce: '3f0c7a52-9a1e-4c1b-8f65-0b8a2e6f9d11',
  });

  it.runIf(process.platform === 'linux')(
    'waits for a live holder, then leaves its file and lock alone and says why',
    async () => {
      p = makeProject({ withFixture: true });
      const S = SESSION.ralph;
      const rel = `${sessionDir(S)}/ralph-state.json`;
      const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
      children.push(holder);
      const start = processStartIdentity(holder.pid as number);
      expect(typeof start).toBe('string');
      const lock = lockFor(rel, owner(holder.pid as number, start as string));
      const lockText = fs.readFileSync(abs(lock), 'utf8');
      const ledger = `${sessionDir(S)}/skill-active-state.json`;
      writeOmcJson(abs(ledger), { version: 2, active_skills: {} });
      const t0 = Date.now();
      const done = await run({ sessionId: S, mode: null, pauseOnly: false });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(400); // OMC's own budget: 50 tries, 10 ms apart
      expect(done.ok).toBe(false);
      expect(done.stillActive).toEqual([
        { rel, mode: 'ralph', why: expect.stringMatching(/held by pid \d+: OMC is changing this file right now/) },
      ]);
      expect(fs.readFileSync(abs(lock), 'utf8')).toBe(lockText);
      expect(exists(rel)).toBe(true);
      // After a failed step the skill-active ledger is kept, as OMC's cancel does.
      expect(exists(ledger)).toBe(true);
      expect(done.steps.at(-1)).toMatchObject({ what: 'remove-skill-active', ok: false });
      expect(done.summary).toMatch(/^cancel did not take: /);
    },
  );

  it('reclaims a dead holder (gone pid, or a pid now running another process) and cancels', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    const lockA = lockFor(`${sessionDir(S)}/ralph-state.json`, owner(2 ** 22 + 4321, '1'));
    const lockB = lockFor(`${sessionDir(S)}/ultrawork-state.json`, owner(process.pid, '1'));
    const done = await run({ sessionId: S, mode: null, pauseOnly: false });
    expect(done.ok).toBe(true);
    expect([exists(lockA), exists(lockB)]).toEqual([false, false]);
    expect(fs.readdirSync(abs(sessionDir(S))).filter((n) => n.includes('.reclaim.') && !n.endsWith('.guard'))).toEqual(
      [],
    );
  });

  it('never touches a malformed lock (OMC refuses it too) and reports it', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    const lock = lockFor(`${sessionDir(S)}/ralph-state.json`, 'garbage');
    const done = await run({ sessionId: S, mode: 'ralph', pauseOnly: false });
    expect(done.ok).toBe(false);
    expect(done.steps[0]).toMatchObject({ ok: false, detail: expect.stringMatching(/is not a valid OMC lock record/) });
    expect(fs.readFileSync(abs(lock), 'utf8')).toBe('garbage');
  });

  it("warns when the signal's own lock is malformed: OMC would ignore the signal", () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    lockFor(`${sessionDir(S)}/cancel-signal-state.json`, 'garbage');
    const pl = plan({ sessionId: S, mode: null, pauseOnly: true });
    expect(pl.warnings[0]).toMatch(
      /cancel-signal-state\.json\.mutation\.lock is malformed: OMC ignores every cancel signal here/,
    );
  });
});

describe('a 4.x-era tree stays readable after a cancel', () => {
  it('omc-top and OMC 5.5 mode registry read it cleanly; the cancelled session has no active mode left', async () => {
    p = makeProject({ withFixture: true });
    const S = SESSION.ralph;
    const read = () => {
      const store = new OmcStore({ root: (p as TempProject).root, watch: 'none' });
      store.start();
      const snap = store.sessions.getSnapshot();
      void store.close();
      return snap;
    };
    const before = read();
    await run({ sessionId: S, mode: null, pauseOnly: false });
    const after = read();
    expect(after.problems).toEqual(before.problems);
    expect(after.sessions.length).toBe(before.sessions.length);
    const s = after.sessions.find((x) => x.id === S);
    expect(s?.modes).toEqual([]);
    expect(s?.cancel).toMatchObject({ source: 'omc-top', mode: 'ralph', inForce: true, targeted: false });
    const registry = (await import(path.join(OMC55, 'dist', 'hooks', 'mode-registry', 'index.js'))) as {
      getActiveModes(cwd: string, sid?: string): string[];
    };
    expect(registry.getActiveModes(p.dir, S)).toEqual([]);
    // Another session is untouched (5.5's registry no longer lists the retired ultrawork).
    expect(registry.getActiveModes(p.dir, SESSION.hookRalph)).toEqual(['ralph']);
  });
});
