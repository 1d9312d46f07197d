// The status line's loops (feeds/status-line.ts loopValues): the first three running loops in the sessions' order
// with their progress, then a count of the rest; `active` counts every one.
import { describe, expect, it } from 'vitest';
import { loopValues } from '../../src/feeds/status-line.js';
import type { ModeView, SessionView, SessionsSnapshot } from '../../src/store/sessions/model.js';

const mode = (m: Partial<ModeView>): ModeView =>
  ({ mode: 'ralph', status: 'enforced', iteration: null, max: null, ...m }) as ModeView;
const snap = (...modes: ModeView[][]): SessionsSnapshot => ({
  version: 1,
  derivedAt: 0,
  problems: [],
  sessions: modes.map((ms, i) => ({ id: `s${i}`, kind: 'session', modes: ms }) as unknown as SessionView),
});

describe('loopValues', () => {
  it('no running loop', () => {
    expect(loopValues(snap([mode({ status: 'finished' as ModeView['status'] })]))).toEqual({
      loops: 'no loops',
      active: 0,
    });
  });

  it('up to three loops are all shown, in order, with their progress', () => {
    const v = loopValues(
      snap(
        [mode({ iteration: 2, max: 5 })],
        [mode({ mode: 'ultrawork', status: 'pending' })],
        [mode({ iteration: 7 })],
      ),
    );
    expect(v).toEqual({ loops: 'ralph 2/5 ultrawork ralph 7', active: 3 });
  });

  it('past three: the first three and a count of the others; paused loops count, others do not', () => {
    const v = loopValues(
      snap(
        [mode({ iteration: 1, max: 9 }), mode({ mode: 'ultrawork', status: 'paused' })],
        [mode({ status: 'stale' as ModeView['status'] })],
        [mode({ mode: 'autopilot', iteration: 3 })],
        [mode({ iteration: 4, max: 4 })],
        [mode({ mode: 'team', status: 'pending' })],
      ),
    );
    expect(v).toEqual({ loops: 'ralph 1/9 ultrawork autopilot 3 +2', active: 5 });
  });
});
