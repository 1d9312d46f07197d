/**
 * The opened team keeps what the user is looking at while OMC writes: events scrolled back stay put when
 * workers append more (OMC's own teamAppendEvent), a removed task hands the cursor to its neighbour (the task
 * files are made by OMC's own teamCreateTask), and a section that does not fit says how many rows it hides.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OmcStore } from '../../src/store/store.js';
import { FIXTURE_TREE, READERS_CAPTURED_AT, makeProject, waitFor, type TempProject } from '../helpers/fixtures.js';
import { KEY, mountStore, type MountedApp } from '../helpers/mount-app.js';
import { omcTeam } from '../helpers/omc-team.js';

const NOW = READERS_CAPTURED_AT;
const TEAM = 'fix-ts-errors';

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

function start(size: { columns?: number; rows?: number } = {}): MountedApp {
  store = new OmcStore({ root: p!.root, clock: () => NOW, watch: 'auto', teams: { pidAlive: () => true } });
  store.start();
  h = mountStore(store, size);
  return h;
}

const seen = () => store!.teams.getSnapshot().teams.find((t) => t.name === TEAM)?.eventsSeen ?? 0;

async function appendEvents(from: number, n: number): Promise<void> {
  const omc = await omcTeam();
  for (let i = 0; i < n; i++)
    await omc.teamAppendEvent(TEAM, { type: 'task_completed', worker: 'worker-1', task_id: String(from + i) }, p!.dir);
}

/** The event rows on screen (under the EVENTS title). */
function eventRows(app: MountedApp): string[] {
  const lines = app.lines();
  const at = lines.findIndex((l) => /^.EVENTS /.test(l));
  return lines.slice(at + 1).filter((l) => /task_completed|worker_/.test(l));
}

describe('Teams pane: the opened team holds what is being read', () => {
  it('events scrolled back stay on the lines being read while OMC appends more; End follows again', async () => {
    p = makeProject({ withFixture: true });
    await appendEvents(100, 20);
    const app = start();
    app.send('t', KEY.enter);
    await app.waitForText('WORKERS 3');
    app.send('[', 'G', 'k', 'k', 'k');
    await app.waitForText(/EVENTS 26 · scrolled back \(G follows\)\s+↑\d+ ↓3 more/);
    const before = eventRows(app);
    expect(before.at(-1)).toContain('task 116');

    await appendEvents(500, 4);
    await waitFor(() => seen() === 30, { what: 'the 4 events read' });
    await app.waitForText(/↓7 more/);
    expect(eventRows(app)).toEqual(before);

    app.send('G');
    await app.waitForText(/EVENTS 30 · live/);
    expect(eventRows(app).at(-1)).toContain('task 503');
  });

  it('events held at the oldest kept, trimmed from under the view by new ones, show the oldest kept', async () => {
    p = makeProject({ withFixture: true });
    await appendEvents(100, 200); // with the fixture's 6: the newest 200 kept are tasks 100…299
    const app = start();
    app.send('t', KEY.enter);
    await app.waitForText('WORKERS 3');
    app.send('[', 'g');
    await app.waitForText(/scrolled back \(G follows\)/);
    expect(eventRows(app)[0]).toMatch(/task 100$/);
    await appendEvents(1000, 10);
    await waitFor(() => seen() === 216, { what: 'the 10 events read' });
    await app.waitForText(/EVENTS 216 · scrolled back/);
    expect(eventRows(app)[0]).toMatch(/task 110$/);
    expect(app.text()).toMatch(/scrolled back \(G follows\)/);
  });

  it('events held when the log is replaced under them follow the new log', async () => {
    p = makeProject({ withFixture: true });
    await appendEvents(100, 20);
    const app = start();
    app.send('t', KEY.enter);
    await app.waitForText('WORKERS 3');
    app.send('[', 'G', 'k', 'k');
    await app.waitForText(/scrolled back \(G follows\)/);
    fs.rmSync(path.join(p.root, 'state/team', TEAM, 'events.jsonl'));
    await appendEvents(900, 2);
    await app.waitForText(/EVENTS 2 · live/);
    expect(eventRows(app).at(-1)).toContain('task 901');
  });
});

/** A team of `n` tasks made by OMC's own teamCreateTask (its config copied from the fixture's team). */
async function taskTeam(name: string, n: number): Promise<void> {
  const dir = path.join(p!.root, 'state/team', name);
  fs.mkdirSync(dir, { recursive: true });
  const cfg = JSON.parse(fs.readFileSync(path.join(FIXTURE_TREE, 'state/team', TEAM, 'config.json'), 'utf8'));
  cfg.name = name;
  cfg.next_task_id = 1;
  delete cfg.state_revision;
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(cfg, null, 2));
  const omc = await omcTeam();
  for (let i = 1; i <= n; i++)
    await omc.teamCreateTask(name, { subject: `task number ${i}`, description: 'd' }, p!.dir);
}

