/**
 * Answering a loop from omc-top, end to end with the real Claude Code CLI (2.1.332), offline (harness.ts):
 * permission prompts through the opt-in PermissionRequest hook (`omc-top hooks install`), notes through the
 * session's inbox socket (busy and idle) and typed into its pane, and resuming a ralph whose CLI was killed
 * (the real OMC 5.5.0 Stop hook then continues the loop). Skips, saying why, where the CLI or namespaces are
 * unavailable.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runHooksCommand } from '../../src/commands/hooks.js';
import { readRegistry } from '../../src/store/claude/registry.js';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { answerPermission } from '../../src/store/permissions/answer.js';
import { PermissionsDomain } from '../../src/store/permissions/domain.js';
import { sendPermissionAnswer } from '../../src/feeds/answers/answer.js';
import { planNote, sendNote } from '../../src/store/claude/note.js';
import { planPaneTyping, readPromptDraft, typeIntoPane } from '../../src/store/claude/pane-typing.js';
import { planResume, resumeVerdict } from '../../src/store/claude/resume.js';
import { attentionFor } from '../../src/store/claude/attention.js';
import { OmcStore } from '../../src/store/store.js';
import { KEY, mountStore } from '../helpers/mount-app.js';
import { showSession } from './ui.js';
import { OMC_PLUGIN, REPO, claudeBin, skipReason, startRun, waitFor, waitForPane, type Run } from './harness.js';

const reason = skipReason();
if (reason) console.warn(`[real Claude Code answering suite skipped] ${reason}`);

const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
const HOOK = path.join(REPO, 'dist', 'omc-top-hook.mjs');
type Json = Record<string, any>;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Scene {
  run: Run;
  env: NodeJS.ProcessEnv;
  stateDir: string;
  tmux(...args: string[]): { status: number | null; stdout: string; stderr: string };
  screen(target?: string): string;
  type(text: string, target?: string): Promise<void>;
  transcript(sid: string): Json[];
  store(): OmcStore;
}

/** A run with omc-top's own state and config dirs, and a tmux server inside the namespace. */
async function scene(name: string, config: Record<string, unknown> = {}): Promise<Scene> {
  const run = await startRun(name);
  cleanups.push(() => run.close());
  const xdgState = path.join(run.dir, 'xdg-state');
  const xdgConfig = path.join(run.dir, 'xdg-config');
  fs.mkdirSync(path.join(xdgConfig, 'omc-top'), { recursive: true });
  fs.writeFileSync(path.join(xdgConfig, 'omc-top', 'config.json'), JSON.stringify(config));
  const env = { ...run.env, XDG_STATE_HOME: xdgState, XDG_CONFIG_HOME: xdgConfig };
  const sock = path.join(run.dir, 'tmux.sock');
  const tmux = (...args: string[]) => spawnSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
  const screen = (target = 'main') => tmux('capture-pane', '-p', '-t', target).stdout;
  const stores: OmcStore[] = [];
  cleanups.push(async () => {
    for (const s of stores) await s.close();
    tmux('kill-server');
  });
  return {
    run,
    env,
    stateDir: path.join(xdgState, 'omc-top'),
    tmux,
    screen,
    async type(text, target = 'main') {
      tmux('send-keys', '-t', target, '-l', text);
      await waitFor('the typed text on screen', () => screen(target).includes(text.slice(0, 60)), 30_000);
      tmux('send-keys', '-t', target, 'Enter');
    },
    transcript(sid) {
      const file = path.join(run.configDir, transcriptRel(run.project, sid));
      if (!fs.existsSync(file)) return [];
      return fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Json);
    },
    store() {
      const s = new OmcStore({
        root: path.join(run.project, '.omc'),
        watch: 'none',
        projectDir: run.project,
        claude: { live: true, env: { CLAUDE_CONFIG_DIR: run.configDir } },
        answers: { stateDir: path.join(xdgState, 'omc-top'), listen: true, live: true },
      });
      stores.push(s);
      s.start();
      return s;
    },
  };
}

