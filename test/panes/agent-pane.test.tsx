/**
 * The Claude process behind each session, in the real App over a real store:
 * registry and transcript files as the CLI (and the demo) write them, live
 * processes for "busy" / "waiting", a dead pid for "gone". The process cell on
 * the rows at 80 and 60 columns, attention in the row, the detail and the
 * problems view, the detail's tokens / cost / loop analytics, and the peek.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetConfiguredPrices } from '../../src/store/claude/price-config.js';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { AckFile } from '../../src/feeds/attention/acks.js';
import { OmcStore } from '../../src/store/store.js';
import { LEGEND } from '../../src/ui/overlay-lines.js';
import { DEAD_PID, writeRegistry, writeTranscript } from '../helpers/claude-files.js';
import { liveRalph, makeProject, type TempProject, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import { KEY, mountStore, type MountedApp } from '../helpers/mount-app.js';
import { assistant, prompt, stopBlock, toolResult } from '../store/claude/lines.js';

const BUSY = 'aaaaaaaa-1111-4222-8333-000000000001';
const GONE = 'bbbbbbbb-1111-4222-8333-000000000002';
const WAIT = 'cccccccc-1111-4222-8333-000000000003';
const NONE = 'dddddddd-1111-4222-8333-000000000004';

let p: TempProject | null = null;
let app: MountedApp | null = null;
const children: ChildProcess[] = [];
const savedXdg = process.env.XDG_CONFIG_HOME;

afterEach(async () => {
  await app?.unmount();
  app = null;
  for (const c of children.splice(0)) c.kill('SIGKILL');
  p?.cleanup();
  p = null;
  if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = savedXdg;
  forgetConfiguredPrices();
});

/** A stand-in CLI process in `cwd` that exits 42 on SIGINT; ready once its handler is installed. */
export function startCli(cwd: string): Promise<ChildProcess> {
  const c = spawn(
    process.execPath,
    ['-e', 'process.on("SIGINT",()=>process.exit(42));console.log("ready");setInterval(()=>{},1000)'],
    { cwd, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  children.push(c);
  return new Promise((resolve) => c.stdout?.once('data', () => resolve(c)));
}

const ralph = (sid: string, iteration: number) =>
  liveRalph({
    sessionId: sid,
    iteration,
    max: 10,
    projectPath: (p as TempProject).dir,
    prompt: 'ralph: make the tests pass',
  });

const at = (sec: number) => new Date(Date.now() - 120_000 + sec * 1000).toISOString();

/** Three ralph iterations 20 s apart; the last writes a file; one tool error. */
const BUSY_TRANSCRIPT = (sid: string) => [
  prompt(sid, at(0), 'ralph: make the tests pass'),
  ...assistant(sid, at(1), 'm1', 1, [
    { type: 'text', text: 'Running the tests' },
    { type: 'tool_use', name: 'Bash', input: { command: 'npm test' } },
  ]),
  toolResult(sid, at(2), 'Exit code 1: 3 failing', true),
  stopBlock(sid, at(5), '[RALPH LOOP - ITERATION 2/10] Work is NOT done. Continue.'),
  ...assistant(sid, at(10), 'm2', 2, [{ type: 'tool_use', name: 'Bash', input: { command: 'npm test -- cart' } }]),
  stopBlock(sid, at(25), '[RALPH LOOP - ITERATION 3/10] Work is NOT done. Continue.'),
  ...assistant(sid, at(30), 'm3', 3, [
    { type: 'text', text: 'Fixed the cart total rounding' },
    { type: 'tool_use', name: 'Write', input: { file_path: 'src/cart.ts', content: 'x' } },
  ]),
  stopBlock(sid, at(45), '[RALPH LOOP - ITERATION 4/10] Work is NOT done. Continue.'),
];

/** Four sessions: busy (a live process), gone (dead pid, loop active = orphaned), waiting, and no registry entry. */
async function setup(opts: { readonly?: boolean } = {}): Promise<{ cfg: string; busyPid: number; store: OmcStore }> {
  p = makeProject();
  const cfg = path.join(p.dir, 'claude-config');
  const dir = (sid: string) => path.join((p as TempProject).root, 'state', 'sessions', sid);
  writeOmcJson(path.join(dir(BUSY), 'ralph-state.json'), ralph(BUSY, 4));
  writeOmcJson(path.join(dir(GONE), 'ralph-state.json'), ralph(GONE, 2));
  writeOmcJson(path.join(dir(NONE), 'ralph-state.json'), ralph(NONE, 1));
  writeOmcJson(path.join(dir(WAIT), 'session-started.json'), { cwd: p.dir, started_at: new Date().toISOString() });
  const busy = await startCli(p.dir);
  const waiting = await startCli(p.dir);
  writeRegistry(cfg, busy.pid as number, BUSY, { status: 'busy', cwd: p.dir, name: 'cart-fix', tmux: 'main:@1.%3' });
  writeRegistry(cfg, DEAD_PID, GONE, { status: 'busy', cwd: p.dir, procStart: '5' });
  writeRegistry(cfg, waiting.pid as number, WAIT, { status: 'waiting', cwd: p.dir, waitingFor: 'permission: Bash' });
  writeTranscript(cfg, p.dir, BUSY, BUSY_TRANSCRIPT(BUSY));
  const store = new OmcStore({
    root: p.root,
    watch: 'none',
    projectDir: p.dir,
    readonly: opts.readonly,
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg } },
  });
  store.start();
  return { cfg, busyPid: busy.pid as number, store };
}

