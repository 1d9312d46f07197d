/**
 * `omc-top serve` in Debian's headless Chromium: the page shows a loop's
 * iteration change within a second of the file write (server-sent events),
 * and the server refuses an action without the token, from another origin,
 * and under an unexpected Host header (DNS rebinding). Answering from the
 * page: a permission request made by omc-top's real hook bundle (run as
 * Claude Code runs it) answered with the page's buttons is what the hook
 * tells Claude; an OMC 5.5.0 graph run's gates approved and denied on the
 * page are read by OMC's own parser and acted on by its own runner.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { startServer } from '../../src/commands/serve/server.js';
import { singleSource } from '../../src/commands/serve/source.js';
import { makeProject, REPO, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { listPending, parseDecision, startTwoGateRun, writeDecision } from '../helpers/omc-graph.mjs';
import { scaled } from '../helpers/time-scale.js';

const run = promisify(execFile);
const BUNDLE = path.join(REPO, 'dist', 'omc-top.mjs');
import { CHROMIUM, launchChromium } from '../helpers/chromium.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SESSION = 'befb1f7b-e9bc-4db9-97a3-f31e7239cd2c';

async function serve(opts: { answers?: boolean; readonly?: boolean } = {}) {
  const p = makeProject({ withFixture: true, prefix: 'omc-top-serve-' });
  cleanups.push(() => p.cleanup());
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-serve-state-'));
  cleanups.push(() => fs.rmSync(state, { recursive: true, force: true }));
  const store = new OmcStore({
    root: p.root,
    readonly: false,
    watch: 'auto',
    projectDir: p.dir,
    // As `serve` runs it: a monitor the permission hook asks (in this test's own state dir).
    ...(opts.answers
      ? {
          claude: { live: false, env: { CLAUDE_CONFIG_DIR: path.join(state, 'claude') } },
          answers: { stateDir: path.join(state, 'omc-top'), listen: true, live: true },
        }
      : {}),
  });
  store.start();
  const source = singleSource(store, 'shop', { XDG_STATE_HOME: state });
  await new Promise((r) => setImmediate(r));
  const token = 'test-token-0123456789';
  const served = await startServer({ source, token, listen: '127.0.0.1', port: 0, readonly: opts.readonly ?? false });
  cleanups.push(
    () => source.close(),
    () => served.close(),
  );
  return { p, state, store, base: `http://127.0.0.1:${served.port}`, token };
}

/** Polls an expression in the page until `ok` says yes (a condition, not a sleep); returns its last value. */
async function pageWait<T>(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  expression: string,
  ok: (v: T) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + scaled(timeoutMs);
  let v = await browser.evaluate<T>(expression);
  while (!ok(v)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the page showed: ${JSON.stringify(v)}`);
    v = await browser.evaluate<T>(expression);
  }
  return v;
}

const HOOK = path.join(REPO, 'dist', 'omc-top-hook.mjs');

/** Claude Code asks permission: omc-top's hook bundle, spawned as Claude Code spawns it, JSON on stdin. */
function askPermission(state: string, cwd: string, tool: { name: string; input: Record<string, unknown> }) {
  const child = spawn(process.execPath, [HOOK, 'permission', '--omc-top-hook'], {
    env: {
      PATH: process.env.PATH,
      HOME: state,
      XDG_STATE_HOME: state,
      XDG_CONFIG_HOME: path.join(state, 'config'),
      CLAUDE_CONFIG_DIR: path.join(state, 'claude'),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  cleanups.push(() => void child.kill('SIGKILL'));
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stdin.end(
    JSON.stringify({
      session_id: SESSION,
      transcript_path: '/tmp/t.jsonl',
      cwd,
      prompt_id: 'p-1',
      permission_mode: 'default',
      hook_event_name: 'PermissionRequest',
      tool_name: tool.name,
      tool_input: tool.input,
      permission_suggestions: [],
    }),
  );
  return new Promise<{ code: number | null; reply: unknown }>((resolve) =>
    child.on('close', (code) => resolve({ code, reply: out.trim() ? JSON.parse(out) : null })),
  );
}

describe.skipIf(!fs.existsSync(CHROMIUM))('serve in headless Chromium', () => {
  it('shows a loop iteration change within a second of the write', async () => {
    const { p, base, token } = await serve();
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate(`${base}/#${token}`);
    const rowText = `(document.querySelector('[data-session="${SESSION}"]') || {}).textContent || ''`;
    let text = '';
    const deadline = Date.now() + 15_000;
    while (!/ralph 3\/100/.test(text) && Date.now() < deadline) text = await browser.evaluate<string>(rowText);
    expect(text).toMatch(/ralph 3\/100/);
    const file = path.join(p.root, 'state', 'sessions', SESSION, 'ralph-state.json');
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const t0 = Date.now();
    writeOmcJson(file, { ...v, iteration: 4, last_checked_at: new Date().toISOString() });
    while (!/ralph 4\/100/.test(text) && Date.now() - t0 < 5000) text = await browser.evaluate<string>(rowText);
    const took = Date.now() - t0;
    expect(text).toMatch(/ralph 4\/100/);
    expect(took).toBeLessThan(1000);
  });

  it("applies the stream's deltas: a removed session leaves the page, the rows stay in the server's order", async () => {
    const { p, base, token } = await serve();
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate(`${base}/#${token}`);
    const sessions = `[...document.querySelectorAll('[data-session]')].map((d) => d.dataset.session)`;
    const before = await pageWait<string[]>(browser, sessions, (v) => v.includes(SESSION), 'the rows');
    const gone = before.find(
      (s) => s !== SESSION && s !== 'legacy' && fs.existsSync(path.join(p.root, 'state', 'sessions', s)),
    );
    expect(gone).toBeDefined();
    fs.rmSync(path.join(p.root, 'state', 'sessions', gone!), { recursive: true });
    const file = path.join(p.root, 'state', 'sessions', SESSION, 'ralph-state.json');
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeOmcJson(file, { ...v, iteration: 7, last_checked_at: new Date().toISOString() });
    const after = await pageWait<string[]>(
      browser,
      sessions,
      (s) => !s.includes(gone!),
      'the removed session to leave the page',
    );
    await pageWait<string>(
      browser,
      `(document.querySelector('[data-session="${SESSION}"]') || {}).textContent || ''`,
      (t) => /ralph 7\/100/.test(t),
      'iteration 7',
    );
    // What a fresh connection is sent whole: the same rows, in the same order, as the page built from deltas.
    const whole = await browser.evaluate<string[]>(
      `fetch('/events', { headers: { 'x-omc-top-token': ${JSON.stringify(token)} } }).then(async (r) => {
        const reader = r.body.getReader(); let buf = '';
        while (!buf.includes('\\n\\n')) buf += new TextDecoder().decode((await reader.read()).value);
        reader.cancel();
        const data = JSON.parse(buf.split('\\n').find((l) => l.startsWith('data: ')).slice(6));
        return data.roots[0].rows.map((r) => r.session);
      })`,
    );
    expect(await browser.evaluate<string[]>(sessions)).toEqual(whole);
    expect(after.length).toBe(before.length - 1);
  });

  it('acknowledging an item on the page drops the count on the page and in status --tmux', async () => {
    const { p, state, base, token } = await serve();
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate(`${base}/#${token}`);
    const count = `(document.getElementById('count') || {}).textContent || ''`;
    let before = '';
    const deadline = Date.now() + 15_000;
    while (!/needs you: \d+/.test(before) && Date.now() < deadline) before = await browser.evaluate<string>(count);
    const n = Number(/needs you: (\d+)/.exec(before)?.[1]);
    expect(n).toBeGreaterThan(0);
    const tmux = () =>
      run(process.execPath, [BUNDLE, 'status', '--tmux', '--root', p.root], {
        env: {
          PATH: process.env.PATH,
          HOME: state,
          XDG_STATE_HOME: state,
          CLAUDE_CONFIG_DIR: path.join(state, 'no-claude'),
        },
      }).then((r) => r.stdout);
    const tmuxBefore = await tmux();
    expect(tmuxBefore).toContain(String(n));
    await browser.evaluate(`document.querySelector('[data-need] button').click()`);
    let after = before;
    const t0 = Date.now();
    while (after === before && Date.now() - t0 < 5000) after = await browser.evaluate<string>(count);
    expect(after).toBe(n - 1 > 0 ? `needs you: ${n - 1}` : 'nothing needs you');
    const tmuxAfter = await tmux();
    expect(tmuxAfter).not.toBe(tmuxBefore);
  });

  it("cancels a loop from the page: its row's Cancel shows the plan, Confirm removes the loop on disk", async () => {
    const { p, base, token } = await serve();
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate(`${base}/#${token}`);
    const row = `[data-session="${SESSION}"]`;
    const buttons = await pageWait<string[]>(
      browser,
      `[...document.querySelectorAll('${row} button')].map((b) => b.textContent)`,
      (b) => b.includes('Cancel'),
      'the Cancel button on the loop row',
    );
    expect(buttons).toEqual(['Pause', 'Cancel']);
    await browser.evaluate(
      `[...document.querySelectorAll('${row} button')].find((b) => b.textContent === 'Cancel').click()`,
    );
    const shown = await pageWait<boolean>(browser, `!document.getElementById('confirm').hidden`, (v) => v, 'the plan');
    expect(shown).toBe(true);
    const file = path.join(p.root, 'state', 'sessions', SESSION, 'ralph-state.json');
    // Nothing is done before Confirm.
    expect(fs.existsSync(file)).toBe(true);
    await browser.evaluate(`document.getElementById('confirm-yes').click()`);
    await pageWait<string>(
      browser,
      `document.getElementById('message').textContent`,
      (t) => t !== '' && t !== 'working…',
      'the cancel summary',
    );
    expect(fs.existsSync(file)).toBe(false);
  });

  it('refuses actions without the token, from another origin, and under another Host', async () => {
    const { base, token } = await serve();
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/api/ack`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ root: 'local', ids: ['x'] }),
      }).then((r) => r.status);
    expect(await post({})).toBe(401);
    expect(await post({ 'x-omc-top-token': 'wrong' })).toBe(401);
    expect(await post({ 'x-omc-top-token': token, origin: 'http://evil.example' })).toBe(403);
    expect(await post({ 'x-omc-top-token': token })).toBe(409); // accepted; nothing by that id needs you
    // A page on another origin, in the browser: its fetch is refused (no CORS, and the Origin check).
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate('data:text/html,<p>elsewhere</p>');
    const status = await browser.evaluate<string>(
      `fetch('${base}/events', { headers: { 'x-omc-top-token': '${token}' } }).then(r => String(r.status), e => 'blocked')`,
    );
    expect(status).toBe('blocked');
    // DNS rebinding: the right address under a foreign name.
    const http = await import('node:http');
    const code = await new Promise<number>((resolve) => {
      http
        .get(`${base}/`, { headers: { host: 'evil.example' } }, (r) => (r.resume(), resolve(r.statusCode ?? 0)))
        .on('error', () => resolve(-1));
    });
    expect(code).toBe(421);
  });

  it('answers a permission request from the page: the hook tells Claude what was clicked', async () => {
    const { p, state, store, base, token } = await serve({ answers: true });
    await waitFor(() => store.permissions.getSnapshot().listening, { what: 'serve registered as a listener' });
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    await browser.navigate(`${base}/#${token}`);
    const answers = `[...document.querySelectorAll('[data-answer]')].map((e) => e.textContent).join('\\n')`;
    const buttons = `[...document.querySelectorAll('[data-answer] button[data-decision]')].map((b) => b.dataset.decision).join(',')`;
    // A plain Claude's prompt is also what needs you: one entry (with its Acknowledge), counted once.
    const entries = `[...document.querySelectorAll('[data-answer], [data-need]')].map((e) => e.dataset.answer || e.dataset.need).join(',') + ' ' + [...document.querySelectorAll('[data-answer] [data-ack]')].length + ' ' + document.getElementById('count').textContent`;
    const outcomes = `[...document.querySelectorAll('.outcomes li')].map((e) => e.textContent).join('\\n')`;

    const allowed = askPermission(state, p.dir, { name: 'Bash', input: { command: 'touch allowed.txt' } });
    await pageWait<string>(browser, answers, (t) => t.includes('permission: Bash touch allowed.txt'), 'the request');
    // "always" only where the TUI offers A: a Bash command.
    expect(await browser.evaluate<string>(buttons)).toBe('allow,deny,always');
    // (The fixture's stalled team is the other need.)
    expect(await browser.evaluate<string>(entries)).toMatch(/^perm:[0-9a-f]+,team-stalled:\S+ 1 needs you: 2$/);
    await browser.evaluate(`document.querySelector('[data-answer] [data-decision="allow"]').click()`);
    expect(await allowed).toEqual({
      code: 0,
      reply: { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } },
    });
    await pageWait<string>(browser, outcomes, (t) => /✓ .*the hook told Claude: allow/.test(t), 'allow ✓');
    await pageWait<string>(browser, answers, (t) => t === '', 'the answered request to leave the page');

    const denied = askPermission(state, p.dir, { name: 'Write', input: { file_path: 'notes.txt', content: 'x' } });
    await pageWait<string>(browser, answers, (t) => t.includes('permission: Write'), 'the second request');
    expect(await browser.evaluate<string>(buttons)).toBe('allow,deny');
    await browser.evaluate(`document.querySelector('[data-answer] [data-decision="deny"]').click()`);
    const d = await denied;
    expect(d.code).toBe(0);
    expect(d.reply).toMatchObject({ hookSpecificOutput: { decision: { behavior: 'deny' } } });
    await pageWait<string>(browser, outcomes, (t) => /✓ .*the hook told Claude: deny/.test(t), 'deny ✓');
  }, 120_000);

  it.skipIf(process.platform !== 'linux')(
    "decides OMC 5.5.0 gates from the page: OMC's parser reads them, its runner acts on them",
    async () => {
      const { p, base, token } = await serve();
      const runsRoot = path.join(p.root, 'graph-runs');
      const run = startTwoGateRun({ runsRoot, runId: 'two-gates' });
      // A failed test must not leave OMC's runner waiting: deny each gate that waits (OMC's own writer) until it ends.
      let ended = false;
      void run.done.finally(() => (ended = true)).catch(() => undefined);
      cleanups.push(async () => {
        const deadline = Date.now() + scaled(30_000);
        while (!ended && Date.now() < deadline) {
          for (const g of listPending(runsRoot))
            if (!fs.existsSync(path.join(runsRoot, g.run_id, 'approvals', 'decisions', `${g.activation_id}.json`)))
              writeDecision(runsRoot, g.run_id, g.activation_id, 'denied', 'test cleanup');
          await new Promise((r) => setTimeout(r, 50));
        }
      });
      await waitFor(() => fs.existsSync(run.pendingPath('gate-deploy-act0')), { timeoutMs: 20_000 });
      const browser = await launchChromium();
      cleanups.push(() => browser.close());
      await browser.navigate(`${base}/#${token}`);
      const answers = `[...document.querySelectorAll('[data-answer]')].map((e) => e.textContent).join('\\n')`;
      const outcomes = `[...document.querySelectorAll('.outcomes li')].map((e) => e.textContent).join('\\n')`;
      const dialog = `document.getElementById('confirm').hidden ? '' : document.getElementById('confirm').textContent`;

      await pageWait<string>(browser, answers, (t) => t.includes('OMC gate: Deploy the build to staging?'), 'gate 1');
      await browser.evaluate(`document.querySelector('[data-answer] [data-decision="approved"]').click()`);
      const shown = await pageWait<string>(browser, dialog, (t) => t !== '', 'the confirmation');
      expect(shown).toContain('Approve OMC gate gate-deploy of run two-gates?');
      expect(shown).toContain('The run goes on past the gate.');
      // Nothing is written before Confirm.
      expect(fs.existsSync(path.join(runsRoot, 'two-gates', 'approvals', 'decisions', 'gate-deploy-act0.json'))).toBe(
        false,
      );
      await browser.evaluate(`document.getElementById('confirm-yes').click()`);
      await pageWait<string>(
        browser,
        outcomes,
        (t) => /✓ OMC took the decision: gate gate-deploy of run two-gates approved/.test(t),
        'OMC to take the approval',
        30_000,
      );

      await waitFor(() => fs.existsSync(run.pendingPath('gate-release-act0')), { timeoutMs: 30_000 });
      await pageWait<string>(browser, answers, (t) => t.includes('Release gate'), 'gate 2');
      await browser.evaluate(`document.querySelector('[data-answer] [data-decision="denied"]').click()`);
      expect(await pageWait<string>(browser, dialog, (t) => t !== '', 'the confirmation')).toContain(
        'Deny OMC gate gate-release of run two-gates?',
      );
      await browser.evaluate(`document.getElementById('confirm-yes').click()`);
      expect(await run.done).toMatchObject({ terminal: 'failed', exit_code: 1 });
      await pageWait<string>(
        browser,
        outcomes,
        (t) => /✓ OMC took the decision: gate gate-release of run two-gates denied/.test(t),
        'OMC to take the denial',
        30_000,
      );

      const decisions = path.join(runsRoot, 'two-gates', 'approvals', 'decisions');
      expect(parseDecision(fs.readFileSync(path.join(decisions, 'gate-deploy-act0.json'), 'utf8'))).toMatchObject({
        decision: 'approved',
      });
      expect(parseDecision(fs.readFileSync(path.join(decisions, 'gate-release-act0.json'), 'utf8'))).toMatchObject({
        decision: 'denied',
      });
      expect(listPending(runsRoot)).toEqual([]);
    },
    120_000,
  );

  it('refuses answers under --readonly and answers bound to another request', async () => {
    const { base, token } = await serve();
    const post = (route: string, body: unknown) =>
      fetch(`${base}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-omc-top-token': token },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: string } }));
    expect(
      await post('/api/permission', { root: 'local', request: 'x', digest: 'y', decision: 'maybe' }),
    ).toMatchObject({
      status: 400,
    });
    expect(
      await post('/api/permission', { root: 'local', request: 'x', digest: 'y', decision: 'allow' }),
    ).toMatchObject({
      status: 409,
    });
    expect(
      await post('/api/gate/plan', { root: 'local', run: 'r', activation: 'a', decision: 'approved' }),
    ).toMatchObject({ status: 409 });
  });
});
