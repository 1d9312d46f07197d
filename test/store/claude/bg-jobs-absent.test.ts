/**
 * Claude Code's `jobs/` directory is made by the first `claude --bg` job; most machines never have one. The reader
 * used to list the missing directory every 10 s all day. Now the config directory is watched for its creation:
 * nothing is listed at rest, a `jobs/` made later is read by its event, and one made between the first listing and
 * that watch is not missed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BgJobsReader, type WatchDir } from '../../../src/store/claude/bg-jobs-reader.js';
import { waitFor } from '../../helpers/fixtures.js';

let tmp: string;
let config: string;
let reader: BgJobsReader | null = null;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-bg-absent-'));
  config = path.join(tmp, 'claude-config');
  fs.mkdirSync(config);
});

afterEach(() => {
  reader?.dispose();
  reader = null;
  vi.useRealTimers();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A whole `jobs/` with one job, moved into place at once (as if Claude made it between two looks). */
function makeJobsDir(prompt: string): void {
  const staged = path.join(tmp, 'staged-jobs');
  fs.mkdirSync(path.join(staged, 'job1'), { recursive: true });
  fs.writeFileSync(
    path.join(staged, 'job1', 'state.json'),
    JSON.stringify({ state: 'working', intent: prompt, cwd: tmp, updatedAt: new Date().toISOString() }),
  );
  fs.renameSync(staged, path.join(config, 'jobs'));
}

const prompts = (r: BgJobsReader) => [...r.files.values()].map((f) => f.value?.prompt ?? null);

describe('no jobs/ directory', () => {
  it('is not listed again at rest', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    reader = new BgJobsReader({ config: { dir: config, rule: 'CLAUDE_CONFIG_DIR' } });
    let reads = 0;
    reader.onChange(() => reads++);
    reader.read(null);
    expect(reads).toBe(1);
    vi.advanceTimersByTime(5 * 60_000);
    expect(reads).toBe(1);
  });

  it('is read when Claude makes it, by the event', async () => {
    // The old 10 s re-listing is held still: only the event can bring the job in.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    reader = new BgJobsReader({ config: { dir: config, rule: 'CLAUDE_CONFIG_DIR' } });
    reader.read(null);
    expect(reader.files.size).toBe(0);
    makeJobsDir('made later');
    const r = reader;
    await waitFor(() => prompts(r).includes('made later'), { what: 'the job in jobs/ made after the start' });
    // And jobs/ is now watched itself: a second job is an event of its own.
    const job2 = path.join(config, 'jobs', 'job2');
    fs.mkdirSync(job2);
    fs.writeFileSync(path.join(job2, 'state.json'), JSON.stringify({ state: 'done', intent: 'second', cwd: tmp }));
    await waitFor(() => prompts(r).includes('second'), { what: 'a second job' });
  });

  it('made after the first listing but before the watch is set, is still read', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const asked: string[] = [];
    const watch: WatchDir = (dir, on) => {
      asked.push(dir);
      // Claude makes jobs/ just before the config directory's watch is up: that watch never names it.
      if (dir === config && !fs.existsSync(path.join(config, 'jobs'))) makeJobsDir('raced the watch');
      return fs.watch(dir, { persistent: false }, (_t, name) => on(typeof name === 'string' ? name : null));
    };
    reader = new BgJobsReader({ config: { dir: config, rule: 'CLAUDE_CONFIG_DIR' }, watch });
    reader.read(null);
    expect(asked).toContain(config);
    expect(prompts(reader)).toEqual(['raced the watch']);
    // jobs/ and its job are watched from then on.
    expect(asked).toEqual(expect.arrayContaining([path.join(config, 'jobs'), path.join(config, 'jobs', 'job1')]));
  });
});

describe('no config directory at all', () => {
  it('is looked for again now and then, and read once it is there', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const missing = path.join(tmp, 'no-such-config');
    reader = new BgJobsReader({ config: { dir: missing, rule: 'CLAUDE_CONFIG_DIR' } });
    reader.read(null);
    fs.mkdirSync(missing);
    config = missing;
    makeJobsDir('config made later');
    vi.advanceTimersByTime(10_000);
    expect(prompts(reader)).toEqual(['config made later']);
  });
});

describe('the config directory watch fails (the directory went away under it)', () => {
  it('falls back to looking now and then, and reads a jobs/ made later', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const failing: Array<(e: Error) => void> = [];
    const watch: WatchDir = (dir, on) => {
      const w = fs.watch(dir, { persistent: false }, (_t, name) => on(typeof name === 'string' ? name : null));
      if (dir === config) {
        // Hands the test the watch's error event; a real watch's events are not driven by hand.
        const real = w;
        return {
          close: () => real.close(),
          on(event: string, l: (e: Error) => void) {
            if (event === 'error') failing.push(l);
            return this;
          },
        } as unknown as ReturnType<WatchDir>;
      }
      return w;
    };
    reader = new BgJobsReader({ config: { dir: config, rule: 'CLAUDE_CONFIG_DIR' }, watch });
    reader.read(null);
    expect(failing).toHaveLength(1);
    failing[0]!(new Error('EPERM'));
    makeJobsDir('after the watch failed');
    expect(prompts(reader)).toEqual([]);
    vi.advanceTimersByTime(10_000);
    expect(prompts(reader)).toEqual(['after the watch failed']);
  });
});
