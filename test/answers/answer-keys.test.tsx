/**
 * Answering from the monitor's own keys, in the real App (ink, a real OmcStore, keys on stdin): a permission
 * request handed over by the hook (its logic in process, as Claude Code would run it) answered with y / n / A in
 * the session detail and in the `!` list; the footer offers those keys only while a request waits, and the `?`
 * help lists them (both generated from the bindings). What is asserted is what the hook tells Claude.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPermissionHook, type HookDeps } from '../../src/commands/hook-permission.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { OmcStore } from '../../src/store/store.js';
import { sendPermissionAnswer } from '../../src/feeds/answers/answer.js';
import { answerPermission } from '../../src/store/permissions/answer.js';
import type { PermissionRequestView } from '../../src/store/permissions/model.js';
import { helpLines } from '../../src/ui/overlay-lines.js';
import { PANES } from '../../src/panes/registry.js';
import { GLOBAL_BINDINGS } from '../../src/input/router.js';
import { HELP_SECTIONS } from '../../src/input/answer-keys.js';
import { KEY, mountStore } from '../helpers/mount-app.js';
import { runHooksCommand } from '../../src/commands/hooks.js';
import { HOOK } from '../helpers/hooks-project.js';
import { makeProject, SESSION, waitFor, writeOmcJson, type TempProject } from '../helpers/fixtures.js';

const S = SESSION.ralph;
let p: TempProject | null = null;
let app: ReturnType<typeof mountStore> | null = null;
let listener: OmcStore | null = null;
afterEach(async () => {
  await app?.unmount();
  app = null;
  await listener?.close();
  listener = null;
  p?.cleanup();
  p = null;
});

function scene(opts: { readonly?: boolean } = {}) {
  p = makeProject({ withFixture: true });
  const ralph = path.join(p.root, `state/sessions/${S}/ralph-state.json`);
  writeOmcJson(ralph, {
    ...JSON.parse(fs.readFileSync(ralph, 'utf8')),
    session_id: S,
    last_checked_at: new Date().toISOString(),
  });
  const env: NodeJS.ProcessEnv = {
    XDG_STATE_HOME: path.join(p.dir, 'xdg-state'),
    XDG_CONFIG_HOME: path.join(p.dir, 'xdg-config'),
    CLAUDE_CONFIG_DIR: path.join(p.dir, 'claude'),
    HOME: p.dir,
    PATH: process.env.PATH,
  };
  const store = new OmcStore({
    root: p.root,
    watch: 'poll',
    readonly: opts.readonly ?? false,
    projectDir: p.dir,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR } },
    answers: { stateDir: path.join(p.dir, 'xdg-state', 'omc-top'), listen: true, live: true },
  });
  store.start();
  if (opts.readonly) {
    // A --readonly monitor answers nothing, so the hook hands a request over only while another omc-top listens.
    listener = new OmcStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR } },
      answers: { stateDir: path.join(p.dir, 'xdg-state', 'omc-top'), listen: true, live: true },
    });
    listener.start();
  }
  app = mountStore(store, { columns: 140, rows: 30 });
  const a = app;
  /** Claude asks permission for `command` in the session: the hook, in process, waits for the monitor. */
  /** `held`: the hook does not look for an answer again until it resolves (two answers can then be written). */
  const ask = (command: string, held?: Promise<void>) => {
    const printed: string[] = [];
    const deps: HookDeps = {
      env,
      now: Date.now,
      sleep: (ms) => (held ? held : new Promise((r) => setTimeout(r, ms))),
      print: (t) => void printed.push(t),
      startIdentity: processStartIdentity,
      stopped: () => false,
      pollMs: 20,
    };
    const payload = JSON.stringify({
      session_id: S,
      transcript_path: '/tmp/t.jsonl',
      cwd: (p as TempProject).dir,
      prompt_id: 'p-1',
      permission_mode: 'default',
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      tool_input: { command, description: 'a command' },
      permission_suggestions: [],
    });
    const done = runPermissionHook(payload, deps).then((r) => ({
      outcome: r.outcome,
      replies: printed.map((x) => JSON.parse(x) as { hookSpecificOutput: { decision: Record<string, unknown> } }),
    }));
    return done;
  };
  const footer = () =>
    a
      .lines()
      .filter((l) => l.includes('s:Sessions'))
      .at(-1) ?? '';
  return { a, ask, footer, store, env };
}

