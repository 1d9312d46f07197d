/**
 * The permission bridge between Claude Code's PermissionRequest hook and the monitor, without Claude: the hook's
 * logic in process (a fake clock where the bound matters) and the real hook bundle as Claude Code runs it (a
 * child process, JSON on stdin). What is asserted is what Claude would get (stdout) and what lands on disk.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { runPermissionHook, type HookDeps } from '../../src/commands/hook-permission.js';
import { answerPermission } from '../../src/store/permissions/answer.js';
import { sendPermissionAnswer } from '../../src/feeds/answers/answer.js';
import type { OmcStore } from '../../src/store/store.js';
import { PermissionsDomain } from '../../src/store/permissions/domain.js';
import { ANSWERS, REQUESTS, type PermissionRequestFile } from '../../src/store/permissions/protocol.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { encodeProjectDir } from '../../src/store/claude/config-dir.js';
import { REPO, waitFor } from '../helpers/fixtures.js';

const HOOK = path.join(REPO, 'dist', 'omc-top-hook.mjs');
const dirs: string[] = [];
const domains: PermissionsDomain[] = [];
afterEach(() => {
  for (const d of domains.splice(0)) d.dispose();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function world() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bridge-'));
  dirs.push(base);
  const project = path.join(base, 'proj');
  fs.mkdirSync(project);
  const env: NodeJS.ProcessEnv = {
    XDG_STATE_HOME: path.join(base, 'state'),
    XDG_CONFIG_HOME: path.join(base, 'config'),
    CLAUDE_CONFIG_DIR: path.join(base, 'claude'),
    HOME: base,
    PATH: process.env.PATH,
  };
  const stateDir = path.join(base, 'state', 'omc-top');
  return { base, project, env, stateDir };
}

const SID = 'a1b2c3d4-0000-4000-8000-000000000001';
/**
 * What Claude Code sends the hook. Its transcript path lies in its config directory, as the real CLI names it: the
 * world's CLAUDE_CONFIG_DIR (`claude` beside the project), whose registry says whether Claude still waits.
 */
const payload = (cwd: string, over: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: SID,
    transcript_path: path.join(path.dirname(cwd), 'claude', 'projects', encodeProjectDir(cwd), `${SID}.jsonl`),
    cwd,
    prompt_id: 'p-1',
    permission_mode: 'default',
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command: 'touch made.txt', description: 'mock command' },
    permission_suggestions: [],
    ...over,
  });

/** A monitor listening for `w`'s requests; `claudeEnv`: where it looks for the asking Claude's registry entry. */
function listen(w: ReturnType<typeof world>, projectDir = w.project, claudeEnv?: NodeJS.ProcessEnv) {
  const d = new PermissionsDomain({ stateDir: w.stateDir, projectDir, live: false, listen: true, claudeEnv });
  domains.push(d);
  d.scan();
  return d;
}

function deps(w: ReturnType<typeof world>, over: Partial<HookDeps> = {}) {
  const printed: string[] = [];
  const d: HookDeps = {
    env: w.env,
    now: Date.now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    print: (t) => void printed.push(t),
    startIdentity: processStartIdentity,
    stopped: () => false,
    pollMs: 20,
    ...over,
  };
  return { d, printed };
}

async function pending(dom: PermissionsDomain) {
  return waitFor(
    () => {
      dom.reread();
      return dom.getSnapshot().requests[0];
    },
    { timeoutMs: 10_000, what: 'the request' },
  );
}

const tree = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name)
    : [];