/** The App with its attention layer (the inbox lists what the attention model says needs you). */
async function mounted(store: OmcStore, size: { columns: number; rows: number }): Promise<MountedApp> {
  const monitor = new AttentionMonitor(store);
  const notifier = { isEnabled: () => true, setEnabled: () => undefined };
  const m = mountStore(store, { ...size, attention: { monitor, notifier } });
  await m.ready;
  const unmount = m.unmount;
  return { ...m, unmount: async () => (monitor.dispose(), await unmount()) };
}

const rowOf = (a: MountedApp, id: string) => a.lines().find((l) => l.includes(id.slice(0, 8))) ?? '';

describe('sessions pane: the Claude process behind each session', () => {
  it('the legend (help and README) names every word the process cell can show', () => {
    const labels = LEGEND.map(([l]) => l).join(' / ');
    for (const w of ['busy', 'idle', 'waiting', 'gone', 'unknown', '!gone', '!waiting', '!idle', 'est.'])
      expect(labels).toContain(w);
  });

  it('80 columns: every row has its process cell with the age of its last change; ! marks what needs you', async () => {
    const { store } = await setup();
    app = await mounted(store, { columns: 80, rows: 24 });
    await app.waitForText(/STATUS\s+SESSION\s+MODES\s+by attention\s+AGE\s+CLAUDE/);
    expect(rowOf(app, BUSY)).toMatch(/ralph 4\/10 .* busy \d+s$/);
    expect(rowOf(app, GONE)).toMatch(/ralph 2\/10 .* !gone \d+s$/);
    expect(rowOf(app, WAIT)).toMatch(/ !waiting \d+s$/);
    expect(rowOf(app, NONE)).toMatch(/ralph 1\/10 .* unknown$/);
    for (const l of app.lines()) expect(l.length).toBeLessThanOrEqual(80);
  });

  it('/ finds rows by their CLAUDE cell and by what Claude waits on (the words the row shows)', async () => {
    const { store } = await setup();
    app = await mounted(store, { columns: 100, rows: 24 });
    await app.waitForText(/ !waiting /);
    for (const [word, sid] of [
      ['!waiting', WAIT],
      ['gone', GONE],
      ['busy', BUSY],
      ['bash', WAIT],
      // A word an age may hold ('rm': r and m are age characters, as in "far" and "5m") is looked for at the
      // frame's clock; here it is only in what Claude waits on ("permission"), beside a word of the CLAUDE cell.
      ['!waiting rm', WAIT],
    ] as const) {
      app.send('/', ...word);
      const t = await app.waitForText(new RegExp(`/${word} +1 of 4 match`));
      expect(t).toContain(sid.slice(0, 8));
      app.send(KEY.esc);
      await app.waitForText(NONE.slice(0, 8));
    }
  });

  it('the advice offers J only where a tmux pane is known: an orphan without one is resumed with r', async () => {
    const { store } = await setup();
    app = await mounted(store, { columns: 140, rows: 40 });
    await app.waitForText(/ !gone /);
    const open = async (sid: string) => {
      while (!(app!.lines().find((l) => l.startsWith('▸')) ?? '').includes(sid.slice(0, 8))) await app!.press('j');
      await app!.press(KEY.enter);
      return app!.waitForText('▌Claude process');
    };
    let t = await open(GONE);
    expect(t).toContain('! orphaned ralph');
    expect(t).toMatch(/or r to resume it/);
    expect(t).not.toContain('J to its tmux pane');
    await app.press(KEY.esc);
    t = await open(WAIT);
    expect(t).toMatch(/Claude is waiting for you.*: answer it in its terminal/);
    expect(t).not.toContain('J jumps');
  });

  it('60 columns: the cell drops its age, never cuts a word, and the rest of the row still fits', async () => {
    const { store } = await setup();
    app = await mounted(store, { columns: 60, rows: 24 });
    await app.waitForText(/STATUS\s+SESSION\s+MODES\s+by attention\s+AGE\s+CLAUDE/);
    // "busy 0s" still fits the 8 cells; "!waiting 0s" does not, so it says "!waiting".
    expect(rowOf(app, BUSY)).toMatch(/ralph 4\/10 .* busy( \d+s)?$/);
    expect(rowOf(app, GONE)).toMatch(/ !gone( \d+s)?$/);
    expect(rowOf(app, WAIT)).toMatch(/ !waiting$/);
    expect(rowOf(app, NONE)).toMatch(/ unknown$/);
    for (const l of app.lines()) expect(l.length).toBeLessThanOrEqual(60);
    // The sort still works with the new column.
    await app.press('S');
    await app.waitForText('by recent');
    expect(rowOf(app, BUSY)).toMatch(/ busy( \d+s)?$/);
  });

  it('a on a !gone row: the item leaves the count and the row its "!" (the process is still shown gone)', async () => {
    const { store } = await setup();
    const acks = new AckFile(path.join((p as TempProject).dir, 'xdg-state', 'omc-top'), store.root);
    const monitor = new AttentionMonitor(store, { acks });
    const notifier = { isEnabled: () => true, setEnabled: () => undefined };
    const m = mountStore(store, { columns: 80, rows: 24, attention: { monitor, notifier } });
    await m.ready;
    app = { ...m, unmount: async () => (monitor.dispose(), await m.unmount()) };
    await app.waitForText(/ !gone \d+s$/m);
    const rows = app.lines();
    const at = rows.findIndex((l) => l.includes(GONE.slice(0, 8)));
    const sel = rows.findIndex((l) => l.startsWith('▸'));
    for (let i = sel; i < at; i++) await app.press('j');
    await app.press('a');
    await app.waitForText('acknowledged: orphaned loop');
    await waitFor(() => / gone \d+s$/.test(rowOf(app as MountedApp, GONE)), { what: 'the row without its mark' });
    expect(rowOf(app, GONE)).not.toContain('!gone');
    // The waiting session was not acknowledged: it keeps its mark.
    expect(rowOf(app, WAIT)).toMatch(/ !waiting \d+s$/);
  });

  it('the inbox lists the orphaned loop and the open permission prompt; the selected one says what to do', async () => {
    const { store } = await setup();
    app = await mounted(store, { columns: 120, rows: 30 });
    await app.waitForText('CLAUDE');
    await app.press('!');
    const t = await app.waitForText('orphaned loop');
    expect(t).toContain('waiting for you: permission: Bash');
    // Each item's full text below the list when it is selected: the orphaned loop's says c cleans it up.
    const a = app;
    for (let i = 0; i < 3 && !a.text().includes('is gone'); i++) await a.press('j');
    const d = (await app.waitForText(`its Claude process (pid ${DEAD_PID}) is gone`)).replace(/\s+/g, ' ');
    expect(d).toContain('cancel cleans it up');
    expect(d).toContain(`state/sessions/${GONE}/ralph-state.json`);
  });

  it('the detail: pid, version, entrypoint, name, tmux, tokens per message.id, per iteration, s/iteration, ETA', async () => {
    const { store, busyPid } = await setup();
    app = await mounted(store, { columns: 120, rows: 60 });
    await app.waitForText('CLAUDE');
    const rows = app.lines();
    const at = rows.findIndex((l) => l.includes(BUSY.slice(0, 8)));
    const sel = rows.findIndex((l) => l.startsWith('▸'));
    for (let i = sel; i < at; i++) await app.press('j');
    await app.press(KEY.enter);
    await app.waitForText(`Session ${BUSY}`);
    await app.press('G');
    const t = await app.waitForText('▌Claude process');
    expect(t).toContain(`pid ${busyPid} · Claude 2.1.332 · cli · name cart-fix · tmux main:@1`);
    // m1..m3 once each, though m1 and m3 have two block lines each.
    expect(t).toContain('tokens: in 306 · out 36 · cache read 6,000 · cache write 15');
    // The pinned CLI's own price for its default model: 306×4 + 36×20 + 6000×0.2 + 15×5 = 3,219 µ$.
    expect(t).toContain('cost $0.0032 est.');
    expect(t).toContain('claude-opus-5-5: 3 responses · 6,357 tokens · $0.0032 est. (built-in price)');
    // The Stop hook's "ITERATION 3/10" block starts iteration 3: m3 and its Write belong to it.
    expect(t).toContain(
      'iteration 2: in 102 · out 12 · cache read 2,000 · cache write 5 · $0.0011 est. · 0 files written',
    );
    expect(t).toContain(
      'iteration 3: in 103 · out 13 · cache read 3,000 · cache write 5 · $0.0013 est. · 1 file written',
    );
    expect(t).toMatch(/s\/iteration \S+ last 20s · ETA to 10 iterations 2m/);
  });

  it('a price in the config file gives a cost marked "est.", per session and per iteration', async () => {
    const xdg = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'omc-top-xdg-'));
    fs.mkdirSync(path.join(xdg, 'omc-top'));
    fs.writeFileSync(
      path.join(xdg, 'omc-top', 'config.json'),
      JSON.stringify({ prices: { 'claude-opus-5-5': { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 } } }),
    );
    process.env.XDG_CONFIG_HOME = xdg;
    forgetConfiguredPrices();
    try {
      const { store } = await setup();
      app = await mounted(store, { columns: 120, rows: 60 });
      await app.waitForText('CLAUDE');
      const rows = app.lines();
      const target = rows.findIndex((l) => l.includes(BUSY.slice(0, 8)));
      const sel = rows.findIndex((l) => l.startsWith('▸'));
      for (let i = sel; i < target; i++) await app.press('j');
      await app.press(KEY.enter);
      await app.press('G');
      // 306×10 + 36×50 + 6000×1 + 15×12.5 = 11,047.5 µ$
      const t = await app.waitForText('claude-opus-5-5: 3 responses · 6,357 tokens · $0.0110 est. (config price)');
      expect(t).toContain('cost $0.0110 est.');
      // iteration 3 = m3: 103×10 + 13×50 + 3000×1 + 5×12.5 = 4,742.5 µ$
      expect(t).toMatch(/iteration 3: .* · \$0\.0047 est\. · 1 file written/);
    } finally {
      fs.rmSync(xdg, { recursive: true, force: true });
    }
  });

  it('an orphaned loop: c on its row runs the cancel plan, with its confirmation, and the loop is gone from disk', async () => {
    const { store } = await setup();
    app = await mounted(store, { columns: 120, rows: 30 });
    await app.waitForText('CLAUDE');
    const rows = app.lines();
    const target = rows.findIndex((l) => l.includes(GONE.slice(0, 8)));
    const sel = rows.findIndex((l) => l.startsWith('▸'));
    for (let i = sel; i < target; i++) await app.press('j');
    await app.waitForText(/▸ .*bbbbbbbb.* !gone/);
    await app.press('c');
    await app.waitForText(`Cancel ralph of session ${GONE}?`);
    const file = path.join((p as TempProject).root, 'state', 'sessions', GONE, 'ralph-state.json');
    expect(fs.existsSync(file)).toBe(true);
    await app.press('y');
    await waitFor(() => !fs.existsSync(file), { what: 'the orphaned ralph removed' });
  });

  it('the stall badges: no file written in the last 3 iterations, the same error 3 times', async () => {
    const { store, cfg } = await setup();
    const d = (p as TempProject).dir;
    writeTranscript(cfg, d, GONE, [
      prompt(GONE, at(0), 'ralph: x'),
      ...[2, 3, 4].flatMap((n) => [
        stopBlock(GONE, at(n * 10), `[RALPH LOOP - ITERATION ${n}/10] Work is NOT done.`),
        ...assistant(GONE, at(n * 10 + 1), `g${n}`, n, [
          { type: 'tool_use', name: 'Bash', input: { command: 'make' } },
        ]),
        toolResult(GONE, at(n * 10 + 2), 'make: *** [all] Error 2', true),
      ]),
    ]);
    store.claude.scan();
    app = await mounted(store, { columns: 120, rows: 60 });
    await app.waitForText('CLAUDE');
    const rows = app.lines();
    const target = rows.findIndex((l) => l.includes(GONE.slice(0, 8)));
    const sel = rows.findIndex((l) => l.startsWith('▸'));
    for (let i = sel; i < target; i++) await app.press('j');
    await app.press(KEY.enter);
    await app.press('G');
    const t = await app.waitForText('! no file written in the last 3 iterations');
    expect(t).toContain('! the same error 3 times: make: *** [all] Error 2');
  });

  it('J outside tmux says why; on a row with no registry entry it says that instead', async () => {
    const saved = process.env.TMUX;
    delete process.env.TMUX;
    try {
      const { store } = await setup();
      app = await mounted(store, { columns: 120, rows: 30 });
      await app.waitForText('CLAUDE');
      const rows = app.lines();
      const target = rows.findIndex((l) => l.includes(BUSY.slice(0, 8)));
      const sel = rows.findIndex((l) => l.startsWith('▸'));
      for (let i = sel; i < target; i++) await app.press('j');
      await app.press('J');
      await app.waitForText('jump: not in tmux: run omc-top inside tmux to jump to a pane');
      await app.press('/', 'dddddddd', KEY.enter);
      await app.waitForText(/▸ .*dddddddd/);
      await app.press('J');
      await app.waitForText(/jump: no Claude process is registered for session dddddddd/);
    } finally {
      if (saved !== undefined) process.env.TMUX = saved;
    }
  });

  it('hostile registry text (escape sequences, C1, bidi) never reaches the terminal: row, detail, peek, problems', async () => {
    const { store, cfg } = await setup();
    // Replace the waiting session's entry (one entry per session keeps the join deterministic).
    for (const f of fs.readdirSync(path.join(cfg, 'sessions')))
      if (fs.readFileSync(path.join(cfg, 'sessions', f), 'utf8').includes(WAIT))
        fs.rmSync(path.join(cfg, 'sessions', f));
    const waiting = await startCli((p as TempProject).dir);
    writeRegistry(cfg, waiting.pid as number, WAIT, {
      status: 'waiting',
      cwd: (p as TempProject).dir,
      waitingFor: 'permission \u001b]52;c;aGk=\u0007\u009b31m\u202e',
      name: 'evil\u001b[2J\u001b[?1049l',
    });
    store.claude.scan();
    app = await mounted(store, { columns: 120, rows: 40 });
    await app.waitForText('CLAUDE');
    await app.press('/', 'cccccccc', KEY.enter);
    await app.waitForText(/▸ .*cccccccc/);
    const frames: string[] = [app.raw()];
    await app.press(KEY.enter);
    await app.waitForText('Claude is waiting for you: permission');
    await app.press('G');
    await app.waitForText('name evil');
    frames.push(app.raw());
    await app.press(KEY.esc, 'P');
    await app.waitForText(`Peek ${WAIT}`);
    frames.push(app.raw());
    await app.press(KEY.esc, '!');
    await app.waitForText('waiting for you: permission');
    frames.push(app.raw());
    for (const f of frames) {
      // Ink's own SGR and cursor codes are all a frame may carry.
      const rest = f.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
      expect(rest).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    }
  });

  it('--readonly: I signals nothing and says so', async () => {
    const { store } = await setup({ readonly: true });
    app = await mounted(store, { columns: 120, rows: 30 });
    await app.waitForText('CLAUDE');
    await app.press('I');
    await app.waitForText('--readonly: interrupt is disabled (nothing is signalled)');
  });

  it('P peeks at the selected row only, scrolls like a text view, Esc closes', async () => {
    const { store } = await setup();
    app = await mounted(store, { columns: 80, rows: 16 });
    await app.waitForText('CLAUDE');
    const rows = app.lines();
    const target = rows.findIndex((l) => l.includes(BUSY.slice(0, 8)));
    const sel = rows.findIndex((l) => l.startsWith('▸'));
    for (let i = sel; i < target; i++) await app.press('j');
    await app.press('P');
    let t = await app.waitForText(`Peek ${BUSY} · read only · Esc closes`);
    expect(t).toMatch(/busy \d+s · pid \d+ · cli · v2\.1\.332/);
    // Only the row being looked at: nothing of the gone session above the problems line.
    expect(t.split('⚠')[0]).not.toContain(String(DEAD_PID));
    expect(t).toContain('more below');
    await app.press('G');
    t = await app.waitForText('more above');
    expect(t).toContain('Write src/cart.ts');
    expect(t).toContain('[RALPH LOOP - ITERATION 4/10]');
    await app.press(KEY.esc);
    await app.waitForText(/STATUS\s+SESSION/);
  });
});
