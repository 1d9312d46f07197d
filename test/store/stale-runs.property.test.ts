// The stale-run facts follow the sessions domain's change log (src/store/omc56/stale-runs.ts) instead of
// judging every mode file on every change. Over random sequences of writes, same-bytes rewrites (a new
// mtime), removals, clock jumps across OMC's threshold, a changed OMC_STALE_RUN_HOURS, a log that no
// longer reaches back, and scans, the tracker must say exactly what the full judgement says.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envStaleThreshold, staleRunsFrom, type ParsedStateFile } from '../../src/store/omc56/next-session.js';
import { StaleRunTracker } from '../../src/store/omc56/stale-runs.js';

const H = 3_600_000;
const RELS = [
  'state/ralph-state.json',
  'state/autopilot-state.json',
  ...['s-a', 's-b', 's-c'].flatMap((sid) =>
    ['ralph', 'autopilot', 'team', 'ultragoal', 'ultrawork'].map((m) => `state/sessions/${sid}/${m}-state.json`),
  ),
];

type Op =
  | { op: 'write'; rel: string; active: boolean }
  | { op: 'touch'; rel: string }
  | { op: 'drop'; rel: string }
  | { op: 'clock'; ms: number }
  | { op: 'hours'; hours: string | undefined }
  | { op: 'lost' }
  | { op: 'scan' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({ rel: fc.constantFrom(...RELS), active: fc.boolean() })
      .map((r) => ({ op: 'write', ...r }) as Op),
  },
  { weight: 2, arbitrary: fc.constantFrom(...RELS).map((rel) => ({ op: 'touch', rel }) as Op) },
  { weight: 1, arbitrary: fc.constantFrom(...RELS).map((rel) => ({ op: 'drop', rel }) as Op) },
  {
    weight: 4,
    arbitrary: fc
      // Minutes too: a stale run's age is said in tenths of an hour, which move every 6 minutes.
      .constantFrom(1, 60_000, 30 * 60_000, H, 2 * H - 1, 2 * H, 2 * H + 1, 3 * H, 6 * 60_000, 3 * 60_000, 179_999)
      .map((ms) => ({ op: 'clock', ms }) as Op),
  },
  { weight: 1, arbitrary: fc.constantFrom(undefined, '1', '3', '0.5').map((hours) => ({ op: 'hours', hours }) as Op) },
  { weight: 1, arbitrary: fc.constant({ op: 'lost' } as Op) },
  { weight: 1, arbitrary: fc.constant({ op: 'scan' } as Op) },
);

describe('incremental stale-run facts == the full judgement', () => {
  it('over random change sequences', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 50 }), (ops) => {
        let now = Date.parse('2026-06-01T12:00:00.000Z');
        const files = new Map<string, ParsedStateFile>();
        let log: string[] = [];
        let logStart = 0;
        const env: NodeJS.ProcessEnv = {};
        const src = {
          watchdogFiles: (file: string) => [...files.values()].filter((f) => f.rel.endsWith(`/${file}`)),
          watchdogFile: (rel: string) => files.get(rel) ?? null,
          parsedChangesSince: (seq: number) => ({
            seq: logStart + log.length,
            rels: seq < logStart ? null : log.slice(seq - logStart),
          }),
        };
        const tracker = new StaleRunTracker(src);
        for (const o of ops) {
          let full = false;
          if (o.op === 'write') files.set(o.rel, { rel: o.rel, value: { active: o.active }, mtimeMs: now });
          if (o.op === 'touch' && files.has(o.rel)) files.set(o.rel, { ...files.get(o.rel)!, mtimeMs: now });
          if (o.op === 'drop') files.delete(o.rel);
          if (o.op === 'write' || o.op === 'touch' || o.op === 'drop') log.push(o.rel);
          if (o.op === 'clock') now += o.ms;
          if (o.op === 'hours') env.OMC_STALE_RUN_HOURS = o.hours;
          if (o.op === 'lost') {
            logStart += log.length + 1;
            log = [];
          }
          if (o.op === 'scan') full = true;
          expect(tracker.update(now, envStaleThreshold(env), full)).toEqual(
            staleRunsFrom(src.watchdogFiles, now, envStaleThreshold(env)),
          );
        }
      }),
      { numRuns: 400 },
    );
  });
});