describe('the permission hook, in process', () => {
  it('with no monitor running it writes nothing and says nothing: Claude keeps its prompt', async () => {
    const w = world();
    const { d, printed } = deps(w);
    const r = await runPermissionHook(payload(w.project), d);
    expect(r.outcome).toBe('no-listener');
    expect(printed).toEqual([]);
    expect(fs.existsSync(w.stateDir)).toBe(false);
  });

  it('a request over what a monitor reads is not handed over: the hook returns at once, Claude keeps its prompt', async () => {
    const w = world();
    const dom = listen(w);
    const { d, printed } = deps(w);
    const command = `cat > big.txt <<EOF\n${'x'.repeat(300_000)}\nEOF`;
    const r = await runPermissionHook(payload(w.project, { tool_input: { command } }), d);
    expect(r).toMatchObject({ outcome: 'ignored', detail: expect.stringMatching(/over the 256 KB a monitor reads/) });
    expect(printed).toEqual([]);
    expect(tree(path.join(w.stateDir, REQUESTS))).toEqual([]);
    dom.reread();
    expect(dom.getSnapshot().problems).toEqual([]);
  });

  it('a monitor for another project is not asked', async () => {
    const w = world();
    listen(w, path.join(w.base, 'elsewhere'));
    const { d, printed } = deps(w);
    expect((await runPermissionHook(payload(w.project), d)).outcome).toBe('no-listener');
    expect(printed).toEqual([]);
  });

  it('allow, deny and always reach Claude in its reply format, bound to the request shown', async () => {
    const w = world();
    const dom = listen(w);
    for (const [decision, reply] of [
      ['allow', { behavior: 'allow' }],
      ['deny', { behavior: 'deny', message: 'Denied from omc-top by the operator' }],
      [
        'always',
        {
          behavior: 'allow',
          updatedPermissions: [
            {
              type: 'addRules',
              rules: [{ toolName: 'Bash', ruleContent: 'touch made.txt' }],
              behavior: 'allow',
              destination: 'session',
            },
          ],
        },
      ],
    ] as const) {
      const { d, printed } = deps(w);
      const hook = runPermissionHook(payload(w.project), d);
      const req = await pending(dom);
      expect(req).toMatchObject({ toolName: 'Bash', subject: 'touch made.txt', alwaysOffered: true });
      expect(answerPermission(w.stateDir, req, decision, { claudeEnv: w.env })).toMatchObject({ ok: true });
      const r = await hook;
      expect(r.outcome).toBe(decision);
      expect(printed.map((p) => JSON.parse(p))).toEqual([
        { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: reply } },
      ]);
      // The request and its answer are gone; the receipt says what was done.
      dom.reread();
      expect(dom.getSnapshot().requests).toEqual([]);
      expect(dom.getSnapshot().receipts.get(req.id)).toMatchObject({ outcome: decision });
      expect(tree(path.join(w.stateDir, REQUESTS))).toEqual([]);
      expect(tree(path.join(w.stateDir, ANSWERS))).toEqual([]);
    }
  });

  it('a store that does not answer (watch --json, what a --host fleet reads), started before the first monitor that answers, sees its prompts', async () => {
    const w = world();
    // A fresh machine: no omc-top state directory yet (a watch writes its status file only later).
    expect(fs.existsSync(w.stateDir)).toBe(false);
    const watcher = new PermissionsDomain({ stateDir: w.stateDir, projectDir: w.project, live: true });
    domains.push(watcher);
    watcher.scan();
    // The first monitor that answers makes the directories; the hook hands it a prompt.
    const dom = listen(w);
    const { d } = deps(w);
    const hook = runPermissionHook(payload(w.project), d);
    const req = await pending(dom);
    await waitFor(() => watcher.getSnapshot().requests.some((r) => r.id === req.id), {
      what: 'the watching store to see the request',
    });
    expect(answerPermission(w.stateDir, req, 'deny', { claudeEnv: w.env })).toMatchObject({ ok: true });
    expect((await hook).outcome).toBe('deny');
    await waitFor(() => watcher.getSnapshot().requests.length === 0, { what: 'the request gone there too' });
  });

  it('"always" keeps the rule in local settings when the config says so, and is refused for a tool that is not Bash', async () => {
    const w = world();
    fs.mkdirSync(path.join(w.env.XDG_CONFIG_HOME as string, 'omc-top'), { recursive: true });
    fs.writeFileSync(
      path.join(w.env.XDG_CONFIG_HOME as string, 'omc-top', 'config.json'),
      JSON.stringify({ answers: { alwaysDestination: 'localSettings' } }),
    );
    const dom = listen(w);
    let { d, printed } = deps(w);
    let hook = runPermissionHook(payload(w.project), d);
    let req = await pending(dom);
    answerPermission(w.stateDir, req, 'always', { claudeEnv: w.env });
    expect(await hook).toMatchObject({ outcome: 'always', detail: 'always (localSettings)' });
    expect(JSON.parse(printed[0] as string).hookSpecificOutput.decision.updatedPermissions[0].destination).toBe(
      'localSettings',
    );
    ({ d, printed } = deps(w));
    hook = runPermissionHook(
      payload(w.project, { tool_name: 'Write', tool_input: { file_path: '/tmp/x', content: 'y' } }),
      d,
    );
    req = await pending(dom);
    expect(req).toMatchObject({ subject: '/tmp/x', alwaysOffered: false });
    expect(answerPermission(w.stateDir, req, 'always', { claudeEnv: w.env })).toMatchObject({ ok: false });
    expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toMatchObject({ ok: true });
    expect((await hook).outcome).toBe('allow');
  });

  it('"always" is never made a rule from a command holding * (Claude Code reads it as a pattern): y still allows it once', async () => {
    const w = world();
    const dom = listen(w);
    for (const command of ['git log:*', 'ls *.txt']) {
      const { d, printed } = deps(w);
      const hook = runPermissionHook(payload(w.project, { tool_input: { command } }), d);
      const req = await pending(dom);
      expect(req).toMatchObject({ subject: command, alwaysOffered: false });
      expect(req.alwaysRefused).toMatch(/not offered for a command holding \*/);
      expect(answerPermission(w.stateDir, req, 'always', { claudeEnv: w.env })).toEqual({
        ok: false,
        message: req.alwaysRefused,
      });
      expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toMatchObject({ ok: true });
      expect((await hook).outcome).toBe('allow');
      // What Claude was told: this call, and no rule.
      expect(JSON.parse(printed[0] as string).hookSpecificOutput.decision).toEqual({ behavior: 'allow' });
      dom.reread();
    }
  });

  it('an answer that is not exactly right is refused: nothing is printed (Claude keeps its prompt)', async () => {
    const w = world();
    const dom = listen(w);
    const bad: Array<(f: PermissionRequestFile) => unknown> = [
      () => 'not json',
      (f) => ({ v: 1, id: f.id, digest: '0'.repeat(64), decision: 'allow', answered_at: Date.now(), by: 'omc-top' }),
      (f) => ({ v: 1, id: f.id, digest: f.digest, decision: 'yes', answered_at: Date.now(), by: 'omc-top' }),
      (f) => ({ v: 1, id: f.id, digest: f.digest, decision: 'allow', answered_at: Date.now(), by: 'omc-top', x: 1 }),
      (f) => ({ v: 1, id: f.id, digest: f.digest, decision: 'allow', answered_at: f.expires_at + 1, by: 'omc-top' }),
    ];
    for (const make of bad) {
      const { d, printed } = deps(w);
      const hook = runPermissionHook(payload(w.project), d);
      const req = await pending(dom);
      const v = make(req.file);
      fs.mkdirSync(path.join(w.stateDir, ANSWERS), { recursive: true });
      fs.writeFileSync(path.join(w.stateDir, ANSWERS, `${req.id}.json`), typeof v === 'string' ? v : JSON.stringify(v));
      expect((await hook).outcome).toBe('refused');
      expect(printed).toEqual([]);
    }
  });

  it('no answer within the bound: nothing is printed, and a late answer is refused as stale', async () => {
    const w = world();
    const dom = listen(w);
    let t = Date.now();
    const { d, printed } = deps(w, { now: () => t, sleep: async () => void (t += 1_000), waitSeconds: 5 });
    const r = await runPermissionHook(payload(w.project), d);
    expect(r).toMatchObject({ outcome: 'timeout', detail: 'no answer within 5 s' });
    expect(printed).toEqual([]);
    dom.reread();
    expect(dom.getSnapshot().requests).toEqual([]);
  });

  it('answered in the terminal first (the registry moved on): the hook ends and the monitor refuses the request as stale', async () => {
    const w = world();
    const dom = listen(w);
    const claudePid = process.pid;
    const reg = path.join(w.env.CLAUDE_CONFIG_DIR as string, 'sessions', `${claudePid}.json`);
    fs.mkdirSync(path.dirname(reg), { recursive: true });
    const entry = (status: string, at: number) =>
      JSON.stringify({
        pid: claudePid,
        sessionId: 'a1b2c3d4-0000-4000-8000-000000000001',
        status,
        statusUpdatedAt: at,
      });
    fs.writeFileSync(reg, entry('waiting', Date.now()));
    const { d, printed } = deps(w, { env: { ...w.env, CLAUDE_PID: String(claudePid) } });
    const hook = runPermissionHook(payload(w.project), d);
    const req = await pending(dom);
    fs.writeFileSync(reg, entry('busy', Date.now() + 5));
    expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toEqual({
      ok: false,
      message: 'stale: Claude already moved on (the prompt was answered in its terminal)',
    });
    expect((await hook).outcome).toBe('answered-elsewhere');
    expect(printed).toEqual([]);
  });

  /** A stand-in for the Claude that asks (a real process), registered as Claude Code registers, waiting. */
  async function claudeProcess(
    w: ReturnType<typeof world>,
    registryStart = true,
    /** Its config directory (the world's by default), given in its environment as CLAUDE_CONFIG_DIR. */
    configDir = w.env.CLAUDE_CONFIG_DIR as string,
  ) {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      stdio: 'ignore',
      env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    const pid = child.pid as number;
    const procStart = await waitFor(() => {
      const id = processStartIdentity(pid);
      return typeof id === 'string' && id !== 'absent' ? id : null;
    });
    const reg = path.join(configDir, 'sessions', `${pid}.json`);
    fs.mkdirSync(path.dirname(reg), { recursive: true });
    const register = (status: string, at: number) =>
      fs.writeFileSync(
        reg,
        JSON.stringify({
          pid,
          sessionId: SID,
          ...(registryStart ? { procStart } : {}),
          status,
          statusUpdatedAt: at,
        }),
      );
    register('waiting', Date.now());
    const killed = new Promise((r) => child.on('exit', r));
    return {
      pid,
      /** Its registry entry rewritten, as the CLI does when the prompt is answered in its terminal (busy). */
      register,
      /** SIGKILL, as `kill -9`: the registry entry stays behind, the hook would live on. */
      kill: async () => {
        child.kill('SIGKILL');
        await killed;
      },
    };
  }

  it('Claude killed while the hook waits: not offered, an answer is refused, and one that slips through reaches nobody', async () => {
    const w = world();
    const claude = await claudeProcess(w);
    const dom = listen(w, w.project, w.env);
    // The hook's clock stands still: it never runs its own liveness checks, so the monitor's are what is seen.
    const t = Date.now();
    const { d, printed } = deps(w, { env: { ...w.env, CLAUDE_PID: String(claude.pid) }, now: () => t });
    const hook = runPermissionHook(payload(w.project), d);
    const req = await pending(dom);
    expect(req.claudePid).toBe(claude.pid);
    await claude.kill();
    dom.reread();
    expect(dom.getSnapshot().requests).toEqual([]);
    expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toEqual({
      ok: false,
      message: `stale: Claude exited (pid ${claude.pid} is not running); no answer can reach it`,
    });
    // An answer written anyway (a monitor that checked just before the kill): the hook replies to nobody.
    fs.writeFileSync(
      path.join(w.stateDir, ANSWERS, `${req.id}.json`),
      JSON.stringify({ v: 1, id: req.id, digest: req.file.digest, decision: 'allow', answered_at: t, by: 'omc-top' }),
    );
    expect(await hook).toMatchObject({ outcome: 'claude-gone' });
    expect(printed).toEqual([]);
    dom.reread();
    expect(dom.getSnapshot().receipts.get(req.id)).toMatchObject({
      outcome: 'claude-gone',
      detail: `Claude exited (pid ${claude.pid} is not running)`,
    });
  });

  it('Claude killed right after the hook replied: the monitor says the answer was handed to Claude, never ✓, never lost', async () => {
    const w = world();
    const claude = await claudeProcess(w);
    const dom = listen(w, w.project, w.env);
    const { d, printed } = deps(w, { env: { ...w.env, CLAUDE_PID: String(claude.pid) } });
    const hook = runPermissionHook(payload(w.project), d);
    const req = await pending(dom);
    // The monitor's own answering path (the TUI's keys and the serve page): "sent", then what the receipt shows.
    const store = { permissions: dom, claude: { getSnapshot: () => ({ configDir: w.env.CLAUDE_CONFIG_DIR }) } };
    const said: string[] = [];
    sendPermissionAnswer(store as unknown as OmcStore, req, 'allow', (t) => said.push(t));
    expect(said).toEqual(['allow sent to the hook for Bash touch made.txt']);
    expect((await hook).outcome).toBe('allow');
    expect(printed).toHaveLength(1);
    // Killed before this monitor read the receipt (it reads on its next pass): the reply left the hook whole, and
    // whether Claude acted on it nobody can tell.
    await claude.kill();
    dom.reread();
    await waitFor(() => said.length > 1, { what: 'the outcome line' });
    expect(said.slice(1)).toEqual([
      `Bash touch made.txt: handed to Claude: allow; Claude exited right after (pid ${claude.pid} is not running), so whether it acted on it is unknown`,
    ]);
  });

  it("Claude's pid reused by another process, its registry entry with no procStart: the hook and the monitor both tell", async () => {
    const w = world();
    const claude = await claudeProcess(w, false);
    const dom = listen(w);
    // The pid now names another process (a reuse, as after Claude exited): another start identity, same pid.
    let reused = false;
    const startIdentity = (pid: number) => (reused && pid === claude.pid ? '1' : processStartIdentity(pid));
    const { d, printed } = deps(w, { env: { ...w.env, CLAUDE_PID: String(claude.pid) }, startIdentity });
    const hook = runPermissionHook(payload(w.project), d);
    const req = await pending(dom);
    // The request carries Claude's start identity as read from /proc when it asked (the registry has none).
    expect(req.file.claude_start).toBe(processStartIdentity(claude.pid));
    reused = true;
    try {
      expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env, startIdentity })).toEqual({
        ok: false,
        message: `stale: Claude exited (pid ${claude.pid} is now another process); no answer can reach it`,
      });
      expect(await hook).toMatchObject({ outcome: 'claude-gone' });
      expect(printed).toEqual([]);
      dom.reread();
      expect(dom.getSnapshot().receipts.get(req.id)).toMatchObject({
        outcome: 'claude-gone',
        detail: `Claude exited (pid ${claude.pid} is now another process)`,
      });
    } finally {
      await claude.kill();
    }
  });

  it('Claude killed while the hook waits with no answer: the hook ends at once, not at its bound', async () => {
    const w = world();
    const claude = await claudeProcess(w);
    const dom = listen(w);
    const { d, printed } = deps(w, { env: { ...w.env, CLAUDE_PID: String(claude.pid) }, waitSeconds: 600 });
    const hook = runPermissionHook(payload(w.project), d);
    await pending(dom);
    await claude.kill();
    // Well under the 600 s bound (the hook checks about twice a second); the clock is the real one.
    let ended: Awaited<typeof hook> | null = null;
    void hook.then((r) => (ended = r));
    expect(await waitFor(() => ended, { timeoutMs: 20_000, what: 'the hook to end' })).toMatchObject({
      outcome: 'claude-gone',
    });
    expect(printed).toEqual([]);
  });

  it('the monitor quits while the hook waits: the hook gives up at once', async () => {
    const w = world();
    const dom = listen(w);
    const { d, printed } = deps(w);
    const hook = runPermissionHook(payload(w.project), d);
    await pending(dom);
    dom.dispose();
    expect((await hook).outcome).toBe('monitor-gone');
    expect(printed).toEqual([]);
  });

  describe('a Claude whose config directory is not the one the monitor reads (CLAUDE_CONFIG_DIR=~/.claude2)', () => {
    /** The other directory; the monitor's (w.env) holds no entry for that Claude. */
    const other = (w: ReturnType<typeof world>) => path.join(w.base, 'claude2');
    const transcriptIn = (dir: string, cwd: string) =>
      path.join(dir, 'projects', encodeProjectDir(cwd), `${SID}.jsonl`);

    it('its registry, found by the transcript path Claude names, says it waits: answered; once it moved on, stale', async () => {
      const w = world();
      const claude = await claudeProcess(w, true, other(w));
      const dom = listen(w, w.project, w.env);
      const hookEnv = { ...w.env, CLAUDE_CONFIG_DIR: other(w), CLAUDE_PID: String(claude.pid) };
      const { d, printed } = deps(w, { env: hookEnv });
      const hook = runPermissionHook(payload(w.project, { transcript_path: transcriptIn(other(w), w.project) }), d);
      const req = await pending(dom);
      // Offered, and answerable: its entry is read where that Claude keeps it, not missed in the monitor's directory.
      claude.register('busy', Date.now() + 5);
      expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toEqual({
        ok: false,
        message: 'stale: Claude already moved on (the prompt was answered in its terminal)',
      });
      claude.register('waiting', Date.now() + 10);
      expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toMatchObject({ ok: true });
      expect((await hook).outcome).toBe('allow');
      expect(printed).toHaveLength(1);
    });

    it("a payload with no transcript path: the asking process's environment names its directory", async () => {
      const w = world();
      const claude = await claudeProcess(w, true, other(w));
      const dom = listen(w, w.project, w.env);
      const hookEnv = { ...w.env, CLAUDE_CONFIG_DIR: other(w), CLAUDE_PID: String(claude.pid) };
      const { d, printed } = deps(w, { env: hookEnv });
      const hook = runPermissionHook(payload(w.project, { transcript_path: undefined }), d);
      const req = await pending(dom);
      expect(req.file.transcript_path).toBeNull();
      claude.register('busy', Date.now() + 5);
      expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/moved on/),
      });
      claude.register('waiting', Date.now() + 10);
      expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toMatchObject({ ok: true });
      expect((await hook).outcome).toBe('allow');
      expect(printed).toHaveLength(1);
    });

    it("nothing says where its registry is (an older hook's request): a missing entry in the monitor's is not 'answered'", async () => {
      const w = world();
      const claude = await claudeProcess(w, true, other(w));
      const dom = listen(w, w.project, w.env);
      const hookEnv = { ...w.env, CLAUDE_CONFIG_DIR: other(w), CLAUDE_PID: String(claude.pid) };
      const { d } = deps(w, { env: hookEnv });
      const hook = runPermissionHook(payload(w.project, { transcript_path: undefined }), d);
      const req = await pending(dom);
      // As an older hook wrote it: no start identity of Claude (outside the digest, which still holds).
      const file = path.join(w.stateDir, REQUESTS, `${req.id}.json`);
      const { claude_start: _dropped, ...older } = JSON.parse(fs.readFileSync(file, 'utf8')) as PermissionRequestFile;
      fs.writeFileSync(file, JSON.stringify(older));
      // The monitor judges the file on disk when it answers: allowed, not refused as "answered in its terminal".
      expect(answerPermission(w.stateDir, req, 'deny', { claudeEnv: w.env })).toMatchObject({ ok: true });
      expect((await hook).outcome).toBe('deny');
    });

    it('a Claude that keeps no registry at all: the hook waits on (no entry read is not "moved on")', async () => {
      const w = world();
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      onTestFinished(() => void child.kill('SIGKILL'));
      await waitFor(() => typeof processStartIdentity(child.pid as number) === 'string');
      listen(w);
      // Its clock moves 1 s a poll: the liveness checks run at every one, and the 5 s bound is reached.
      let t = Date.now();
      const hookEnv = { ...w.env, CLAUDE_CONFIG_DIR: other(w), CLAUDE_PID: String(child.pid) };
      const { d, printed } = deps(w, {
        env: hookEnv,
        now: () => t,
        sleep: async () => void (t += 1_000),
        waitSeconds: 5,
      });
      const r = await runPermissionHook(payload(w.project), d);
      expect(r).toMatchObject({ outcome: 'timeout', detail: 'no answer within 5 s' });
      expect(printed).toEqual([]);
    });
  });

  it('a question (AskUserQuestion) and a payload that is not a PermissionRequest are left alone', async () => {
    const w = world();
    listen(w);
    const { d } = deps(w);
    expect((await runPermissionHook(payload(w.project, { tool_name: 'AskUserQuestion' }), d)).outcome).toBe('ignored');
    expect((await runPermissionHook(payload(w.project, { hook_event_name: 'PreToolUse' }), d)).outcome).toBe('ignored');
    expect((await runPermissionHook('{"broken', d)).outcome).toBe('ignored');
    expect(tree(path.join(w.stateDir, REQUESTS))).toEqual([]);
  });

  it('a request file that was tampered with, or carries escape sequences, never reaches the screen as is', async () => {
    const w = world();
    const dom = listen(w);
    const { d } = deps(w);
    const hook = runPermissionHook(
      payload(w.project, { tool_input: { command: 'echo \u001b]0;pwned\u0007hi\u001b[31m red\nnext' } }),
      d,
    );
    const req = await pending(dom);
    // Shown whole, each control as its stand-in: what is allowed is what was read (the OSC's text too).
    expect(req.subject).toBe('echo ␛]0;pwned␇hi␛[31m red␊next');
    const file = path.join(w.stateDir, REQUESTS, `${req.id}.json`);
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...doc, tool_input: { command: 'rm -rf /' } }));
    dom.reread();
    expect(dom.getSnapshot().requests).toEqual([]);
    expect(dom.getSnapshot().problems[0]?.message).toMatch(/digest does not match/);
    // The hook still waits on its own request; a forged answer bound to the tampered content is refused.
    expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toMatchObject({ ok: false });
    dom.dispose();
    expect((await hook).outcome).toBe('monitor-gone');
  });
});

