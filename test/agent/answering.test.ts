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
import { afterEach, describe, expect, it } from 'vitest';
import { runHooksCommand } from '../../src/commands/hooks.js';
import { readRegistry } from '../../src/store/claude/registry.js';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { answerPermission } from '../../src/store/permissions/answer.js';
import { OmcStore } from '../../src/store/store.js';
import { OMC_PLUGIN, REPO, skipReason, startRun, waitFor, type Run } from './harness.js';

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
  await waitFor('the prompt box', () => s.screen().includes('? for shortcuts'), 60_000);
  return entry;
}

/** The tool_result line of the Bash call that ran `command`, once the transcript has it. */
function toolResult(s: Scene, sid: string, command: string): Json | null {
  const lines = s.transcript(sid);
  const use = lines
    .flatMap((l) => (l.type === 'assistant' ? (l.message?.content ?? []) : []))
    .find((b: Json) => b.type === 'tool_use' && b.input?.command === command);
  if (!use) return null;
  for (const l of lines)
    for (const b of Array.isArray(l.message?.content) ? l.message.content : [])
      if (b.type === 'tool_result' && b.tool_use_id === use.id)
        return { ...b, permissionDecision: l.permissionDecision };
  return null;
}

describe.skipIf(reason !== null)('answering from omc-top, with the real Claude Code CLI', () => {
  it('permission prompts: y allows, n denies, no answer or no omc-top leaves Claude its own prompt', async () => {
    const s = await scene('perm', { answers: { permissionWaitSeconds: 8 } });
    const out: string[] = [];
    const hooks = (verb: string) =>
      runHooksCommand([verb, '--cwd', s.run.project], {
        out: (t) => out.push(t),
        err: (t) => out.push(t),
        cwd: s.run.project,
        env: s.env,
        script: HOOK,
      });
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

    // omc-top running: the request shows the command; y (allow) → the tool ran.
    const store = s.store();
    const pending = () => {
      store.permissions.reread();
      return store.permissions.getSnapshot().requests[0];
    };
    await s.type('two [[bash:touch two.txt]]');
    let req = await waitFor('the request in omc-top', pending, 60_000);
    expect(req).toMatchObject({ sessionId: sid, toolName: 'Bash', subject: 'touch two.txt', alwaysOffered: true });
    expect(answerPermission(s.stateDir, req, 'allow', { claudeEnv: s.run.env })).toMatchObject({ ok: true });
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
    expect(answerPermission(s.stateDir, req, 'deny', { claudeEnv: s.run.env })).toMatchObject({ ok: true });
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
});
