/**
 * Team files that break OMC's schema, half-written files, hostile names and
 * bytes: each becomes a specific problem line, the last good value stays, and
 * nothing from a file reaches the screen with a control byte in it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TeamsDomain } from '../../src/store/teams/domain.js';
import { EventsTail, INITIAL_TAIL_BYTES } from '../../src/store/teams/events-tail.js';
import type { TeamView } from '../../src/store/teams/model.js';
import { workerLiveness } from '../../src/store/teams/omc-team-rules.js';
import { teamsReport } from '../../src/store/teams/report.js';
import { makeProject, writeOmcJson, type TempProject } from '../helpers/fixtures.js';
import { generateTeam } from '../helpers/team-gen.js';
import { teamsDomain } from '../helpers/teams-domain.js';

const NOW = Date.parse('2026-12-01T12:00:00.000Z');
let p: TempProject;
let dir: string;
let outside: string;

beforeEach(() => {
  p = makeProject();
  dir = generateTeam({
    root: p.root,
    name: 'alpha',
    workers: 2,
    tasks: 5,
    now: NOW,
    events: 3,
    status: (i) => (['completed', 'in_progress', 'pending', 'failed', 'pending'] as const)[i - 1] ?? 'pending',
  }).dir;
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-outside-'));
});
afterEach(() => {
  p.cleanup();
  fs.rmSync(outside, { recursive: true, force: true });
});

function domain(): TeamsDomain {
  const d = teamsDomain({ root: p.root, clock: () => NOW, pidAlive: () => true });
  d.scan();
  return d;
}
const team = (d: TeamsDomain, name = 'alpha') => d.getSnapshot().teams.find((t) => t.name === name) as TeamView;
const problemFor = (d: TeamsDomain, tail: string) => d.problems().find((x) => x.path.endsWith(tail));
/** Every string reachable from the snapshot and the --json document. */
const allText = (d: TeamsDomain) =>
  JSON.stringify({ snap: d.getSnapshot(), report: teamsReport(d.getSnapshot(), NOW) });
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('half-written and schema-breaking task files', () => {
  it('waits for the trailing edge before calling a truncated task a problem, and keeps its last good status', () => {
    const d = domain();
    expect(team(d).counts).toMatchObject({ in_progress: 1, completed: 1 });
    const rel = 'state/team/alpha/tasks/task-2.json';
    const good = fs.readFileSync(path.join(p.root, rel), 'utf8');
    fs.writeFileSync(path.join(p.root, rel), good.slice(0, 40));
    d.refresh([{ type: 'change', rel }], 'leading');
    expect(problemFor(d, 'task-2.json')).toBeUndefined();
    expect(team(d).tasks.find((t) => t.id === '2')?.status).toBe('in_progress');
    d.refresh([{ type: 'change', rel }], 'trailing');
    expect(problemFor(d, 'task-2.json')?.message).toMatch(/truncated JSON \(40 bytes/);
    expect(team(d).tasks.find((t) => t.id === '2')).toMatchObject({
      status: 'in_progress',
      problem: expect.stringMatching(/truncated/),
    });
    expect(team(d).counts.in_progress).toBe(1);
    fs.writeFileSync(path.join(p.root, rel), good);
    d.refresh([{ type: 'change', rel }], 'leading');
    expect(problemFor(d, 'task-2.json')).toBeUndefined();
  });

  it("names the schema rule a task breaks, leaves it out of the counts and says OMC's readers fail on it", () => {
    writeOmcJson(path.join(dir, 'tasks/task-3.json'), {
      id: '3',
      subject: 's',
      description: 'd',
      status: 'done',
      created_at: new Date(NOW).toISOString(),
    });
    writeOmcJson(path.join(dir, 'tasks/task-5.json'), {
      id: '9',
      subject: 's',
      description: 'd',
      status: 'pending',
      created_at: new Date(NOW).toISOString(),
    });
    writeOmcJson(path.join(dir, 'tasks/task-4.json'), {
      id: '4',
      subject: 42,
      description: 'd',
      status: 'failed',
      created_at: 'yesterday',
    });
    writeOmcJson(path.join(dir, 'tasks/6.json'), ['not', 'an', 'object']);
    const d = domain();
    expect(problemFor(d, 'task-3.json')?.message).toBe(
      'does not follow OMC\'s task schema: "status" "done" is not one of pending|blocked|in_progress|completed|failed',
    );
    expect(problemFor(d, 'task-5.json')?.message).toMatch(/"id" is "9" but the file name says 5/);
    expect(problemFor(d, 'task-4.json')?.message).toMatch(/"subject" must be a string/);
    expect(problemFor(d, 'tasks/6.json')?.message).toMatch(/expected a JSON object, found an array/);
    expect(problemFor(d, 'alpha/tasks')?.message).toMatch(
      /4 task file\(s\) break OMC's schema: OMC's own list-tasks and status fail/,
    );
    expect(team(d).counts).toEqual({ total: 2, pending: 0, blocked: 0, in_progress: 1, completed: 1, failed: 0 });
    expect(
      team(d)
        .tasks.filter((t) => t.subject === '(unreadable task)')
        .map((t) => t.id),
    ).toEqual(['3', '4', '5', '6']);
  });

  it('prefers task-<id>.json over a legacy <id>.json with the same id, as OMC does', () => {
    writeOmcJson(path.join(dir, 'tasks/2.json'), {
      id: '2',
      subject: 'legacy copy',
      description: 'd',
      status: 'failed',
      created_at: new Date(NOW).toISOString(),
    });
    const d = domain();
    expect(team(d).tasks.find((t) => t.id === '2')?.subject).toBe('Generated task 2');
    expect(team(d).counts.total).toBe(5);
  });

  it('survives a task file vanishing between the directory listing and the read', () => {
    const d = domain();
    fs.rmSync(path.join(dir, 'tasks/task-1.json'));
    d.refresh([{ type: 'change', rel: 'state/team/alpha/tasks/task-1.json' }], 'leading');
    d.refresh([{ type: 'unlink', rel: 'state/team/alpha/tasks/task-1.json' }], 'leading');
    expect(team(d).counts.total).toBe(4);
    expect(d.problems()).toEqual([]);
  });
});

describe('workers, config and structure', () => {
  it('shows a worker directory without a heartbeat as a problem and flags the worker', () => {
    fs.mkdirSync(path.join(dir, 'workers/worker-3'), { recursive: true });
    fs.rmSync(path.join(dir, 'workers/worker-2/heartbeat.json'));
    const d = domain();
    expect(problemFor(d, 'worker-2/heartbeat.json')?.message).toMatch(/no heartbeat yet/);
    expect(problemFor(d, 'worker-3/heartbeat.json')?.message).toMatch(/no heartbeat yet/);
    const w3 = team(d).workers.find((w) => w.name === 'worker-3');
    expect(w3).toMatchObject({ inConfig: false, state: 'unknown' });
    expect(w3 && workerLiveness(w3, NOW, 180_000).flag).toBe('no-heartbeat');
  });

  it("reports the config checks OMC's strict reader fails on", () => {
    const cfgPath = path.join(dir, 'config.json');
    const cfg = JSON.parse(fs.readFileSync(cfgPath, 'utf8'));
    writeOmcJson(cfgPath, {
      ...cfg,
      worker_count: 3,
      workers: [...cfg.workers, cfg.workers[0], { ...cfg.workers[0], name: '../../etc' }, 'nope'],
    });
    const d = domain();
    const msgs = d
      .problems()
      .filter((x) => x.path.endsWith('config.json'))
      .map((x) => x.message);
    expect(msgs).toEqual([
      'worker "worker-1" is listed twice',
      'workers[3] name "../../etc" is not a valid OMC worker name; ignored',
      'workers[4] has no "name"',
      '"worker_count" is 3 but 5 workers are listed (OMC\'s readers reject this config)',
    ]);
    expect(team(d).workers.map((w) => w.name)).toEqual(['worker-1', 'worker-2']);
  });

  it('keeps the last good config when it turns into garbage, and parses CRLF JSON', () => {
    const cfgPath = path.join(dir, 'config.json');
    const good = fs.readFileSync(cfgPath, 'utf8');
    fs.writeFileSync(cfgPath, good.replace(/\n/g, '\r\n'));
    const d = domain();
    expect(d.problems()).toEqual([]);
    fs.writeFileSync(cfgPath, '{"name": "alpha", "workers": [');
    d.refresh([{ type: 'change', rel: 'state/team/alpha/config.json' }], 'trailing');
    expect(problemFor(d, 'config.json')?.message).toMatch(
      /truncated JSON.*showing the last good version|truncated JSON/,
    );
    expect(team(d).workers).toHaveLength(2);
    expect(team(d).task).toBe('generated team alpha');
  });

  it('refuses hostile team and worker directory names without echoing control bytes', () => {
    fs.mkdirSync(path.join(p.root, 'state/team', 'evil\u001b[2J\u001b]0;pwned\u0007'), { recursive: true });
    fs.mkdirSync(path.join(p.root, 'state/team', 'UPPER'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'workers', 'w\u0007x'), { recursive: true });
    const d = domain();
    expect(d.getSnapshot().teams.map((t) => t.name)).toEqual(['alpha']);
    const bad = d.problems().filter((x) => /not a valid OMC (team|worker) name/.test(x.message));
    expect(bad).toHaveLength(3);
    for (const b of bad) expect(b.path).not.toMatch(CONTROL);
    expect(allText(d)).not.toMatch(/\\u001b|\\u0007/);
  });

  it('strips escape sequences and controls from every string a file supplies', () => {
    writeOmcJson(path.join(dir, 'tasks/task-1.json'), {
      id: '1',
      subject: 'Fix \u001b]52;c;ZXZpbA==\u0007clipboard \u001b[31mred\u001b[0m\u202e',
      description: 'd',
      status: 'completed',
      owner: 'worker-1',
      created_at: new Date(NOW).toISOString(),
      result: 'ok\r\nsecond line',
    });
    writeOmcJson(path.join(dir, 'workers/worker-1/status.json'), {
      state: 'idle\u001b[2J',
      reason: 'waiting\u0000',
      updated_at: new Date(NOW).toISOString(),
    });
    fs.appendFileSync(
      path.join(dir, 'events.jsonl'),
      JSON.stringify({
        type: 'worker_idle\u001b[H',
        worker: 'worker-1',
        reason: '\u001b[?1049lgone\u009b31m',
        created_at: new Date(NOW).toISOString(),
      }) + '\n',
    );
    const d = domain();
    const t = team(d);
    expect(t.tasks[0]?.subject).toBe('Fix clipboard red');
    expect(t.workers[0]?.state).toBe('idle');
    expect(t.events.at(-1)).toMatchObject({ type: 'worker_idle', text: 'gone' });
    const raw = JSON.parse(allText(d));
    const strings: string[] = [];
    const walk = (v: unknown) => {
      if (typeof v === 'string') strings.push(v);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(raw);
    expect(strings.filter((s) => CONTROL.test(s))).toEqual([]);
  });

  it('does not follow symlinks out of the root, and says so', () => {
    fs.writeFileSync(path.join(outside, 'config.json'), fs.readFileSync(path.join(dir, 'config.json')));
    fs.rmSync(path.join(dir, 'config.json'));
    fs.symlinkSync(path.join(outside, 'config.json'), path.join(dir, 'config.json'));
    fs.writeFileSync(path.join(outside, 'events.jsonl'), '{"type":"secret"}\n');
    fs.rmSync(path.join(dir, 'events.jsonl'));
    fs.symlinkSync(path.join(outside, 'events.jsonl'), path.join(dir, 'events.jsonl'));
    fs.symlinkSync(outside, path.join(p.root, 'state/team/linked'));
    const d = domain();
    expect(problemFor(d, 'alpha/config.json')?.message).toMatch(/symlink/);
    expect(problemFor(d, 'alpha/events.jsonl')?.message).toMatch(/symlink/);
    expect(problemFor(d, 'state/team/linked')?.message).toMatch(/symlink/);
    expect(team(d).events).toEqual([]);
    expect(allText(d)).not.toContain('secret');
  });

  it('says "directory where a file was expected", NUL bytes, oversized files and a state/team file', () => {
    fs.rmSync(path.join(dir, 'phase-state.json'));
    fs.mkdirSync(path.join(dir, 'phase-state.json'));
    fs.writeFileSync(path.join(dir, 'workers/worker-1/heartbeat.json'), Buffer.from([0x7b, 0x00, 0x7d]));
    fs.writeFileSync(path.join(dir, 'tasks/task-5.json'), JSON.stringify({ pad: 'x'.repeat(1_200_000) }));
    fs.writeFileSync(
      path.join(dir, 'workers/worker-2/status.json'),
      Buffer.concat([Buffer.from('{"state":"idle","reason":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]),
    );
    const d = domain();
    expect(problemFor(d, 'phase-state.json')?.message).toBe('is a directory where a file was expected');
    expect(problemFor(d, 'worker-1/heartbeat.json')?.message).toMatch(/NUL bytes/);
    expect(problemFor(d, 'task-5.json')?.message).toMatch(/over the 1\.0 MB limit/);
    expect(problemFor(d, 'worker-2/status.json')?.message).toMatch(/not valid UTF-8/);
    expect(team(d).workers[1]?.reason).toBe('caf\uFFFD');

    const q = makeProject();
    fs.writeFileSync(path.join(q.root, 'state', 'team'), 'oops');
    const d2 = teamsDomain({ root: q.root });
    d2.scan();
    expect(d2.problems()).toEqual([
      { path: 'state/team', message: 'is a file where a directory was expected', severity: 'error' },
    ]);
    q.cleanup();
  });
});

describe('events.jsonl', () => {
  const rel = 'state/team/alpha/events.jsonl';
  const line = (o: Record<string, unknown>) =>
    JSON.stringify({ created_at: new Date(NOW).toISOString(), worker: 'worker-1', ...o }) + '\n';

  it('shows a half-appended line only once its newline lands; reports bad lines; handles CRLF', () => {
    const file = path.join(dir, 'events.jsonl');
    const tail = new EventsTail(p.root, rel);
    tail.refresh();
    expect(tail.events).toHaveLength(3);
    const full = line({ type: 'task_failed', task_id: '4', reason: 'boom' });
    fs.appendFileSync(file, full.slice(0, 20));
    tail.refresh();
    expect(tail.events).toHaveLength(3);
    expect(tail.problem).toBeNull();
    fs.appendFileSync(file, full.slice(20));
    tail.refresh();
    expect(tail.events.at(-1)).toMatchObject({ type: 'task_failed', taskId: '4', text: 'boom' });
    fs.appendFileSync(
      file,
      'not json\n' + line({ type: 'worker_idle' }).replace('\n', '\r\n') + '{"a\u0000":1}\n' + '[1,2]\n',
    );
    tail.refresh();
    expect(tail.events.at(-1)?.type).toBe('worker_idle');
    expect(tail.problem).toMatch(/not an OMC event.*3 unusable lines so far/);
  });

  it('starts over from the tail when the file is replaced or truncated', () => {
    const file = path.join(dir, 'events.jsonl');
    const tail = new EventsTail(p.root, rel);
    tail.refresh();
    fs.writeFileSync(file + '.new', line({ type: 'team_leader_nudge' }));
    fs.renameSync(file + '.new', file);
    expect(tail.refresh()).toBe(true);
    expect(tail.events.map((e) => e.type)).toEqual(['team_leader_nudge']);
    fs.truncateSync(file, 0);
    tail.refresh();
    expect(tail.events).toEqual([]);
    fs.appendFileSync(file, line({ type: 'worker_stopped' }));
    tail.refresh();
    expect(tail.events.map((e) => e.type)).toEqual(['worker_stopped']);
  });

  it('reads a 20 MB log from its tail only, then only what is appended', () => {
    const file = path.join(dir, 'events.jsonl');
    const chunk = line({ type: 'task_completed', task_id: '1', reason: 'x'.repeat(150) });
    const count = Math.ceil((20 * 1024 * 1024) / chunk.length);
    fs.writeFileSync(file, chunk.repeat(count));
    const tail = new EventsTail(p.root, rel);
    tail.refresh();
    // Only the last 64 KB were parsed, not 20 MB.
    expect(tail.seen).toBeLessThanOrEqual(Math.ceil(INITIAL_TAIL_BYTES / chunk.length));
    expect(tail.events.length).toBeGreaterThan(100);
    expect(tail.problem).toBeNull();
    fs.appendFileSync(file, line({ type: 'worker_idle' }));
    const before = tail.seen;
    tail.refresh();
    expect(tail.seen).toBe(before + 1);
    expect(tail.events.at(-1)?.type).toBe('worker_idle');
  });

  it('a log cut mid-line (a crashed append) and then appended to: the joined line is a problem, later events show', () => {
    const file = path.join(dir, 'events.jsonl');
    const tail = new EventsTail(p.root, rel);
    tail.refresh();
    const before = tail.events.length;
    const text = fs.readFileSync(file, 'utf8');
    fs.truncateSync(file, Buffer.byteLength(text) - 10);
    expect(tail.refresh()).toBe(true);
    expect(tail.events).toHaveLength(before - 1);
    fs.appendFileSync(file, line({ type: 'worker_idle', reason: 'after the cut' }));
    tail.refresh();
    expect(tail.problem).toMatch(/a line is not valid JSON/);
    fs.appendFileSync(file, line({ type: 'worker_idle', reason: 'next one' }));
    tail.refresh();
    expect(tail.events.at(-1)?.text).toBe('next one');
  });

  it('a runaway line arriving in small appends is dropped once too long, the rest of it too', () => {
    const file = path.join(dir, 'events.jsonl');
    const tail = new EventsTail(p.root, rel);
    tail.refresh();
    for (let i = 0; i < 12; i++) {
      fs.appendFileSync(file, 'y'.repeat(8 * 1024));
      tail.refresh();
    }
    expect(tail.problem).toMatch(/longer than 64 KB without a newline was skipped/);
    const problem = tail.problem;
    // The rest of the runaway line is not taken for an event (nor for a second bad line).
    fs.appendFileSync(file, 'y'.repeat(100) + '\n' + line({ type: 'worker_idle', reason: 'after the runaway' }));
    tail.refresh();
    expect(tail.problem).toBe(problem);
    expect(tail.events.at(-1)?.text).toBe('after the runaway');
  });

  it('a log that stops being a file and comes back: the reason shows, then the events, none twice', () => {
    const file = path.join(dir, 'events.jsonl');
    const tail = new EventsTail(p.root, rel);
    tail.refresh();
    const events = tail.events.map((e) => e.text);
    const text = fs.readFileSync(file);
    fs.rmSync(file);
    fs.mkdirSync(file);
    expect(tail.refresh()).toBe(true);
    expect(tail.problem).toBe('is not a regular file');
    expect(tail.events.map((e) => e.text)).toEqual(events);
    fs.rmdirSync(file);
    fs.writeFileSync(file, text);
    tail.refresh();
    expect(tail.problem).toBeNull();
    expect(tail.events.map((e) => e.text)).toEqual(events);
  });

  it('skips a runaway line with no newline instead of buffering it forever', () => {
    const file = path.join(dir, 'events.jsonl');
    const tail = new EventsTail(p.root, rel);
    tail.refresh();
    fs.appendFileSync(file, 'x'.repeat(70 * 1024));
    tail.refresh();
    expect(tail.problem).toMatch(/longer than 64 KB without a newline was skipped/);
    fs.appendFileSync(file, '\n' + line({ type: 'worker_idle' }));
    tail.refresh();
    expect(tail.events.at(-1)?.type).toBe('worker_idle');
  });
});