describe('a request too long to show whole', () => {
  it('can be denied but not allowed from the monitor, whichever surface asks (the store refuses)', async () => {
    const w = world();
    const dom = listen(w);
    const { d } = deps(w);
    const command = `echo ${'a'.repeat(700)} && curl -s http://127.0.0.1:9/TAIL`;
    const hook = runPermissionHook(payload(w.project, { tool_input: { command } }), d);
    const req = await pending(dom);
    expect(req.subject.endsWith('…')).toBe(true);
    expect(req.subject).not.toContain('TAIL');
    for (const decision of ['allow', 'always'] as const)
      expect(answerPermission(w.stateDir, req, decision, { claudeEnv: w.env })).toEqual({
        ok: false,
        message: expect.stringMatching(/^not allowed from here: the input is 740 characters and omc-top shows 500/),
      });
    expect(fs.existsSync(path.join(w.stateDir, ANSWERS, `${req.id}.json`))).toBe(false);
    expect(answerPermission(w.stateDir, req, 'deny', { claudeEnv: w.env })).toMatchObject({ ok: true });
    expect((await hook).outcome).toBe('deny');
  });
});

function runBundle(w: ReturnType<typeof world>, stdin: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [HOOK, 'permission', '--omc-top-hook'], {
    env: { ...w.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stdin.end(stdin);
  const done = new Promise<{ code: number | null; out: string }>((res) =>
    child.on('close', (code) => res({ code, out })),
  );
  return { child, done };
}

describe('the hook bundle as Claude Code runs it', () => {
  it('no monitor: exits 0 with no output', async () => {
    const w = world();
    expect(await runBundle(w, payload(w.project)).done).toEqual({ code: 0, out: '' });
  });

  it('answered from the monitor: prints the reply and exits 0', async () => {
    const w = world();
    const dom = listen(w);
    const run = runBundle(w, payload(w.project));
    const req = await pending(dom);
    expect(answerPermission(w.stateDir, req, 'allow', { claudeEnv: w.env })).toMatchObject({ ok: true });
    const r = await run.done;
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
  });

  it("Claude's end of the pipe closed before the reply: the receipt says lost, the monitor never says Claude was told", async () => {
    const w = world();
    const dom = listen(w);
    const run = runBundle(w, payload(w.project));
    const req = await pending(dom);
    // Claude's side of the hook's stdout goes away (as when Claude exits): the reply has nowhere to go.
    run.child.stdout.destroy();
    const store = { permissions: dom, claude: { getSnapshot: () => ({ configDir: w.env.CLAUDE_CONFIG_DIR }) } };
    const said: string[] = [];
    sendPermissionAnswer(store as unknown as OmcStore, req, 'allow', (t) => said.push(t));
    expect((await run.done).code).toBe(0);
    dom.reread();
    expect(dom.getSnapshot().receipts.get(req.id)).toMatchObject({
      outcome: 'claude-gone',
      detail: 'the reply could not be written to Claude (EPIPE)',
    });
    await waitFor(() => said.length > 1, { what: 'the outcome line' });
    expect(said.slice(1)).toEqual([
      'Bash touch made.txt: the answer was lost: the reply could not be written to Claude (EPIPE); the hook replied to nobody',
    ]);
  });

  it("ended by Claude Code's timeout (SIGTERM): exits 0 with no output and leaves no request behind", async () => {
    const w = world();
    const dom = listen(w);
    const run = runBundle(w, payload(w.project));
    const req = await pending(dom);
    run.child.kill('SIGTERM');
    expect(await run.done).toEqual({ code: 0, out: '' });
    expect(fs.existsSync(path.join(w.stateDir, REQUESTS, `${req.id}.json`))).toBe(false);
    dom.reread();
    expect(dom.getSnapshot().receipts.get(req.id)).toMatchObject({ outcome: 'terminated' });
  });
});
