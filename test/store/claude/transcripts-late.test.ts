/**
 * A big transcript is read mostly after the monitor is live (issue 26: 200 sessions of 10 MB are 2 GB, and every
 * slice read before live delayed it): before live the transcripts get BEFORE_LIVE_BYTES in all, then the rest
 * arrives. A small project's transcripts are still all read by live. The store is started as the app starts it
 * (progressive, watching); what it shows is taken at the moment the status first reads live.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BEFORE_LIVE_BYTES, SLICE_BYTES } from '../../../src/store/claude/domain.js';
import { OmcStore } from '../../../src/store/store.js';
import { makeProject, type TempProject, waitFor, writeLiveRalph } from '../../helpers/fixtures.js';
import { takeAtLive } from '../../helpers/at-live.js';
import { sessionFiles } from './ralph-session.js';
import { assistant, bigShape, prompt } from './lines.js';

const SID = 'a7d3c1e2-5b4f-4e8a-9c61-2f0d8e7b6a55';
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

/** Starts the store as the app does; resolves with the session's input tokens when the status first reads live. */
async function inputAtLive(): Promise<{ input: number | null; status: unknown }> {
  store = new OmcStore({
    root: p.root,
    projectDir: p.dir,
    claude: { live: true, env: { CLAUDE_CONFIG_DIR: cfg, HOME: p.dir } },
  });
  const s = store;
  return takeAtLive(s, () => ({
    input: s.claude.getSnapshot().bySession.get(SID)?.transcript?.facts.tokens.input ?? null,
    status: s.status.getSnapshot(),
  }));
}

describe('transcripts after live', () => {
  it('a transcript bigger than what is read before live: its start by live, its end after', async () => {
    // Before this, the catch-up slices ran while .omc was read (13 domains: as many turns at least), so the
    // whole file (four slices past the limit) was read by live. The status is seen a turn after it is set (its
    // cell notifies once per turn), when one slice after live may have been read.
    writeParent(BEFORE_LIVE_BYTES + 4 * SLICE_BYTES);
    const live = await inputAtLive();
    expect(live.input, JSON.stringify(live.status)).toBe(101);
    await waitFor(() => store?.claude.getSnapshot().bySession.get(SID)?.transcript?.facts.tokens.input === 203, {
      what: 'the rest of the transcript read after live',
      timeoutMs: 60_000,
    });
  });

  it('a small project: its transcripts are all read by live, as before', async () => {
    writeParent(SLICE_BYTES + SLICE_BYTES / 2);
    const live = await inputAtLive();
    expect(live.input, JSON.stringify(live.status)).toBe(203);
  });
});
