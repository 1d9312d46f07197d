/**
 * `omc-top cancel` for scripts: what it prints, what it writes and the exit
 * code that says whether the cancel took effect on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { UsageError } from '../../src/commands/args.js';
import { CANCEL_EXIT, runCancelCommand } from '../../src/commands/cancel.js';
import { liveRalph, ralphStateFile, SESSION, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { writeRegistry } from '../helpers/claude-files.js';
import { refuseReads } from '../helpers/read-faults.js';
import { CancelRecordFile } from '../../src/store/cancel/cancel-records.js';
import { ownStateDir } from '../../src/io/state-dir.js';

/** Claude Code's config dir for the command: empty unless a test registers a process in it. */
const claudeDir = (p: TempProject) => path.join(p.dir, 'claude-config');

async function cli(p: TempProject, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCancelCommand(argv, {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    cwd: p.dir,
    now: Date.now,
    env: { ...process.env, CLAUDE_CONFIG_DIR: claudeDir(p) },
  });
  return { code, out, err };
}

const signalPath = (p: TempProject, sid: string) =>
  path.join(p.root, 'state', 'sessions', sid, 'cancel-signal-state.json');

describe('omc-top cancel', () => {
  it('cancels, says what it did, and exits 0 only after checking the disk', async ({ project: p }) => {
    const r = await cli(p, SESSION.ralph);
    expect(r.code).toBe(CANCEL_EXIT.ok);
    expect(r.out.split('\n')[0]).toBe(`ralph, ultrawork ended on disk in ${SESSION.ralph}: no targeted mode is active`);
    // No Claude process or transcript to look at: said so, and no mark claims a stop nobody saw.
    expect(r.out.split('\n')[1]).toBe(
      "  Claude:  no Claude process or transcript of this session can be seen: the loop ended on disk, Claude's stop was not observed",
    );
    expect(r.out).not.toContain('✓');
    expect(r.out).toContain(`removed  state/sessions/${SESSION.ralph}/ralph-state.json`);
    expect(r.err).toBe('');
  });

  it('a busy Claude: no ✓ at once; --wait shows "stopped ✓" when its registry turns idle, exit 5 when it never does', async ({
    newProject,
  }) => {
    let p = newProject({ withFixture: true });
    const S = SESSION.ralph;
    // This test's own process stands in for the CLI: a live pid whose start time the entry records.
    writeRegistry(claudeDir(p), process.pid, S, { status: 'busy', cwd: p.dir, statusUpdatedAt: Date.now() - 5_000 });
    let r = await cli(p, S, '--mode', 'ralph');
    expect(r.code).toBe(CANCEL_EXIT.ok);
    expect(r.out).toContain(
      `  Claude:  Claude (pid ${process.pid}) is busy: it stops when its turn ends and OMC's Stop hook lets it; its stop was not observed yet`,
    );
    expect(r.out).not.toContain('✓');

    p.cleanup();
    p = newProject({ withFixture: true });
    writeRegistry(claudeDir(p), process.pid, S, { status: 'busy', cwd: p.dir, statusUpdatedAt: Date.now() - 5_000 });
    // The Stop hook lets it stop a moment after the signal: the CLI rewrites its entry as idle.
    const done = cli(p, S, '--mode', 'ralph', '--wait', '30', '--json');
    await waitFor(() => fs.existsSync(signalPath(p, S)), { what: 'the signal written' });
    writeRegistry(claudeDir(p), process.pid, S, { status: 'idle', cwd: p.dir, statusUpdatedAt: Date.now() });
    r = await done;
    expect(r.code).toBe(CANCEL_EXIT.ok);
    const doc = JSON.parse(r.out);
    expect(doc.claude).toMatchObject({ at_cancel: 'busy', pid: process.pid, status: 'idle', seen: 'idle' });
    expect(doc.claude.text).toMatch(/^stopped ✓ in \d+(\.\d)?s: its registry entry turned idle$/);

    p.cleanup();
    p = newProject({ withFixture: true });
    writeRegistry(claudeDir(p), process.pid, S, { status: 'busy', cwd: p.dir, statusUpdatedAt: Date.now() - 5_000 });
    r = await cli(p, S, '--mode', 'ralph', '--wait', '0.5');
    expect(r.code).toBe(CANCEL_EXIT.notStopped);
    expect(r.out).toContain('its stop was not observed yet');
  });

  it('--wait that sees Claude stop records the verdict for every other omc-top (stopped, with what was seen); one that does not, none', async ({
    newProject,
  }) => {
    const S = SESSION.ralph;
    const run = async (p: TempProject, ...argv: string[]) => {
      const env = { ...process.env, CLAUDE_CONFIG_DIR: claudeDir(p), XDG_STATE_HOME: path.join(p.dir, 'xdg') };
      const code = await runCancelCommand([S, '--mode', 'ralph', ...argv], {
        out: () => undefined,
        err: () => undefined,
        cwd: p.dir,
        now: Date.now,
        env,
      });
      return { code, record: () => new CancelRecordFile(ownStateDir(env), p.root).getSnapshot().records.get(S) };
    };
    let p = newProject({ withFixture: true });
    writeRegistry(claudeDir(p), process.pid, S, { status: 'busy', cwd: p.dir, statusUpdatedAt: Date.now() - 5_000 });
    const done = run(p, '--wait', '30');
    await waitFor(() => fs.existsSync(signalPath(p, S)), { what: 'the signal written' });
    const stopAt = Date.now();
    writeRegistry(claudeDir(p), process.pid, S, { status: 'idle', cwd: p.dir, statusUpdatedAt: stopAt });
    let r = await done;
    expect(r.code).toBe(CANCEL_EXIT.ok);
    expect(r.record()?.settled).toMatchObject({ word: 'stopped', stoppedMs: stopAt, seen: 'idle', byPid: process.pid });

    p = newProject({ withFixture: true });
    writeRegistry(claudeDir(p), process.pid, S, { status: 'busy', cwd: p.dir, statusUpdatedAt: Date.now() - 5_000 });
    r = await run(p, '--wait', '0.3');
    expect(r.code).toBe(CANCEL_EXIT.notStopped);
    expect(r.record()).toMatchObject({ modes: ['ralph', 'ultrawork'], settled: null });
  });

  it('--json: one document with the signal, every step and the verdict', async ({ project: p }) => {
    const r = await cli(p, SESSION.hookRalph, '--mode', 'ralph', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc).toMatchObject({
      ok: true,
      session: SESSION.hookRalph,
      pause: false,
      modes: ['ralph'],
      linked: ['ultrawork'],
      signal: { path: `state/sessions/${SESSION.hookRalph}/cancel-signal-state.json`, form: 'generic', in_force: true },
      still_active: [],
    });
    expect(Date.parse(doc.signal.expires_at) - Date.parse(doc.signal.requested_at)).toBe(30_000);
    expect(doc.steps.map((s: any) => [s.action, s.ok])).toEqual([
      ['remove', true],
      ['remove', true],
    ]);
  });

  it('--signal-only: exit 0 when the Stop hook honours the signal; nothing removed', async ({ project: p }) => {
    const r = await cli(p, SESSION.ralph, '--signal-only', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, pause: true, steps: [], signal: { in_force: true } });
    expect(fs.existsSync(path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json'))).toBe(true);
    // Nothing ended on disk, and no Claude can be seen: the words say only that (the human form too).
    expect(JSON.parse(r.out).claude.text).toBe(
      'no Claude process or transcript of this session can be seen: whether it stops for the pause is not observed',
    );
    const human = await cli(p, SESSION.ralph, '--signal-only');
    expect(human.out).toContain('the loop keeps its state');
    expect(human.out).not.toMatch(/ended on disk/);
  });

  it("a session whose only state is stranded in another session's directory can be cancelled by its own id", async ({
    emptyProject: p,
  }) => {
    const D = '88888888-8888-4888-a888-888888888888';
    const S = '99999999-9999-4999-a999-999999999999';
    // S's live ralph, written into D's directory.
    const stranded = ralphStateFile(p.root, D);
    writeOmcJson(stranded, liveRalph({ sessionId: S, iteration: 3, projectPath: p.dir }));
    // D's cancel points at S, as before.
    const fromD = await cli(p, D, '--omc-version', '5.5.0');
    expect(fromD.err).toContain(`owned by session ${S} (stranded here); cancel that session instead`);
    // S has no directory of its own: its cancel ends the copy its Stop hook reads, and writes its signal.
    const r = await cli(p, S, '--omc-version', '5.5.0');
    expect(r.code, r.err).toBe(CANCEL_EXIT.ok);
    expect(fs.existsSync(stranded)).toBe(false);
    const signal = JSON.parse(fs.readFileSync(signalPath(p, S), 'utf8'));
    expect(signal).toMatchObject({ active: true });
    // An id with no directory and nothing it owns is still refused.
    const none = await cli(p, 'aaaaaaaa-0000-4000-8000-000000000000');
    expect(none.err).toMatch(/no session aaaaaaaa-0000-4000-8000-000000000000 under .* is missing/);
  });

  it('exit 1 with the reason when the cancel did not take', async ({ project: p }) => {
    fs.writeFileSync(
      path.join(p.root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json.mutation.lock'),
      'garbage',
    );
    const r = await cli(p, SESSION.ralph);
    expect(r.code).toBe(CANCEL_EXIT.notTaken);
    expect(r.err).toMatch(
      /^omc-top cancel: cancel did not take: state\/sessions\/.*\/ralph-state\.json: left as it is: .*is not a valid OMC lock record.*; the cancel signal .* was written/,
    );
  });

  it('an autopilot: each step line has its whole word and says what was done (no "set acti")', async ({
    project: p,
  }) => {
    const r = await cli(p, SESSION.autopilot);
    expect(r.code, r.err).toBe(CANCEL_EXIT.ok);
    const rel = `state/sessions/${SESSION.autopilot}/autopilot-state.json`;
    expect(r.out).toContain(`  inactive ${rel}: set active:false (progress kept for resume)\n`);
    // Every step line: two spaces, a whole word from the list, the path.
    for (const line of r.out.split('\n').filter((l) => /^ {2}[a-zA-Z]+ +state\//.test(l)))
      expect(line).toMatch(/^ {2}(removed |gone {4}|inactive|paused {2}|kept {4}|FAILED {2}|wrote {3}|skipped ) \S/);
    expect(r.out).not.toMatch(/set acti(?!ve)/);
  });

  it('--readonly refuses with a message and writes nothing', async ({ project: p }) => {
    const r = await cli(p, SESSION.ralph, '--readonly');
    expect(r.code).toBe(CANCEL_EXIT.readonly);
    expect(r.err).toBe('omc-top cancel: --readonly: cancel writes OMC state, so it is refused. Nothing was written.\n');
    expect(fs.existsSync(signalPath(p, SESSION.ralph))).toBe(false);
  });

  it("refuses ids outside OMC's allow-list and escapes nothing to the terminal", async ({ project: p }) => {
    const r = await cli(p, '../../etc\u001b[2J');
    expect(r.code).toBe(CANCEL_EXIT.usage);
    expect(r.err).toMatch(/is not a valid OMC session id/);
    expect(r.err).not.toContain('\u001b');
  });

  it('exit 4 when there is nothing to cancel', async ({ project: p }) => {
    expect((await cli(p, SESSION.finished)).code).toBe(CANCEL_EXIT.nothing);
    expect((await cli(p, '0b5e9c1e-1111-4222-8333-444455556666', '--json')).out).toMatch(/"error": "not-found"/);
    expect((await cli(p, SESSION.ralph, '--mode', 'autopilot')).err).toBe(
      `omc-top cancel: no autopilot state in ${SESSION.ralph}\n`,
    );
  });

  it('"legacy" names the session-less state', async ({ project: p }) => {
    const r = await cli(p, 'legacy', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ session: 'legacy', signal: { path: 'state/cancel-signal-state.json' } });
    expect(fs.existsSync(path.join(p.root, 'state', 'ultrawork-state.json'))).toBe(false);
  });

  it('a loop file omc-top may not read: refused with the file named, exit 1 (not "nothing to cancel"), nothing written', async ({
    project: p,
  }) => {
    const S = SESSION.ralph;
    const file = ralphStateFile(p.root, S);
    const fault = refuseReads('EACCES', (abs) => abs === file);
    try {
      for (const flags of [[], ['--signal-only']]) {
        const r = await cli(p, S, ...flags);
        expect(r.code).toBe(CANCEL_EXIT.notTaken);
        expect(r.err).toMatch(
          new RegExp(`^omc-top cancel: omc-top cannot read state/sessions/${S}/ralph-state.json \\(permission denied`),
        );
        expect(r.err).toContain('nothing is written');
        const doc = JSON.parse((await cli(p, S, ...flags, '--json')).out);
        expect(doc).toMatchObject({ ok: false, error: 'unreadable' });
        expect(fs.existsSync(signalPath(p, S))).toBe(false);
        expect(fs.existsSync(file)).toBe(true);
      }
    } finally {
      fault.restore();
    }
  });

  it('usage errors for a missing id or unknown flags', async ({ project: p }) => {
    await expect(cli(p)).rejects.toBeInstanceOf(UsageError);
    await expect(cli(p, SESSION.ralph, '--force')).rejects.toThrow(/unknown option --force/);
  });

  it('a bad --wait is a usage error before the disk is looked at: the same with no .omc anywhere as in a project', async ({
    tempDir,
  }) => {
    const nowhere = tempDir('omc-top-cancel-nowhere-');
    const home = tempDir('omc-top-cancel-home-');
    const run = (cwd: string) =>
      runCancelCommand(['x1', '--wait', 'abc'], {
        out: () => undefined,
        err: () => undefined,
        cwd,
        now: Date.now,
        env: { ...process.env, HOME: home, OMC_STATE_DIR: '', CLAUDE_CONFIG_DIR: path.join(home, 'claude') },
      });
    await expect(run(nowhere)).rejects.toThrow(new UsageError('--wait needs a number of seconds, not "abc"'));
  });
});