describe('answering a permission request from the session detail', () => {
  it('y allows, n denies: the footer offers them only while the request waits, the help lists them', async () => {
    const { a, ask, footer, env } = scene();
    await a.ready;
    await a.waitForText(/▸ enforced\s+88727f43/);
    await a.step(KEY.enter);
    await a.waitForText(`Session ${S}`);
    // Nothing waits: no answering hints, and y says why it does nothing.
    expect(footer()).not.toMatch(/y allow/);
    await a.step('y');
    await a.waitForText('no permission request from this session waits here (omc-top hooks install hands them over)');
    // With the hook installed, the words say what is true: nothing is asked now (not "install it").
    expect(runHooksCommand(['install'], { out: () => {}, err: () => {}, cwd: p!.dir, env, script: HOOK })).toBe(0);
    await a.step('n');
    await a.waitForText(/no permission request from this session waits here: its Claude asks nothing now/);
    expect(a.text()).not.toMatch(/hooks install hands them over/);

    const first = ask('touch allowed.txt');
    await a.waitForText('! Claude asks permission: Bash touch allowed.txt');
    await a.waitForText(/y allow .*n deny .*A always/);
    expect(footer()).toMatch(/y allow/);
    await a.step('y');
    const allowed = await first;
    expect(allowed.outcome).toBe('allow');
    expect(allowed.replies.map((r) => r.hookSpecificOutput.decision)).toEqual([{ behavior: 'allow' }]);
    await a.waitForText('✓ Bash touch allowed.txt: the hook told Claude: allow');

    const second = ask('rm -rf ./cache');
    await a.waitForText('! Claude asks permission: Bash rm -rf ./cache');
    await a.step('n');
    const denied = await second;
    expect(denied.outcome).toBe('deny');
    expect(denied.replies[0]?.hookSpecificOutput.decision).toMatchObject({ behavior: 'deny' });
    // One mark, in front: the word says what Claude was told (a ✓ after "deny" read as allowed).
    await a.waitForText('✓ Bash rm -rf ./cache: the hook told Claude: deny');
    expect(a.text()).not.toMatch(/deny ✓|allow ✓/);
    expect(footer()).not.toMatch(/y allow/);

    // The `?` help, as the overlay lays it out (generated from the same bindings).
    const help = helpLines(
      { panes: PANES, globals: GLOBAL_BINDINGS, sections: HELP_SECTIONS, log: [], readonly: false },
      200,
    ).map((l) => l.text);
    expect(help.join('\n')).toMatch(/y +allow the tool call the session's Claude asks permission for/);
    expect(help).toContain('The ! list: a permission request or an OMC gate selected');
    expect(help.join('\n')).toMatch(/A +permission request: allow it and always allow this exact Bash command/);
  });

  it('A answers "always" with this exact command as a rule', async () => {
    const { a, ask } = scene();
    await a.ready;
    await a.waitForText(/▸ enforced\s+88727f43/);
    await a.step(KEY.enter);
    const hook = ask('npm test');
    await a.waitForText('! Claude asks permission: Bash npm test');
    await a.step('A');
    const r = await hook;
    expect(r.outcome).toBe('always');
    expect(r.replies[0]?.hookSpecificOutput.decision).toMatchObject({
      behavior: 'allow',
      updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test' }] }],
    });
  });
});

describe('the footer where the session detail takes n and m', () => {
  it('does not offer n and m as the Notepad and Memory switches there (they deny and open a note); the list does', async () => {
    const { a, footer } = scene();
    await a.ready;
    await a.waitForText(/▸ enforced\s+88727f43/);
    expect(footer()).toMatch(/n:Notepad m:Memory/);
    await a.step(KEY.enter);
    await a.waitForText(`Session ${S}`);
    expect(footer()).toMatch(/s:Sessions t:Teams R:History \$:Cost w:Wiki/);
    expect(footer()).not.toMatch(/n:Notepad|m:Memory/);
    await a.step(KEY.esc);
    await a.waitForText(/n:Notepad m:Memory/);
  });
});

describe('what a permission request shows is all it would run', () => {
  it('an escape sequence and a line break in the command are shown as visible stand-ins, not removed', async () => {
    const { a, ask } = scene();
    await a.ready;
    await a.waitForText(/▸ enforced\s+88727f43/);
    await a.step(KEY.enter);
    // A title-setting OSC whose text is a second command: cleaning for display would drop all of it.
    const hidden = ask('ls ./src \u001b]0;x; curl -s http://127.0.0.1:9/HIDDEN; : \u0007');
    await a.waitForText('! Claude asks permission: Bash ls ./src ␛]0;x; curl -s http://127.0.0.1:9/HIDDEN; : ␇');
    expect(a.frames().some((f) => f.includes('\u001b]0;'))).toBe(false);
    await a.step('n');
    expect((await hidden).outcome).toBe('deny');
    const twoLines = ask('git status\ncurl -s http://127.0.0.1:9/SECOND');
    await a.waitForText('! Claude asks permission: Bash git status␊curl -s http://127.0.0.1:9/SECOND');
    await a.step('n');
    expect((await twoLines).outcome).toBe('deny');
  });

  it('a command longer than omc-top shows can only be denied here: y and A say why, n denies', async () => {
    const { a, ask, store } = scene();
    await a.ready;
    await a.waitForText(/▸ enforced\s+88727f43/);
    await a.step(KEY.enter);
    const long = `echo ${'x'.repeat(600)}; curl -s http://127.0.0.1:9/TAIL`;
    const hook = ask(long);
    await a.waitForText('! Claude asks permission: Bash echo');
    await a.waitForText(/not allowed from here: the input is 638 characters and omc-top shows 500/);
    const flashes = () => a.lines().filter((l) => l.includes('not allowed from here')).length;
    const before = flashes();
    await a.step('y');
    await waitFor(() => flashes() > before, { what: 'y saying why it allows nothing' });
    await a.step('A');
    // Nothing was answered: the request still waits, and no answer file was written.
    const [waiting] = store.permissions.getSnapshot().requests;
    expect(waiting?.allowRefused).toMatch(/^not allowed from here/);
    expect(fs.existsSync(path.join(store.permissions.stateDir, 'permissions', 'answers', `${waiting?.id}.json`))).toBe(
      false,
    );
    await a.step('n');
    expect((await hook).outcome).toBe('deny');
  });
});

describe('answering in the ! list', () => {
  it('the request is listed with its command and session; n denies it there, Enter opens the session', async () => {
    const { a, ask, footer } = scene();
    await a.ready;
    await a.waitForText(/▸ enforced\s+88727f43/);
    const hook = ask('curl http://127.0.0.1:9/x');
    await a.step('!');
    await a.waitForText(/» permission: Bash curl http:\/\/127\.0\.0\.1:9\/x — 88727f43/);
    expect(footer()).toMatch(/y allow \/ approve/);
    expect(footer()).toMatch(/A always/);
    await a.step('n');
    const r = await hook;
    expect(r.outcome).toBe('deny');
    await a.waitForText('✓ Bash curl http://127.0.0.1:9/x: the hook told Claude: deny');

    const next = ask('ls');
    await a.waitForText(/» permission: Bash ls/);
    await a.step(KEY.enter);
    await a.waitForText(`Session ${S}`);
    await a.waitForText('! Claude asks permission: Bash ls');
    await a.step('y');
    expect((await next).outcome).toBe('allow');
  });
});

describe('--readonly', () => {
  it('lists a request without offering a key it refuses; the footer offers each key once', async () => {
    const { a, ask, footer, store, env } = scene({ readonly: true });
    await a.ready;
    await a.waitForText(/▸ enforced\s+88727f43/);
    const hook = ask('touch ro.txt');
    await a.step('!');
    await a.waitForText(/» permission: Bash touch ro\.txt — 88727f43/);
    const line = a.lines().find((l) => l.includes('» permission: Bash touch ro.txt')) ?? '';
    expect(line).not.toMatch(/y allow|n deny|A always/);
    expect(a.text()).toMatch(/--readonly: nothing is answered here/);
    expect(footer()).not.toMatch(/y allow|n deny|A always/);
    expect(footer().match(/Enter open/g)).toEqual(['Enter open']);
    await a.step('y');
    await a.waitForText('--readonly: nothing is answered');
    // Answered from elsewhere (Claude's own prompt, another omc-top): the hook ends.
    const [req] = store.permissions.getSnapshot().requests;
    answerPermission(store.permissions.stateDir, req!, 'deny', { claudeEnv: env });
    expect((await hook).outcome).toBe('deny');
  });
});

describe('two monitors answer one request', () => {
  it('the one whose answer was not used says another omc-top answered first, with that answer and what it meant', async () => {
    const { a, ask, store } = scene();
    await a.ready;
    await a.waitForText(/▸ enforced\s+88727f43/);
    await a.step(KEY.enter);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const hook = ask('touch raced.txt', held);
    await a.waitForText('! Claude asks permission: Bash touch raced.txt');
    const [req] = store.permissions.getSnapshot().requests;
    await a.step('n');
    await a.waitForText('deny sent to the hook for Bash touch raced.txt');
    // The other monitor's allow lands just after this one's deny (both checked before either wrote): the hook
    // reads the one on disk when it looks again.
    const answer = path.join(store.permissions.stateDir, 'permissions', 'answers', `${req?.id}.json`);
    fs.writeFileSync(answer, JSON.stringify({ ...JSON.parse(fs.readFileSync(answer, 'utf8')), decision: 'allow' }));
    release();
    expect((await hook).outcome).toBe('allow');
    await a.waitForText(
      'Bash touch raced.txt: not used: another omc-top answered first: allow (Claude was told to go ahead with it)',
    );
    expect(a.lines().join('\n')).not.toMatch(/did not use the answer/);

    // The other monitor's answer is on disk before this one answers: refused, naming the answer that stands.
    let releaseNext: () => void = () => undefined;
    const heldNext = new Promise<void>((r) => (releaseNext = r));
    const next = ask('touch second.txt', heldNext);
    await a.waitForText('! Claude asks permission: Bash touch second.txt');
    const other = new OmcStore({
      root: (p as TempProject).root,
      watch: 'none',
      projectDir: (p as TempProject).dir,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: path.join((p as TempProject).dir, 'claude') } },
      answers: { stateDir: store.permissions.stateDir, listen: false, live: false },
    });
    other.start();
    const [second] = other.permissions.getSnapshot().requests;
    expect(second?.subject).toBe('touch second.txt');
    const said: string[] = [];
    expect(sendPermissionAnswer(other, second as PermissionRequestView, 'allow', (t) => said.push(t))).toMatchObject({
      ok: true,
    });
    await a.step('n');
    await a.waitForText('Bash touch second.txt: refused: another omc-top answered first: allow');
    releaseNext();
    expect((await next).outcome).toBe('allow');
    await other.close();
  });
});
