/**
 * Driven sequences against the live hooks of OMC 5.5.0 and 4.4.4 (test/omc-packages): a prompt through
 * the keyword detector, the skill's hooks, N Stop calls, cancels from omc-top and from OMC's own
 * state tools (state_clear, the cancel skill's flow), legacy and session signals, two sessions at once
 * (test/interop/omc-runs/sequence-defs.ts). Before every Stop, omc-top's verdict on the tree as it
 * is then must be the hook's decision and blocking mode. (4.15.10's answers to the same sequences are
 * committed fixtures: verdict-415.test.ts.)
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopVerdict } from '../../src/store/verdict/index.js';
import { diskTree } from '../../src/store/verdict/disk-tree.js';
import { OmcRunner, type OmcVersion } from './omc-runs/omc.js';
import { buildSequences } from './omc-runs/sequence-defs.js';
import { runSequence } from './omc-runs/sequences.js';

const runner = new OmcRunner();
afterAll(() => runner.close());

const SEQUENCES = buildSequences();

describe.each(['5.5.0', '4.4.4'] as OmcVersion[])('driven sequences vs OMC %s (live hooks)', (version) => {
  it(`omc-top's verdict is the hook's at every Stop of ${SEQUENCES.length} sequences`, async () => {
    const wrong: string[] = [];
    let stops = 0;
    for (const seq of SEQUENCES) {
      const said: Array<{ decision: string; mode: string | null; rule: string }> = [];
      const records = await runSequence(version, seq, runner, {
        beforeStop: (c) => {
          const v = stopVerdict(diskTree(path.join(c.cwd, '.omc'), { home: c.home }), {
            rules: version as '5.5.0' | '4.4.4',
            sessionId: c.sessionId,
            cwd: c.cwd,
            now: c.now,
            stop: { payload: c.payload, transcriptPercent: c.transcriptPercent ?? 0 },
          });
          said.push({ decision: v.decision, mode: v.decision === 'block' ? v.mode : null, rule: v.rule });
        },
      });
      let i = 0;
      for (const r of records) {
        if (!r.stop) continue;
        const e = said[i++];
        stops += 1;
        if (!e || e.decision !== r.stop.decision || e.mode !== r.stop.mode)
          wrong.push(
            `${seq.name} t=${r.t} ${r.s}: hook ${r.stop.decision}/${r.stop.mode}, omc-top ${e?.decision}/${e?.mode} (${e?.rule})`,
          );
      }
    }
    expect(SEQUENCES.length).toBeGreaterThanOrEqual(100);
    expect(stops).toBeGreaterThanOrEqual(300);
    expect(wrong).toEqual([]);
  }, 1_800_000);
});
