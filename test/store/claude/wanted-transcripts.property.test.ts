// Which transcripts the Claude domain follows: every registered session's, then OMC sessions' in row order up to
// MAX_TRANSCRIPTS. After an OMC state change the domain applies the sessions snapshot's delta instead of judging
// the first MAX_TRANSCRIPTS rows again. Over random sequences of changes — rows re-ranked across the cap, added,
// removed, their working directory changed or lost, snapshots with and without a delta, a missed snapshot — the
// transcripts followed must be exactly those a fresh judgement of the same rows names, and the directories kept
// for their watches exactly those transcripts' directories.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaudeDomain, MAX_TRANSCRIPTS } from '../../../src/store/claude/domain.js';
import { compareSessions } from '../../../src/store/sessions/derive.js';
import type { SessionView, SessionsDelta, SessionsSnapshot } from '../../../src/store/sessions/model.js';
import type { SessionsDomain } from '../../../src/store/sessions/domain.js';

const cfg = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-wanted-'));
afterAll(() => fs.rmSync(cfg, { recursive: true, force: true }));

const id = (i: number) => `bbbbbbbb-1111-4222-8333-${String(i).padStart(12, '0')}`;
const view = (i: number, rank: number, cwd: string | null): SessionView =>
  ({ id: id(i), kind: 'session', rank, startedMs: 1000 + i, cwd, modes: [], problems: [] }) as unknown as SessionView;
const legacy = { id: 'legacy', kind: 'legacy', rank: 3, startedMs: null, cwd: null } as unknown as SessionView;

/** A stand-in for the sessions domain: the snapshot the test publishes, and its subscribers. */
class Rows {
  snap: SessionsSnapshot = { version: 0, sessions: [], problems: [], derivedAt: 0 };
  listeners = new Set<() => void>();
  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
  getSnapshot = () => this.snap;
  /** The Claude domain hands the sessions domain its Stop-hook facts; nothing here judges with them. */
  setStopFacts(): void {}
  publish(views: SessionView[], how: 'with' | 'none' | 'missed'): void {
    const before = this.snap.sessions;
    const sessions = [...views].sort(compareSessions);
    const from = how === 'missed' ? this.snap.version + 1 : this.snap.version;
    const ids = new Set(sessions.map((v) => v.id));
    const delta: SessionsDelta = {
      from,
      changed: sessions.filter((v) => !before.includes(v)),
      removed: before.filter((v) => !ids.has(v.id)),
    };
    this.snap = { version: from + 1, sessions, problems: [], derivedAt: 0, ...(how === 'none' ? {} : { delta }) };
    for (const l of this.listeners) l();
  }
}

type Step =
  | { op: 'rank'; i: number; rank: number }
  | { op: 'cwd'; i: number; cwd: string | null }
  | { op: 'add'; i: number; rank: number }
  | { op: 'drop'; i: number }
  | { op: 'legacy' };

const BASE = MAX_TRANSCRIPTS + 8;
const indexArb = fc.integer({ min: 0, max: BASE + 8 });
const stepArb: fc.Arbitrary<{ step: Step; how: 'with' | 'none' | 'missed' }> = fc.record({
  step: fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({ op: fc.constant('rank' as const), i: indexArb, rank: fc.integer({ min: 0, max: 5 }) }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('cwd' as const),
        i: indexArb,
        cwd: fc.constantFrom('/p', '/q', 'rel', null),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constant('add' as const), i: indexArb, rank: fc.integer({ min: 0, max: 5 }) }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('drop' as const), i: indexArb }) },
    { weight: 1, arbitrary: fc.constant({ op: 'legacy' as const }) },
  ),
  how: fc.constantFrom('with' as const, 'with' as const, 'with' as const, 'none' as const, 'missed' as const),
});

/** What the domain follows now, as id → transcript path. */
const followed = (d: ClaudeDomain) =>
  new Map([...(d as unknown as { readers: Map<string, { rel: string }> }).readers].map(([k, r]) => [k, r.rel]));

/** The domain's transcript directories (each with its sessions), as directory → sorted ids. */
const watchedDirs = (d: ClaudeDomain) =>
  new Map(
    [...(d as unknown as { readerDirs: Map<string, Set<string>> }).readerDirs].map(([k, ids]) => [k, [...ids].sort()]),
  );
/** The same worked out from scratch from the transcripts wanted. */
const dirsOf = (want: Map<string, string>) => {
  const out = new Map<string, string[]>();
  for (const [sid, rel] of want) {
    const d = path.posix.dirname(rel);
    out.set(d, [...(out.get(d) ?? []), sid]);
  }
  for (const ids of out.values()) ids.sort();
  return out;
};

describe('the transcripts followed after a sessions delta == a fresh judgement', () => {
  it('over random change sequences across the cap', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 30 }), (steps) => {
        const rows = new Rows();
        const views = new Map<number, SessionView>();
        for (let i = 0; i < BASE; i++) views.set(i, view(i, i % 3 === 0 ? 2 : 4, '/p'));
        rows.publish([...views.values()], 'with');
        const opts = { config: { dir: cfg, rule: 'CLAUDE_CONFIG_DIR' as const }, projectDir: '/p' };
        const live = new ClaudeDomain({ ...opts, sessions: rows as unknown as SessionsDomain, live: true });
        (live as unknown as { syncTranscripts(): void }).syncTranscripts();
        try {
          for (const { step, how } of steps) {
            const old = 'i' in step ? views.get(step.i) : undefined;
            if (step.op === 'rank' && old) views.set(step.i, { ...old, rank: step.rank });
            if (step.op === 'cwd' && old) views.set(step.i, { ...old, cwd: step.cwd });
            if (step.op === 'add' && !old) views.set(step.i, view(step.i, step.rank, '/p'));
            if (step.op === 'drop') views.delete(step.i);
            const list = [...views.values()];
            if (step.op === 'legacy') list.push({ ...legacy });
            rows.publish(list, how);
            const fresh = new ClaudeDomain({ ...opts, sessions: rows as unknown as SessionsDomain, live: false });
            const want = (fresh as unknown as { wantedTranscripts(): Map<string, string> }).wantedTranscripts();
            expect(followed(live)).toEqual(want);
            // The directories watched for them, kept as readers come and go: those of the readers followed now.
            expect(watchedDirs(live)).toEqual(dirsOf(want));
          }
        } finally {
          live.dispose();
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000); // 60 runs of up to 30 steps: ~30 s on a loaded 2-core machine
});
