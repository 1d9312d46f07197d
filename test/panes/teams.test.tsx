/**
 * The Teams pane, rendered in the real App with a real OmcStore on a copy of
 * the OMC fixture, keys typed through stdin: what the user sees, what lands on
 * disk when they ask a worker to shut down, and how the acknowledgement shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionsPaneState } from '../../src/panes/sessions/reducer.js';
import { OmcStore } from '../../src/store/store.js';
import { GLOBAL_BINDINGS } from '../../src/input/router.js';
import { INBOX_BINDINGS } from '../../src/input/inbox.js';
import { PANES } from '../../src/panes/registry.js';
import { helpLines } from '../../src/ui/overlay-lines.js';
import {
  READERS_CAPTURED_AT,
  SESSION,
  makeProject,
  waitFor,
  writeOmcJson,
  type TempProject,
} from '../helpers/fixtures.js';
import { KEY, mountStore, type MountedApp } from '../helpers/mount-app.js';
import { generateTeam } from '../helpers/team-gen.js';

const NOW = READERS_CAPTURED_AT;

let p: TempProject | null = null;
let store: OmcStore | null = null;
let h: MountedApp | null = null;
afterEach(async () => {
  h?.unmountOnly();
  await store?.close();
  p?.cleanup();
  h = null;
  store = null;
  p = null;
});

function start(
  opts: {
    readonly?: boolean;
    columns?: number;
    rows?: number;
    extraTeam?: boolean;
    bigTeam?: boolean;
    watch?: 'auto' | 'none';
  } = {},
) {
  p = makeProject({ withFixture: true });
  if (opts.extraTeam) {
    // A second team, owned (5.5 style) by the ralph session.
    generateTeam({ root: p.root, name: 'zeta-team', workers: 2, tasks: 4, now: NOW, leaderSessionId: SESSION.ralph });
  }
  if (opts.bigTeam)
    generateTeam({ root: p.root, name: 'aaa-big', workers: 2, tasks: 30, now: NOW, leaderSessionId: SESSION.ralph });
  store = new OmcStore({
    root: p.root,
    readonly: opts.readonly,
    clock: () => NOW,
    watch: opts.watch ?? 'auto',
    teams: { pidAlive: () => true },
  });
  store.start();
  h = mountStore(store, { columns: opts.columns, rows: opts.rows });
  return h;
}

/** Moves the sessions-pane selection with j until `id` is selected, as a user would. */
async function selectSession(app: MountedApp, id: string) {
  for (let i = 0; i < 20; i++) {
    const s = app.ui.state.panes.sessions as SessionsPaneState | undefined;
    const row = app.lines().find((l) => l.startsWith('▸')) ?? '';
    if ((s?.list.id ?? null) === id || row.includes(id.slice(0, 8))) return;
    app.send('j');
    await waitFor(() => (app.lines().find((l) => l.startsWith('▸')) ?? '') !== row, { what: 'selection moved' });
  }
  throw new Error(`could not select ${id}`);
}

