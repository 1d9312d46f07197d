/**
 * Claude Code's own loops from its transcript lines (issue 26): the lines are the real CLI's
 * (test/fixtures/claude-2.1.332, /goal and /loop runs of 2.1.332), folded by the transcript reader.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nextCronMs } from '../../../src/store/claude/cron.js';
import { liveJobs, nextRunMs } from '../../../src/store/claude/native-loops.js';
import { TranscriptReader } from '../../../src/store/claude/transcript-reader.js';

const FIX = path.resolve(__dirname, '../../fixtures/claude-2.1.332');
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-native-'));
  fs.mkdirSync(path.join(dir, 'projects', '-p'), { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const read = (files: string[], extra: string[] = []) => {
  const text = files.map((f) => fs.readFileSync(path.join(FIX, f), 'utf8').trimEnd()).join('\n');
  fs.writeFileSync(path.join(dir, 'projects', '-p', 's.jsonl'), [text, ...extra].join('\n') + '\n');
  const r = new TranscriptReader(dir, 'projects/-p/s.jsonl');
  r.refresh();
  return r.state().facts.native;
};

const lines = (f: string) => fs.readFileSync(path.join(FIX, f), 'utf8').trimEnd().split('\n');

describe('/goal', () => {
  it("set, nine unmet checks, paused by the block cap, then met with the CLI's own summary", () => {
    const all = lines('q5-goal-transcript-lines.jsonl');
    const at = (pred: (o: any) => boolean) => all.findIndex((l) => pred(JSON.parse(l)));
    const paused = at((o) => o.subtype === 'informational' && String(o.content).startsWith('Goal paused'));
    fs.writeFileSync(path.join(dir, 'projects', '-p', 's.jsonl'), all.slice(0, paused + 1).join('\n') + '\n');
    const r = new TranscriptReader(dir, 'projects/-p/s.jsonl');
    r.refresh();
    expect(r.state().facts.native.goal).toMatchObject({
      condition: 'the file goal.txt exists [[goalno]]',
      state: 'active',
      checks: 9,
      paused: true,
      reason: 'mock says the goal is not met yet',
    });
    fs.appendFileSync(path.join(dir, 'projects', '-p', 's.jsonl'), all.slice(paused + 1).join('\n') + '\n');
    r.refresh();
    expect(r.state().facts.native.goal).toMatchObject({
      state: 'met',
      paused: false,
      reason: 'mock says the goal is met',
      summary: { iterations: 10, durationMs: 27885, tokens: 410 },
    });
  });

  it('a sentinel with met:true (the CLI restating an earlier goal as no longer set) clears it', () => {
    const set = lines('q5-goal-transcript-lines.jsonl')[0] as string;
    const cleared = set.replace('"met":false', '"met":true');
    expect(read([], [set])?.goal?.state).toBe('active');
    expect(read([], [set, cleared])?.goal?.state).toBe('cleared');
  });
});

describe('/loop', () => {
  it('CronCreate: the job, its schedule and next run; a fire moves "next" to the cron\'s next minute plus the job\'s delay', () => {
    const n = read(['q5-loop-CronCreate-tool_result-line.jsonl']);
    const job = n.jobs[0]!;
    expect(job).toMatchObject({ id: '579da6d3', kind: 'cron', human: 'Every minute', recurring: true, fires: 0 });
    const created = Date.parse('2026-12-01T22:56:36.269Z');
    expect(nextRunMs(job, created)).toBe(1796165830267.4797);
    // After that time, a recurring job's next run is its cron's next minute plus the same delay the CLI added
    // to the first (10.27 s here, from the job id): one minute after the announced run.
    expect(nextRunMs({ ...job, cron: '*/1 * * * *' }, 1796165830267.4797 + 1)).toBeCloseTo(
      1796165830267.4797 + 60_000,
      3,
    );
    expect(job.expiresMs).toBe(created + 2592000000);
  });

  it('a cron fire of a job made before the transcript part read is known from its fire line', () => {
    const n = read(['q5-loop-cron-fire-lines.jsonl']);
    expect(n.jobs).toEqual([
      expect.objectContaining({ id: '2ab20d1a', cron: '*/1 * * * *', prompt: 'tick-from-cron', fires: 1 }),
    ]);
    const fired = Date.parse('2026-12-01T22:57:05.642Z');
    expect(n.jobs[0]!.lastFireMs).toBe(fired);
    // The CLI fired it 5.6 s after the minute (its delay for this id is 5.0 s): the next run is a minute on.
    const next = nextRunMs(n.jobs[0]!, fired)!;
    expect(next).toBeCloseTo(Date.parse('2026-12-01T22:58:05.005Z'), -1);
    expect(next - Date.parse('2026-12-01T22:58:00Z')).toBeCloseTo((0x2ab20d1a / 2 ** 32) * 30_000, 3);
  });

  it('ScheduleWakeup: the next wakeup, then fired (not re-armed yet)', () => {
    const armed = read(['q5-loop-ScheduleWakeup-tool_use-line.jsonl', 'q5-loop-ScheduleWakeup-tool_result-line.jsonl']);
    expect(armed.jobs).toEqual([
      expect.objectContaining({
        id: 'wakeup',
        kind: 'wakeup',
        prompt: '/loop check it again',
        announcedNextMs: 1796165880000,
      }),
    ]);
    expect(liveJobs(armed, 1796165870000)).toHaveLength(1);
    const fired = read([
      'q5-loop-ScheduleWakeup-tool_use-line.jsonl',
      'q5-loop-ScheduleWakeup-tool_result-line.jsonl',
      'q5-loop-wakeup-fire-line.jsonl',
    ]);
    expect(fired.jobs[0]).toMatchObject({ fires: 1, announcedNextMs: null });
    expect(liveJobs(fired, 1796165890000)).toEqual([]);
  });

  it("cron's next minute: steps, ranges, lists and both day fields", () => {
    const t = new Date(2026, 11, 1, 22, 57, 30).getTime();
    expect(new Date(nextCronMs('*/1 * * * *', t)!).getMinutes()).toBe(58);
    expect(new Date(nextCronMs('58 22 * * *', t)!).getHours()).toBe(22);
    expect(new Date(nextCronMs('0 9-17/4 * * 1-5', t)!).getHours()).toBe(9);
    expect(nextCronMs('61 * * * *', t)).toBeNull();
    expect(nextCronMs('not a cron', t)).toBeNull();
  });
});
