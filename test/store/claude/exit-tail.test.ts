/**
 * `status` (no monitor running) reads only a transcript's last 64 KiB for the exit figures; what it finds there
 * must be what the monitor's whole read finds. Both go through the one transcript reader, so they agree on the
 * lines either could disagree on: a real transcript over 64 KiB, a resume after the exit, a line still being
 * written, and a line whose head names a type the reader skips.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../../helpers/it.js';
import { exitInTail } from '../../../src/store/claude/exit-tail.js';
import { TranscriptReader } from '../../../src/store/claude/transcript-reader.js';
import { prompt } from './lines.js';

const SID = 'bae69004-73d9-4ad0-af00-a594702f733d';
const rel = `projects/-p/${SID}.jsonl`;
const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'fixtures', 'claude');
const REAL = fs.readFileSync(path.join(FIXTURES, 'busy-ralph-cancel-then-exit.jsonl'), 'utf8').trim().split('\n');

/** Writes the transcript as `text` exactly (newlines included) and returns both readings of its exit. */
function bothReadings(cfg: string, text: string) {
  const file = path.join(cfg, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const whole = new TranscriptReader(cfg, rel);
  whole.refresh();
  return { status: exitInTail(cfg, rel), monitor: whole.state().facts.exit };
}

const lines = (ls: readonly string[]) => ls.join('\n') + '\n';

describe('the exit figures in a transcript tail', () => {
  it('a real transcript over 64 KiB that ends with its exit: the same figures as the whole read', ({ tempDir }) => {
    const r = bothReadings(tempDir(), lines([...REAL, ...REAL, ...REAL, ...REAL]));
    expect(r.status).not.toBeNull();
    expect(r.status?.endMs).toBe((r.status?.startMs ?? 0) + (r.status?.durationMs ?? 0));
    expect(r.status).toEqual(r.monitor);
  });

  it('resumed after the exit (a conversation line after the figures): no exit for either', ({ tempDir }) => {
    const r = bothReadings(tempDir(), lines([...REAL, prompt(SID, '2026-12-01T23:30:00Z', 'again')]));
    expect(r.status).toBeNull();
    expect(r.monitor).toBeNull();
  });

  it('a conversation line still being written (no newline yet) after the exit: both still see the exit', ({
    tempDir,
  }) => {
    const r = bothReadings(tempDir(), lines(REAL) + prompt(SID, '2026-12-01T23:30:00Z', 'again'));
    expect(r.status).not.toBeNull();
    expect(r.status).toEqual(r.monitor);
  });

  it('a line whose head names a skipped type after the exit: read alike (skipped by both)', ({ tempDir }) => {
    const skippedHead = JSON.stringify({ type: 'attachment', attachment: { type: 'skill_listing' }, sessionId: SID });
    const r = bothReadings(tempDir(), lines([...REAL, skippedHead]));
    expect(r.status).toEqual(r.monitor);
  });
});
