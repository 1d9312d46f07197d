// The samples file is built from each unchanged run's cached text: whatever the sequence of records, what lands on
// disk is byte for byte what one JSON.stringify of every run would write.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { IterationSamples, MAX_RUNS } from '../../src/store/runs/samples.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const recordArb = fc.record({
  mode: fc.constantFrom('ralph', 'ultrawork', 'autopilot'),
  sid: fc.option(fc.integer({ min: 0, max: MAX_RUNS + 20 }).map((n) => `s${n}`)),
  started: fc.option(fc.integer({ min: 0, max: 3 })),
  iteration: fc.integer({ min: -1, max: 120 }),
  flush: fc.boolean(),
});

describe('iteration samples on disk', () => {
  it('equal one JSON.stringify of every run after any sequence of records and flushes', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 400 }), (ops) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-samples-text-'));
        dirs.push(dir);
        const s = new IterationSamples(dir, '/proj/.omc');
        let at = 0;
        for (const op of ops) {
          s.record(op.mode, op.sid, op.started, op.iteration, ++at);
          if (op.flush) s.flush();
        }
        s.record('ralph', 'last', null, 1, ++at); // something to write
        s.flush();
        const text = fs.readFileSync(path.join(dir, s.file), 'utf8');
        expect(text).toBe(JSON.stringify({ version: 1, runs: s.all() }));
        const reloaded = new IterationSamples(dir, '/proj/.omc');
        expect(reloaded.all()).toEqual(s.all());
      }),
      { numRuns: 60 },
    );
  });
});