describe('Teams pane: selections and hidden rows in an opened team', () => {
  it("removing the selected task's file selects the task that took its place, not the first", async () => {
    p = makeProject();
    await taskTeam('sel-team', 20);
    const app = start();
    app.send('t', KEY.enter);
    await app.waitForText(/TASKS 20/);
    app.send(']', 'G', 'k', 'k');
    await app.waitForText(/▸ #18 /);
    fs.rmSync(path.join(p.root, 'state/team/sel-team/tasks/task-18.json'));
    await app.waitForText(/TASKS 19/);
    expect(app.text()).toMatch(/▸ #19 /);
    // And Enter opens that task.
    app.send(KEY.enter);
    await app.waitForText('Task #19 of team sel-team');
  });

  it('a section that does not fit says how many rows are above and below it, at g and at G', async () => {
    p = makeProject();
    await taskTeam('big-team', 30);
    const app = start({ columns: 80, rows: 24 });
    app.send('t', KEY.enter);
    await app.waitForText(/TASKS 30/);
    app.send(']', 'g');
    await app.waitForText(/▌TASKS 30\s+↓\d+ more$/m);
    const shown = app.lines().filter((l) => /^[ ▸] #\d+ /.test(l)).length;
    expect(app.text()).toContain(`↓${30 - shown} more`);
    app.send('G');
    await app.waitForText(/▸ #30 /);
    expect(app.text()).toMatch(new RegExp(`▌TASKS 30\\s+↑${30 - shown} more$`, 'm'));
  });

  it('at 60x20 the workers section says the worker it cannot show', async () => {
    p = makeProject({ withFixture: true });
    const app = start({ columns: 60, rows: 20 });
    app.send('t', KEY.enter);
    await app.waitForText('WORKERS 3');
    app.send(']');
    await app.waitForText(/▌TASKS/);
    const workers = app.lines().filter((l) => /^[ ▸] worker-\d/.test(l)).length;
    expect(workers).toBeLessThan(3);
    expect(app.text()).toMatch(new RegExp(`WORKERS 3 .*↓${3 - workers} more$`, 'm'));
  });
});

describe('Teams pane: what a task and the events header say', () => {
  it("Enter on a task shows its description (OMC's task body), wrapped, control bytes gone, scrollable", async () => {
    p = makeProject({ withFixture: true });
    const file = path.join(p.root, 'state/team', TEAM, 'tasks/task-1.json');
    const body = ['Step one: \u001b[31mfix\u001b[0m the Button props so label is a string.', '', 'Step two:'];
    for (let i = 1; i <= 30; i++)
      body.push(`  - call site ${i} in src/components/checkout/CartSummary.tsx needs the guard`);
    body.push('LAST LINE of the body');
    const task = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...task, description: body.join('\n') }, null, 2));
    const app = start({ columns: 60, rows: 20 });
    app.send('t', KEY.enter);
    await app.waitForText('WORKERS 3');
    app.send(']', KEY.enter);
    await app.waitForText('Task #1 of team fix-ts-errors');
    expect(app.text()).toContain('description:');
    expect(app.text()).toContain('Step one: fix the Button props so label is a string.');
    expect(app.raw()).not.toContain('\u001b[31mfix');
    expect(app.text()).not.toContain('LAST LINE');
    expect(app.text()).toMatch(/↓ \d+ more below/);
    app.send('G');
    await app.waitForText('LAST LINE of the body');
    // Wrapped at the pane's width, nothing cut.
    expect(app.lines().every((l) => l.length <= 60)).toBe(true);
    expect(app.text().replace(/\s+/g, ' ')).toContain(
      'call site 30 in src/components/checkout/CartSummary.tsx needs the guard',
    );
  });

  it('EVENTS says how many were read from the tail of a long log, not that the team had that many', async () => {
    p = makeProject({ withFixture: true });
    const ev = path.join(p.root, 'state/team', TEAM, 'events.jsonl');
    const one = (i: number) =>
      JSON.stringify({
        type: 'task_completed',
        worker: 'worker-1',
        task_id: String(i),
        created_at: '2026-11-30T18:00:00.000Z',
      });
    fs.writeFileSync(ev, Array.from({ length: 5000 }, (_, i) => one(i) + '\n').join(''));
    const app = start();
    app.send('t', KEY.enter);
    await app.waitForText(/EVENTS \(last \d+ read\) · live/);
    const n = Number(/EVENTS \(last (\d+) read\)/.exec(app.text())?.[1]);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(5000);
  });
});

describe('Teams pane: a narrow list', () => {
  it('at 40x12 the PROGRESS cell keeps the count (2/6) when the bar cannot fit, under its title', async () => {
    p = makeProject({ withFixture: true });
    const app = start({ columns: 40, rows: 12 });
    app.send('t');
    await app.waitForText(/▸ fix-ts-err/);
    const lines = app.lines();
    const row = lines.findIndex((l) => l.startsWith('▸ fix-ts-err'));
    expect(lines[row]).toMatch(/ 2\/6 +3w ⚠1/);
    expect(lines[row - 1]?.indexOf('PROGRESS')).toBe(lines[row]?.indexOf('2/6'));
    expect(lines.every((l) => l.length <= 40)).toBe(true);
  });
});