/** An interactive claude in window 0 of the scene's tmux server; resolves with its registry entry once idle. */
async function startClaude(s: Scene, args: string) {
  const start = s.run.spawnInNs(
    'tmux',
    [
      ...['-S', path.join(s.run.dir, 'tmux.sock'), '-f', '/dev/null', 'new-session', '-d', '-s', 'main'],
      ...['-x', '150', '-y', '45', '-c', s.run.project, `claude ${args}`],
    ],
    { env: s.env },
  );
  await new Promise((r) => start.on('close', r));
  const entry = await waitFor(
    'the interactive CLI to be idle',
    () => readRegistry(s.run.configDir).entries.find((e) => e.status === 'idle'),
    90_000,
  );
  // The footer differs by mode ("? for shortcuts", "accept edits on"): wait for the input box itself.
  await waitFor('the prompt box', () => readPromptDraft(s.screen()).ok, 60_000);
  return entry;
}

/** The tool_result line of the Bash call that ran `command`, once the transcript has it. */
function toolResult(s: Scene, sid: string, command: string): Json | null {
  const lines = s.transcript(sid);
  const use = lines
    .flatMap((l) => (l.type === 'assistant' ? (l.message?.content ?? []) : []))
    .find((b: Json) => b.type === 'tool_use' && b.input?.command === command);
  if (!use) return null;
  // The user line holds the result and how it was decided; the CLI also writes the same block earlier in an
  // api-request-blob line (the request it sent), which says nothing of the decision.
  for (const l of lines.filter((x) => x.type === 'user'))
    for (const b of Array.isArray(l.message?.content) ? l.message.content : [])
      if (b.type === 'tool_result' && b.tool_use_id === use.id)
        return { ...b, permissionDecision: l.permissionDecision };
  return null;
}

/** An interactive claude started with `flags`, its ralph confirmed by the real OMC and a long tool running. */
async function ralphAtWork(s: Scene, flags: readonly string[]) {
  const entry = await startClaude(s, flags.join(' '));
  const sid = entry.sessionId;
  await s.type('ralph: long job [[bash:timeout 300 tail -f /dev/null]]');
  const ralphFile = path.join(s.run.project, '.omc', 'state', 'sessions', sid, 'ralph-state.json');
  const ralph = (): Json | null => {
    try {
      return JSON.parse(fs.readFileSync(ralphFile, 'utf8')) as Json;
    } catch {
      return null;
    }
  };
  await waitFor(
    'ralph confirmed by the Skill call',
    () => ralph()?.active === true && !ralph()?.awaiting_confirmation,
    90_000,
  );
  await waitFor('the long tool to run', () => s.run.mockCalls().some((c) => c.tool === 'Bash'), 90_000);
  return { entry, sid, ralph };
}

/** `omc-top hooks <verb>` for the scene's project, as a user runs it; what it printed is kept in `out`. */
function hooksOf(s: Awaited<ReturnType<typeof scene>>) {
  const out: string[] = [];
  const hooks = (verb: string) =>
    runHooksCommand([verb, '--cwd', s.run.project], {
      out: (t) => out.push(t),
      err: (t) => out.push(t),
      cwd: s.run.project,
      env: s.env,
      script: HOOK,
    });
  return { out, hooks };
}

