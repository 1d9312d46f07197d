/**
 * The store tells its ReadBursts (terminal/young-gen.ts's policy in the app) when its burst of reading runs: the
 * progressive start-up read of .omc, ended exactly once, when .omc is read (or the store closes). The
 * transcripts' catch-up after live is not a burst (store/types.ts says why): no burst is open while it runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BEFORE_LIVE_BYTES, SLICE_BYTES } from '../../../src/store/claude/domain.js';
import { OmcStore } from '../../../src/store/store.js';
import type { ReadBursts } from '../../../src/store/types.js';
import { makeProject, type TempProject, waitFor, writeLiveRalph } from '../../helpers/fixtures.js';
import { sessionFiles } from './ralph-session.js';
import { assistant, bigShape, prompt } from './lines.js';

const SID = 'c1f2e3d4-5b6a-4e8a-9c61-2f0d8e7b6a77';
let p: TempProject;
let cfg: string;
let store: OmcStore | null = null;

beforeEach(() => {
  p = makeProject();
  cfg = path.join(p.dir, 'claude-config');
  writeLiveRalph(p, { sessionId: SID, iteration: 1, projectPath: p.dir, prompt: 'ralph: delegate' });
});
afterEach(async () => {
  await store?.close();
  store = null;
  p.cleanup();
});

/** The parent: a response (input 101), `padBytes` of lines nothing is taken from, a response (input 102). */
function writeParent(padBytes: number) {
  const file = sessionFiles(cfg, p.dir, SID).parent;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const padKb = 512;
  const lines = [
    prompt(SID, '2026-12-01T22:51:00Z', 'ralph: go'),
    ...assistant(SID, '2026-12-01T22:51:01Z', 'msg_first', 1, [{ type: 'text', text: 'first' }]),
    ...Array.from({ length: Math.ceil(padBytes / (padKb * 1024)) }, () => bigShape(padKb)),
    ...assistant(SID, '2026-12-01T22:59:01Z', 'msg_last', 2, [{ type: 'text', text: 'last' }]),
  ];
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

interface Burst {
  /** What the store had read when the burst started and when it ended. */
  began: Reading;
  ended: Reading | null;
  endCalls: number;
}
interface Reading {
  reading: string | null;
  live: boolean;
  input: number | null;
}

/** A recorder in place of the young-generation policy: each burst with what was read at its start and end. */
function recorder(read: () => Reading): ReadBursts & { bursts: Burst[]; open: () => number } {
  const bursts: Burst[] = [];
  return {
    bursts,
    open: () => bursts.filter((b) => b.ended === null).length,
    roomy() {
      const b: Burst = { began: read(), ended: null, endCalls: 0 };
      bursts.push(b);
      return () => {
        b.endCalls++;
        b.ended ??= read();
      };
    },
  };
}

function startStore(): ReturnType<typeof recorder> {
  const reading = (): Reading => {
    const st = s.status.getSnapshot();
    return {
      reading: st.reading ?? null,
      live: !st.reading && st.watchMode !== 'starting',
      input: s.claude.getSnapshot().bySession.get(SID)?.transcript?.facts.tokens.input ?? null,
    };
  };
  const rec = recorder(() => reading());
  const s = new OmcStore({
    root: p.root,
    projectDir: p.dir,
    claude: { live: true, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
    readBursts: rec,
  });
  store = s;
  s.start({ progressive: true });
  return rec;
}

describe('read bursts', () => {
  it('the start-up read is one burst, ended when .omc is read; the catch-up after live runs outside it', async () => {
    writeParent(BEFORE_LIVE_BYTES + 4 * SLICE_BYTES);
    const rec = startStore();
    await waitFor(() => rec.open() === 0 && rec.bursts.length === 1, { what: 'the start-up burst over' });
    const [startUp] = rec.bursts as [Burst];
    // Started before anything was read, ended once .omc was read (the status no longer says reading), with the
    // transcript read only as far as before live.
    expect(startUp.began.input).toBeNull();
    expect(startUp.ended?.reading).toBeNull();
    expect(startUp.ended?.input).toBe(101);
    await waitFor(() => store?.claude.getSnapshot().bySession.get(SID)?.transcript?.facts.tokens.input === 203, {
      what: 'the rest of the transcript read after live',
      timeoutMs: 60_000,
    });
    expect(rec.bursts.length).toBe(1);
    await store?.close();
    expect(rec.bursts.map((b) => b.endCalls)).toEqual([1]);
  });

  it('a transcript read whole before live: the burst ends once, closing the store ends nothing twice', async () => {
    writeParent(SLICE_BYTES / 2);
    const rec = startStore();
    await waitFor(() => rec.bursts.length >= 1 && rec.open() === 0 && rec.bursts[0]?.ended?.reading === null, {
      what: 'the start-up burst over',
    });
    await waitFor(() => store?.claude.getSnapshot().bySession.get(SID)?.transcript?.facts.tokens.input === 203, {
      what: 'the transcript read',
    });
    await waitFor(() => rec.open() === 0, { what: 'every burst over' });
    await store?.close();
    expect(rec.bursts.map((b) => b.endCalls)).toEqual(rec.bursts.map(() => 1));
  });

  it('a store closed while its start-up read runs ends that burst', async () => {
    writeParent(SLICE_BYTES / 2);
    const rec = startStore();
    expect(rec.open()).toBe(1);
    await store?.close();
    expect(rec.open()).toBe(0);
  });
});
