/**
 * Driven sequences against the live hooks of OMC 5.5.0 and 4.4.4 (test/omc-packages): a prompt through
 * the keyword detector, the skill's hooks, N Stop calls, cancels from omc-top and from OMC's own
 * state tools (state_clear, the cancel skill's flow), legacy and session signals, two sessions at once
 * (test/interop/omc-runs/sequence-defs.ts). Before every Stop, omc-top's verdict on the tree as it
 * is then must be the hook's decision and blocking mode, and the modes `--json` says are active must be those OMC's own
 * reader (state_list_active, asked just before) lists. (4.15.10's answers to the same sequences are
 * committed fixtures: verdict-415.test.ts.)
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopVerdict } from '../../src/store/verdict/index.js';
import { diskTree } from '../../src/store/verdict/disk-tree.js';
import { OmcRunner, type OmcVersion } from './omc-runs/omc.js';
import { buildSequences } from './omc-runs/sequence-defs.js';
import { runSequence } from './omc-runs/sequences.js';
import { OmcStore } from '../../src/store/store.js';
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { buildJsonReport } from '../../src/feeds/json-report.js';
import { scaled } from '../helpers/time-scale.js';

/** The modes `--json` says are active (OMC's registry rule) for one session of the tree as it is at `now`. */
function jsonActive(c: { cwd: string; home: string; now: number; sessionId: string }, version: OmcVersion): string[] {
  const root = path.join(c.cwd, '.omc');
  const store = new OmcStore({
    root,
    watch: 'none',
    clock: () => c.now,
    projectDir: c.cwd,
    home: c.home,
    omc: makeOmcInstall(version as '5.5.0' | '4.4.4', 'test'),
  });
  store.start();
  const doc = buildJsonReport({ root, rootRule: 'test', notices: [], sessions: store.sessions.getSnapshot() }) as {
    sessions: Array<{ id: string; modes: Array<{ mode: string; active: boolean }> }>;
  };
  void store.close();
  const row = doc.sessions.find((s) => s.id === c.sessionId);
  return (row?.modes ?? [])
    .filter((m) => m.active)
    .map((m) => m.mode)
    .sort();
}

/** The modes OMC's own reader (the state_list_active tool) lists: its `- **mode**` lines. */
const listedActive = (text: string) => [...text.matchAll(/^- \*\*([^*]+)\*\*$/gm)].map((m) => m[1] as string).sort();

const runner = new OmcRunner();
afterAll(() => runner.close());

const SEQUENCES = buildSequences();
/**
 * One sequence: a few Stops through the live hook, about a second on a quiet machine; the first of each version also
 * starts that version's hook process. Each is its own test, so one slow one under load fails alone and says which.
 */
const SEQUENCE_TIMEOUT_MS = scaled(120_000);

type Said = { decision: string; mode: string | null; rule: string; active: string[] };

describe.each(['5.5.0', '4.4.4'] as OmcVersion[])('driven sequences vs OMC %s (live hooks)', (version) => {
  // Summed over this version's sequences, for the coverage the last test asks of them all.
  const totals = { sequences: 0, stops: 0, listings: 0 };

  it.for(SEQUENCES.map((seq) => [seq.name, seq] as const))(
    "%s: omc-top's verdict is the hook's, and its active modes what OMC's reader lists, at every Stop",
    { timeout: SEQUENCE_TIMEOUT_MS },
    async ([, seq]) => {
      const said: Said[] = [];
      const records = await runSequence(version, seq, runner, {
        beforeStop: (c) => {
          const v = stopVerdict(diskTree(path.join(c.cwd, '.omc'), { home: c.home }), {
            rules: version as '5.5.0' | '4.4.4',
            sessionId: c.sessionId,
            cwd: c.cwd,
            now: c.now,
            stop: { payload: c.payload, transcriptPercent: c.transcriptPercent ?? 0 },
          });
          said.push({
            decision: v.decision,
            mode: v.decision === 'block' ? v.mode : null,
            rule: v.rule,
            active: jsonActive(c, version),
          });
        },
      });
      const wrong: string[] = [];
      const unlisted: string[] = [];
      let i = 0;
      for (const r of records) {
        if (!r.stop) continue;
        const e = said[i++];
        totals.stops += 1;
        if (!e || e.decision !== r.stop.decision || e.mode !== r.stop.mode)
          wrong.push(
            `${seq.name} t=${r.t} ${r.s}: hook ${r.stop.decision}/${r.stop.mode}, omc-top ${e?.decision}/${e?.mode} (${e?.rule})`,
          );
        // OMC's own reader, asked just before this Stop, lists the same active modes as `--json`.
        const listed = listedActive(r.stop.readers[r.s ?? 'A'] ?? '');
        if (e && listed.join() !== e.active.join())
          unlisted.push(`${seq.name} t=${r.t} ${r.s}: state_list_active [${listed}], --json [${e.active}]`);
        if (listed.length > 0) totals.listings += 1;
      }
      totals.sequences += 1;
      expect(wrong).toEqual([]);
      expect(unlisted).toEqual([]);
    },
  );

  // Runs after every sequence above (a file's tests run in order): what they covered together.
  it("the sequences cover at least 100 runs, 300 Stops and 100 listings of OMC's reader", () => {
    expect(SEQUENCES.length).toBeGreaterThanOrEqual(100);
    expect(totals.sequences, 'every sequence ran to its end').toBe(SEQUENCES.length);
    expect(totals.stops).toBeGreaterThanOrEqual(300);
    expect(totals.listings).toBeGreaterThanOrEqual(100);
  });
});