describe('Teams pane', () => {
  it('lists the team with phase, history, owner, counts and a progress bar, at 80x24', async () => {
    const app = start();
    app.send('t');
    await app.waitForText('fix-ts-errors');
    const screen = app.lines();
    const row = screen.findIndex((l) => l.includes('fix-ts-errors'));
    expect(screen[row]).toMatch(/^▸ fix-ts-errors\s+executing \(team-exec\)\s+\[[█▒░]+\] 2\/6\s+3w ⚠1/);
    expect(screen[row + 1]).toContain('session ee515cfb · fix 0/3');
    expect(screen[row + 2]).toContain('pend 1 · blk 0 · run 2 · done 2 · fail 1 · team-plan → team-prd → team-exec');
    // Every cell of the first line has a title: the worker count (⚠ flagged) under WORKERS, the age under AGE.
    const titles = screen[row - 1] ?? '';
    expect(titles).toMatch(/^ {2}TEAM\s+PHASE\s+PROGRESS\s+WORKERS {2}AGE$/);
    const first = screen[row] ?? '';
    expect(first.indexOf('3w ⚠1') + '3w ⚠1'.length).toBe(titles.indexOf('WORKERS') + 'WORKERS'.length);
    expect(first.trimEnd().length).toBe(titles.length);
    // And `?` says what `4w ⚠3` means.
    const help = helpLines(
      { panes: PANES, globals: GLOBAL_BINDINGS, inbox: INBOX_BINDINGS, log: [], readonly: false },
      80,
    );
    expect(help.map((l) => l.text).join('\n')).toMatch(/4w ⚠3\s+teams \(WORKERS\): 4 workers, 3 of them flagged/);
    expect(screen.length).toBeLessThanOrEqual(23);
    expect(screen.every((l) => stringWidth(l) <= 80)).toBe(true);
  });

  it('opens a team: workers with heartbeat age and the not-beating flag, tasks with blockers, live events', async () => {
    const app = start();
    app.send('t');
    await app.waitForText('fix-ts-errors');
    app.send(KEY.enter);
    await app.waitForText('WORKERS 3 · 2 alive · 1 flagged · beat within 3m');
    const s = app.text();
    expect(s).toMatch(/worker-2\s+claude\s+working\s+2m\s+#6 Update API client/);
    expect(s).toMatch(/worker-3\s+claude\s+working\s+25m\s+#3 Narrow union.*⚠ no beat in 3m/);
    expect(s).toMatch(/#5\s+pending\s+—\s+⛓3\s+Add regression test/);
    expect(s).toMatch(/18:05:27 worker_idle\s+worker-1\s+no claimable tasks/);

    // A new event is appended by a worker: it shows up at the bottom, live.
    fs.appendFileSync(
      path.join(p!.root, 'state/team/fix-ts-errors/events.jsonl'),
      JSON.stringify({
        event_id: 'x',
        team: 'fix-ts-errors',
        created_at: '2026-11-30T18:15:10.000Z',
        type: 'task_completed',
        worker: 'worker-2',
        task_id: '6',
      }) + '\n',
    );
    await app.waitForText(/18:15:10 task_completed\s+worker-2\s+task 6/);

    // ] to tasks, filter them with /.
    app.send(']', '/', 'p', 'e', 'n', 'd');
    await app.waitForText('/pend▏ 1 of 6 match');
    expect(app.text()).not.toContain('#1 ');
    app.send(KEY.esc);
    await app.waitForText(/TASKS 6\n/);
    app.send(KEY.esc);
    await app.waitForText(/TEAM\s+PHASE\s+PROGRESS/);
  });

  it('Enter on a task opens it: owner, blockers, and the whole error of a failed task (cut off in the list)', async () => {
    const app = start({ columns: 60 });
    app.send('t', KEY.enter);
    await app.waitForText('WORKERS 3');
    app.send(']', 'j');
    await app.waitForText(/▸ #2 /);
    expect(app.text()).not.toContain('needs leader decision');
    app.send(KEY.enter);
    await app.waitForText('Task #2 of team fix-ts-errors');
    expect(app.text()).toContain('owner: worker-2');
    expect(app.text().replace(/\s+/g, ' ')).toContain(
      'formatCents signature change breaks 4 call sites; needs leader decision',
    );
    app.send(KEY.esc);
    await app.waitForText('WORKERS 3');
  });

  it('a long task list keeps its window: G then k moves the cursor up, the first shown task stays', async () => {
    const app = start({ bigTeam: true });
    app.send('t');
    await app.waitForText('aaa-big');
    app.send('/', 'a', 'a', 'a', KEY.enter, KEY.enter);
    await app.waitForText(/TASKS 30/);
    app.send(']', 'G');
    await app.waitForText(/▸ #30 /);
    const firstTask = () => app.lines().find((l) => /^[ ▸] #\d+ /.test(l)) ?? '';
    const before = firstTask();
    app.send('k', 'k', 'k');
    await app.waitForText(/▸ #27 /);
    expect(firstTask()).toBe(before);
  });

  it('asks a worker to shut down after confirmation, writes the request, and shows the ack when it arrives', async () => {
    const app = start();
    app.send('t', KEY.enter);
    await app.waitForText('WORKERS 3');
    app.send('j', 'x');
    await app.waitForText('Ask worker-2 of fix-ts-errors to shut down?');
    expect(app.text()).toContain('y: ask it to shut down');
    const req = path.join(p!.root, 'state/team/fix-ts-errors/workers/worker-2/shutdown-request.json');
    expect(fs.existsSync(req)).toBe(false);
    app.send('y');
    await app.waitForText('asked worker-2 to shut down; waiting for its acknowledgement');
    expect(JSON.parse(fs.readFileSync(req, 'utf8'))).toEqual({
      from: 'omc-top',
      requested_at: new Date(NOW).toISOString(),
    });
    await app.waitForText(/worker-2 .*⏻ asked 0s ago, no ack yet/);

    writeOmcJson(path.join(p!.root, 'state/team/fix-ts-errors/workers/worker-2/shutdown-ack.json'), {
      status: 'accept',
      reason: 'ok',
      updated_at: new Date(NOW + 1000).toISOString(),
    });
    await app.waitForText(/worker-2 .*⏻ accepted: ok/);
  });

  it('declining the confirmation writes nothing; --readonly refuses with a message', async () => {
    let app = start({ readonly: true });
    app.send('t', KEY.enter);
    await app.waitForText('WORKERS 3');
    app.send('x');
    await app.waitForText('--readonly: shutdown requests are disabled (nothing is written)');
    app.send('X');
    expect(fs.existsSync(path.join(p!.root, 'state/team/fix-ts-errors/shutdown.json'))).toBe(false);
    h?.unmountOnly();
    await store?.close();
    p?.cleanup();

    app = start();
    app.send('t', 'X');
    await app.waitForText('Ask all 3 workers of fix-ts-errors to shut down?');
    app.send('n');
    await app.waitForText(/TEAM\s+PHASE/);
    expect(fs.readdirSync(path.join(p!.root, 'state/team/fix-ts-errors/workers/worker-1'))).toEqual([
      'heartbeat.json',
      'status.json',
    ]);
  });

  it("preselects the selected team session's team when t is pressed in the sessions pane", async () => {
    const app = start({ extraTeam: true, rows: 30 });
    await app.waitForText(SESSION.ralph.slice(0, 8));
    await selectSession(app, SESSION.ralph);
    app.send('t');
    await app.waitForText(/▸ zeta-team/);
    app.send('s');
    await app.waitForText(/STATUS\s+SESSION/);
    await selectSession(app, SESSION.team);
    app.send('t');
    await app.waitForText(/▸ fix-ts-errors/);
    // Moving in the teams pane sticks while the sessions selection stays put.
    app.send('j');
    await app.waitForText(/▸ zeta-team/);
    app.send('s', 't');
    await app.waitForText(/▸ zeta-team/);
  });

  it('fits a 60-column tmux pane: every line cut to 60 cells, list and detail', async () => {
    const app = start({ columns: 60, rows: 20 });
    app.send('t');
    await app.waitForText('fix-ts-errors');
    expect(app.lines().every((l) => stringWidth(l) <= 60)).toBe(true);
    expect(app.lines().length).toBeLessThanOrEqual(19);
    app.send(KEY.enter);
    await app.waitForText('WORKERS 3');
    const s = app.lines();
    expect(s.every((l) => stringWidth(l) <= 60)).toBe(true);
    expect(s.length).toBeLessThanOrEqual(19);
    expect(s.join('\n')).toMatch(/worker-3\s+working\s+25m/);
    expect(s.join('\n')).toContain('EVENTS 6 · live');
  });

  it('shows hostile text from team files without a single control byte reaching the terminal', async () => {
    p = makeProject({ withFixture: true });
    const task = path.join(p.root, 'state/team/fix-ts-errors/tasks/task-1.json');
    writeOmcJson(task, {
      ...JSON.parse(fs.readFileSync(task, 'utf8')),
      subject: 'Fix \u001b]0;owned\u0007title \u001b[2J\u001b[31mred\u001b[0m\u0008\u009b2J',
    });
    store = new OmcStore({ root: p.root, clock: () => NOW, watch: 'none', teams: { pidAlive: () => true } });
    store.start();
    h = mountStore(store, { columns: 100, rows: 30 });
    h.send('t', KEY.enter);
    await h.waitForText('Fix title red');
    const visible = h.raw().replace(/\u001b\[[0-9;]*m/g, '');
    expect(visible).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('says what to do when there are no teams', async () => {
    p = makeProject();
    store = new OmcStore({ root: p.root, clock: () => NOW, watch: 'none' });
    store.start();
    h = mountStore(store);
    h.send('t');
    await h.waitForText('No team runs yet: start /team in Claude');
  });
});