describe.skipIf(reason !== null)('answering from omc-top, with the real Claude Code CLI', () => {
  it('permission prompts: y allows, n denies, no answer or no omc-top leaves Claude its own prompt', async () => {
    const s = await scene('perm', { answers: { permissionWaitSeconds: 8 } });
    const { out, hooks } = hooksOf(s);
    expect(hooks('install'), out.join('')).toBe(0);
    const entry = await startClaude(s, '--permission-mode default');
    const sid = entry.sessionId;
    const dialog = () => s.screen().includes('Do you want to proceed?');
    const escapeDialog = async () => {
      s.tmux('send-keys', '-t', 'main', 'Escape');
      await waitFor('the dialog to close', () => !dialog(), 30_000);
      await waitFor(
        'the CLI to be idle',
        () => readRegistry(s.run.configDir).entries.find((e) => e.pid === entry.pid)?.status === 'idle',
        60_000,
      );
    };

    // omc-top not running: the hook asks nobody and writes nothing; Claude's own dialog is there.
    await s.type('one [[bash:touch one.txt]]');
    await waitFor('the permission dialog', dialog, 60_000);
    expect(fs.existsSync(path.join(s.stateDir, 'permissions', 'requests'))).toBe(false);
    await escapeDialog();
    expect(fs.existsSync(path.join(s.run.project, 'one.txt'))).toBe(false);

    // omc-top running: its ! list shows the command (this plain session has no OMC row); y there → the tool ran.
    const store = s.store();
    const app = mountStore(store, { columns: 180, rows: 40 });
    cleanups.push(() => app.unmountOnly());
    await app.ready;
    await app.press('!');
    const pending = () => {
      store.permissions.reread();
      return store.permissions.getSnapshot().requests[0];
    };
    await s.type('two [[bash:touch two.txt]]');
    let req = await waitFor('the request in omc-top', pending, 60_000);
    expect(req).toMatchObject({ sessionId: sid, toolName: 'Bash', subject: 'touch two.txt', alwaysOffered: true });
    await app.waitForText(new RegExp(`» permission: Bash touch two\\.txt — .*${sid.slice(0, 8)}`));
    // The inbox keeps the selection on the item it was on; what can be answered is listed first (g goes there).
    await app.press('g');
    await app.press('y');
    await app.waitForText(/✓ .*: the hook told Claude: allow/);
    const ran = await waitFor('the tool result', () => toolResult(s, sid, 'touch two.txt'), 60_000);
    expect(ran.is_error).not.toBe(true);
    expect(ran.permissionDecision).toMatchObject({ decision: 'accept', source: 'hook' });
    expect(fs.existsSync(path.join(s.run.project, 'two.txt'))).toBe(true);

    // n (deny) → it did not run; Claude got omc-top's message.
    await waitFor(
      'idle',
      () => readRegistry(s.run.configDir).entries.find((e) => e.pid === entry.pid)?.status === 'idle',
      60_000,
    );
    await s.type('three [[bash:touch three.txt]]');
    req = await waitFor('the request in omc-top', pending, 60_000);
    await app.waitForText(new RegExp(`» permission: Bash touch three\\.txt — .*${sid.slice(0, 8)}`));
    await app.press('g');
    await app.press('n');
    await app.waitForText(/✓ .*: the hook told Claude: deny/);
    const denied = await waitFor('the tool result', () => toolResult(s, sid, 'touch three.txt'), 60_000);
    expect(denied).toMatchObject({ is_error: true, content: 'Denied from omc-top by the operator' });
    expect(fs.existsSync(path.join(s.run.project, 'three.txt'))).toBe(false);

    // No answer within the bound: the hook gives up, Claude's own prompt stays, and a late y is refused as stale.
    await waitFor(
      'idle',
      () => readRegistry(s.run.configDir).entries.find((e) => e.pid === entry.pid)?.status === 'idle',
      60_000,
    );
    await s.type('four [[bash:touch four.txt]]');
    req = await waitFor('the request in omc-top', pending, 60_000);
    await waitFor(
      'the receipt',
      () =>
        store.permissions.getSnapshot().receipts.get(req.id)?.outcome === 'timeout' ||
        (store.permissions.reread(), false),
      30_000,
    );
    expect(dialog()).toBe(true);
    expect(answerPermission(s.stateDir, req, 'allow', { claudeEnv: s.run.env })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^stale/),
    });
    await escapeDialog();
    expect(fs.existsSync(path.join(s.run.project, 'four.txt'))).toBe(false);
    expect(hooks('uninstall')).toBe(0);
  }, 400_000);

  it('permission prompt of a Claude killed with SIGKILL: omc-top stops offering it and says no answer can reach it', async () => {
    const s = await scene('perm-kill', { answers: { permissionWaitSeconds: 120 } });
    const { out, hooks } = hooksOf(s);
    expect(hooks('install'), out.join('')).toBe(0);
    const entry = await startClaude(s, '--permission-mode default');
    const store = s.store();
    const app = mountStore(store, { columns: 180, rows: 40 });
    cleanups.push(() => app.unmountOnly());
    await app.ready;
    await app.press('!');
    await s.type('kill [[bash:touch killed.txt]]');
    const req = await waitFor(
      'the request in omc-top',
      () => (store.permissions.reread(), store.permissions.getSnapshot().requests[0]),
      60_000,
    );
    await app.waitForText(/» permission: Bash touch killed\.txt/);
    expect(req.claudePid).toBe(entry.pid);

    // kill -9: the registry entry stays, the hook is orphaned and would wait its 120 s.
    process.kill(entry.pid, 'SIGKILL');
    await waitFor(
      'the item to leave the ! list',
      () => !app.lines().join('\n').includes('permission: Bash touch killed.txt'),
      30_000,
      () => app.lines().join('\n'),
    );
    // Refused: Claude is gone (or, when the hook saw it first and ended, the request with it).
    expect(answerPermission(s.stateDir, req, 'allow', { claudeEnv: s.run.env })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^stale: /),
    });
    // The hook saw it too: it ended with that receipt, long before its bound, and replied to nobody.
    const receipt = await waitFor(
      'the receipt',
      () => (store.permissions.reread(), store.permissions.getSnapshot().receipts.get(req.id)),
      30_000,
    );
    expect(receipt).toMatchObject({ outcome: 'claude-gone' });
    expect(fs.existsSync(path.join(s.run.project, 'killed.txt'))).toBe(false);
    expect(hooks('uninstall')).toBe(0);
  }, 300_000);

  it('a Claude killed right after the hook handed it the answer: omc-top says handed to Claude, never ✓, never lost', async () => {
    const s = await scene('perm-handed', { answers: { permissionWaitSeconds: 120 } });
    const { out, hooks } = hooksOf(s);
    expect(hooks('install'), out.join('')).toBe(0);
    const entry = await startClaude(s, '--permission-mode default');
    // A monitor that reads the hook's receipt only when told (the test's own pass): Claude dies in between, as it
    // may between a monitor's passes.
    const dom = new PermissionsDomain({
      stateDir: s.stateDir,
      projectDir: s.run.project,
      live: false,
      listen: true,
      claudeEnv: { CLAUDE_CONFIG_DIR: s.run.configDir },
    });
    cleanups.push(() => dom.dispose());
    dom.scan();
    await s.type('handed [[bash:touch handed.txt]]');
    const req = await waitFor('the request in omc-top', () => (dom.reread(), dom.getSnapshot().requests[0]), 60_000);
    expect(req.claudePid).toBe(entry.pid);
    const store = { permissions: dom, claude: { getSnapshot: () => ({ configDir: s.run.configDir }) } };
    const said: string[] = [];
    sendPermissionAnswer(store as unknown as OmcStore, req, 'allow', (t) => said.push(t));
    // The hook wrote its reply to Claude whole (its receipt comes after that), then Claude is gone.
    const receipt = path.join(s.stateDir, 'permissions', 'receipts', `${req.id}.json`);
    await waitFor('the hook to hand the answer over', () => fs.existsSync(receipt), 60_000);
    expect(JSON.parse(fs.readFileSync(receipt, 'utf8'))).toMatchObject({ outcome: 'allow' });
    process.kill(entry.pid, 'SIGKILL');
    await waitFor('Claude gone', () => {
      try {
        return fs.readFileSync(`/proc/${entry.pid}/stat`, 'utf8').split(') ')[1]?.[0] === 'Z';
      } catch {
        return true;
      }
    });
    dom.reread();
    await waitFor('the outcome line', () => said.length > 1, 30_000);
    expect(said.slice(1)).toEqual([
      `Bash touch handed.txt: handed to Claude: allow; Claude exited right after (pid ${entry.pid} is not running), so whether it acted on it is unknown`,
    ]);
    expect(hooks('uninstall')).toBe(0);
  }, 300_000);

  it('a note reaches the session through its inbox socket, idle and busy; typing into the pane only with no draft there', async () => {
    const s = await scene('note');
    const entry = await startClaude(s, '--permission-mode acceptEdits --allowedTools Bash');
    const sid = entry.sessionId;
    const store = s.store();
    const idle = () => readRegistry(s.run.configDir).entries.find((e) => e.pid === entry.pid)?.status === 'idle';

    // Idle, with the command: "sent" at once, "delivered ✓" when the transcript shows it; a turn starts.
    const out = execFileSync(
      process.execPath,
      [BUNDLE, 'send', sid.slice(0, 8), 'NOTE idle from omc-top', '--wait', '90'],
      { env: { ...s.env, CI: '' }, encoding: 'utf8' },
    );
    expect(out).toMatch(/sent to .*session [0-9a-f]{8}, pid \d+/);
    expect(out).toMatch(/delivered ✓/);
    const idleLine = s.transcript(sid).find((l) => l.type === 'user' && l.origin?.kind === 'peer');
    expect(idleLine).toMatchObject({ origin: { kind: 'peer', from: 'omc-top', verifiedLocal: true } });
    expect(idleLine?.message.content).toContain('NOTE idle from omc-top');
    await waitFor('the turn the note started to end', idle, 90_000);

    // Busy: sent while a tool runs; Claude takes it in between tool calls, and omc-top sees that in the transcript.
    await s.type('busy [[bash:timeout 8 tail -f /dev/null]] [[bash:echo second]] [[text:after busy]]');
    await waitFor('the long tool to run', () => s.run.mockCalls().some((c) => c.tool === 'Bash'), 90_000);
    await waitFor('busy', () => store.claude.getSnapshot().bySession.get(sid)?.process?.status === 'busy', 30_000);
    const proc = store.claude.getSnapshot().bySession.get(sid)?.process ?? null;
    const plan = planNote(s.run.configDir, proc);
    expect(plan).toMatchObject({ ok: true, pid: entry.pid, token: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(await sendNote(plan, 'NOTE while busy from omc-top')).toMatchObject({ ok: true });
    const note = store.notes.add(sid, 'NOTE while busy from omc-top', 'socket', entry.pid);
    expect(note.deliveredMs).toBeNull();
    await waitFor(
      'the note delivered',
      () => store.notes.getSnapshot().find((n) => n.id === note.id)?.deliveredMs,
      90_000,
    );
    const absorbed = s.transcript(sid).find((l) => l.type === 'attachment' && l.attachment?.type === 'queued_command');
    expect(absorbed?.attachment).toMatchObject({
      prompt: 'NOTE while busy from omc-top',
      origin: { kind: 'peer', from: 'omc-top' },
    });
    await waitFor('the busy turn to end', idle, 90_000);

    // The pane, as an explicit second choice: refused while a draft is typed there; typed (and sent) once it is empty.
    const serverPid = s.tmux('display-message', '-p', '#{pid}').stdout.trim();
    const inTmux = { TMUX: `${path.join(s.run.dir, 'tmux.sock')},${serverPid},0` };
    s.tmux('send-keys', '-t', 'main', '-l', 'half typed draft');
    await waitForPane('the draft on screen', () => s.screen(), 'half typed draft', 30_000);
    const live = store.claude.getSnapshot().bySession.get(sid)?.process ?? null;
    expect(planPaneTyping(live!, inTmux)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/half-typed draft/),
    });
    s.tmux('send-keys', '-t', 'main', 'C-u');
    await waitFor('the draft gone', () => !s.screen().includes('half typed draft'), 30_000);
    const typed = typeIntoPane(planPaneTyping(live!, inTmux), 'typed into the pane by omc-top [[text:typed ok]]');
    expect(typed).toMatchObject({ ok: true, message: expect.stringMatching(/^typed into pane %\d+/) });
    await waitFor(
      'the typed prompt in the transcript',
      () =>
        s
          .transcript(sid)
          .some((l) => l.type === 'user' && l.message?.content === 'typed into the pane by omc-top [[text:typed ok]]'),
      60_000,
    );
  }, 400_000);

  it('resume: a ralph whose CLI was killed, resumed from omc-top with the flags it ran with; the real OMC 5.5.0 Stop hook continues the loop', async () => {
    // No answers.claudeCommand: the default `claude`, found on the PATH of the tmux client that asks for the
    // window (omc-top's), which tmux gives the new window's command.
    const s = await scene('resume');
    vi.stubEnv('PATH', `${path.dirname(claudeBin()!)}:${process.env.PATH ?? ''}`);
    cleanups.push(() => void vi.unstubAllEnvs());
    const flags = ['--plugin-dir', OMC_PLUGIN, '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'];
    const { entry, sid, ralph } = await ralphAtWork(s, flags);
    const before = ralph()?.iteration as number;
    // omc-top's own window: the server (and the user's tmux session) outlive the killed CLI's window.
    s.tmux('new-window', '-d', '-n', 'monitor', 'sleep 3600');
    // omc-top is watching when the CLI is killed (as it is for a user): it has seen the process at work.
    const store = s.store();
    const session = () => store.sessions.getSnapshot().sessions.find((x) => x.id === sid);
    const proc = () => store.claude.getSnapshot().bySession.get(sid)?.process ?? null;
    await waitFor(
      'omc-top to see the CLI at work',
      () => proc()?.status === 'busy',
      30_000,
      () => JSON.stringify(proc()),
    );
    process.kill(entry.pid, 'SIGKILL');
    // Killed, it may stay a zombie while tmux has not reaped it (seen for minutes): it runs nothing all the same.
    const procState = () => {
      try {
        return `state ${fs.readFileSync(`/proc/${entry.pid}/stat`, 'utf8').split(') ')[1]?.[0]}`;
      } catch {
        return 'no entry';
      }
    };
    await waitFor(
      'the process gone',
      () => proc()?.status === 'gone',
      30_000,
      () => `${JSON.stringify(proc())}; /proc/${entry.pid}: ${procState()}`,
    );
    expect(attentionFor(session()!, proc(), null).map((a) => a.kind)).toContain('orphaned-loop');
    expect(resumeVerdict(session()!)).toMatchObject({
      continues: true,
      text: expect.stringMatching(/^OMC would continue ralph/),
    });

    // From omc-top's keys, as if it ran in that tmux: r on the row, what OMC would do, y → the new window.
    const serverPid = s.tmux('display-message', '-p', '#{pid}').stdout.trim();
    const env = { TMUX: `${path.join(s.run.dir, 'tmux.sock')},${serverPid},0` };
    vi.stubEnv('TMUX', env.TMUX);
    vi.stubEnv('XDG_CONFIG_HOME', s.env.XDG_CONFIG_HOME as string);
    cleanups.push(() => void vi.unstubAllEnvs());
    // Wide enough for the whole command on one line of the dialog.
    const app = mountStore(store, { columns: 260, rows: 40 });
    cleanups.push(() => app.unmountOnly());
    await app.ready;
    await showSession(app, sid);
    // The process is gone, the flags it ran with are known: its detail judges it by the OMC of its recorded
    // --plugin-dir and says so, never "OMC: not found" (the project itself has no OMC plugin enabled).
    const ranWith = `--plugin-dir ${OMC_PLUGIN} (claude pid ${entry.pid} ran with it; process gone)`;
    // The registry read again (another Claude starting or exiting does that) does not lose it either.
    store.claude.scan();
    expect(session()!.omc).toMatchObject({ version: '5.5.0', source: ranWith });
    expect(session()!.omc?.assumed).toBeFalsy();
    await app.press(KEY.enter);
    await app.waitForText(`OMC 5.5.0: ${ranWith}; judged by the`);
    expect(app.text()).not.toContain('OMC: not found');
    await app.press(KEY.esc);
    await app.waitForText(/r resume/);
    await app.press('r');
    await app.waitForText(`Resume session ${sid.slice(0, 8)} in a new tmux window?`);
    expect(app.text()).toMatch(/If resumed: OMC would continue ralph/);
    expect(app.text()).toContain(`In ${s.run.project}, a new window runs:`);
    // The exact command: the flags the killed process ran with, read while it lived, before --resume.
    expect(app.text()).toContain(`claude ${flags.join(' ')} --resume ${sid} 'Continue where you left off.'`);
    expect(app.text()).toContain(`With the flags its Claude process (pid ${entry.pid}) ran with`);
    await app.press('y');

    // The row follows the new process: same session id, a new pid, alive.
    const resumed = await waitFor(
      'the resumed CLI to register',
      () => {
        const p = proc();
        return p && p.pid !== entry.pid && p.status !== 'gone' ? p : null;
      },
      90_000,
    );
    expect(resumed.sessionId).toBe(sid);
    // The resumed process itself runs with them (its command line, not only the words on the screen).
    const cmdline = fs.readFileSync(`/proc/${resumed.pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline.slice(1, 1 + flags.length)).toEqual(flags);
    await app.waitForText(new RegExp(`✓ resumed: pid ${resumed.pid} registered for session ${sid.slice(0, 8)}`));
    expect(s.tmux('list-windows', '-F', '#{window_name}').stdout).toContain(`resume-${sid.slice(0, 8)}`);
    // OMC's Stop hook blocks again: the loop goes on (a new iteration).
    await waitFor('the next ralph iteration', () => (ralph()?.iteration as number) > before, 120_000);
    expect(ralph()).toMatchObject({ active: true, session_id: sid });
    // …and Claude is fed it: the hook's block reaches the transcript of the resumed session.
    await waitFor(
      "the Stop hook's block in the transcript",
      () =>
        s
          .transcript(sid)
          .some(
            (l) =>
              l.attachment?.type === 'hook_blocking_error' &&
              JSON.stringify(l).includes(`RALPH LOOP - ITERATION ${ralph()?.iteration as number}`),
          ),
      60_000,
    );
    expect(planResume(session()!, proc(), { env })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/running/),
    });
  }, 400_000);

  it('resume of a session whose command line omc-top never saw: the dialog says the resumed Claude may not load OMC', async () => {
    const s = await scene('resume-unseen');
    const { entry, sid } = await ralphAtWork(s, ['--plugin-dir', OMC_PLUGIN, '--permission-mode', 'acceptEdits']);
    s.tmux('new-window', '-d', '-n', 'monitor', 'sleep 3600');
    process.kill(entry.pid, 'SIGKILL');
    await waitFor('the killed CLI to be gone', () => {
      try {
        return fs.readFileSync(`/proc/${entry.pid}/stat`, 'utf8').split(') ')[1]?.[0] === 'Z';
      } catch {
        return true;
      }
    });
    // omc-top starts only now: the process is gone, its --plugin-dir was never read.
    const store = s.store();
    await waitFor('the process gone', () => store.claude.getSnapshot().bySession.get(sid)?.process?.status === 'gone');
    const serverPid = s.tmux('display-message', '-p', '#{pid}').stdout.trim();
    vi.stubEnv('TMUX', `${path.join(s.run.dir, 'tmux.sock')},${serverPid},0`);
    vi.stubEnv('XDG_CONFIG_HOME', s.env.XDG_CONFIG_HOME as string);
    cleanups.push(() => void vi.unstubAllEnvs());
    const app = mountStore(store, { columns: 260, rows: 40 });
    cleanups.push(() => app.unmountOnly());
    await app.ready;
    await showSession(app, sid);
    // The detail says it too, before any key.
    await app.press(KEY.enter);
    await app.waitForText(/If resumed, and only if OMC loads: OMC would continue ralph/);
    await app.press('r');
    await app.waitForText(`Resume session ${sid.slice(0, 8)} in a new tmux window?`);
    expect(app.text()).toMatch(/If resumed, and only if OMC loads: OMC would continue ralph/);
    expect(app.text()).toContain(`claude --resume ${sid} 'Continue where you left off.'`);
    expect(app.text()).toContain(
      `omc-top never saw the command line of its Claude process (pid ${entry.pid}): if it loaded OMC with --plugin-dir`,
    );
    expect(app.text()).toMatch(/the resumed Claude runs without them and may not load OMC\./);
    await app.press('n');
  }, 400_000);
});
