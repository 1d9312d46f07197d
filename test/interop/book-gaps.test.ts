/**
 * A release judged by a newer book lacks some of that book's checks, and the verdict follows what the detail lists
 * as its known differences. OMC 4.9.2 (judged by the 4.15.10 book) wires `persistent-mode.cjs`, which reads neither
 * `stop_hook_active` (from 4.14.5 on) nor DISABLE_OMC / OMC_SKIP_HOOKS (from 4.15.3 on): run from the v4.9.2 tag of
 * OMC's repository, its hook blocks a ralph at a second Stop in one turn and with DISABLE_OMC=1 alike. So with a
 * Stop-hook block earlier in the open turn, `--omc-version 4.9.2` says block (not "paused"), and its `unless` does
 * not offer stop_hook_active; 4.15.10 itself lets the agent stop (its real hook: verdict-415.test.ts).
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OmcStore } from '../../src/store/store.js';
import { liveRalph, writeOmcJson } from '../helpers/fixtures.js';
import { hookProject, projectStore, removeHookProjects } from './stop-hook-live.js';

const SID = 'aeaeaeae-1111-4222-8333-444455556666';
let store: OmcStore | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
  removeHookProjects();
});

function judge(version: string, opts: { stopHookActive?: boolean; settingsEnv?: Record<string, string> }) {
  const w = hookProject('gaps', { git: false });
  const cwd = w.cwd;
  writeOmcJson(path.join(cwd, '.omc', 'state', 'sessions', SID, 'ralph-state.json'), {
    ...liveRalph({ sessionId: SID, iteration: 2, max: 100 }),
    prompt: 'fix the tests',
  });
  if (opts.settingsEnv) writeOmcJson(path.join(cwd, '.claude', 'settings.json'), { env: opts.settingsEnv });
  const s = (store = projectStore(w, { version, watch: 'none' }));
  const install = s.sessions.installOf(SID);
  if (opts.stopHookActive !== undefined)
    s.sessions.setStopFacts(new Map([[SID, { stopHookActive: opts.stopHookActive, transcriptPercent: 10 }]]));
  const v = s.sessions.getSnapshot().sessions.find((x) => x.id === SID);
  return { verdict: v?.verdict, ralph: v?.modes.find((m) => m.mode === 'ralph'), install };
}

describe("a release's known differences from its book are the verdict's too", () => {
  it('4.9.2, a Stop-hook block earlier in the open turn: still a block for ralph (no stop_hook_active check)', () => {
    const r = judge('4.9.2', { stopHookActive: true });
    expect(r.install.book.differences).toContain('no stop_hook_active check: a second Stop in one turn blocks too');
    expect(r.verdict).toMatchObject({ rules: '4.15.10', decision: 'block', mode: 'ralph', rule: 'iteration' });
    expect(r.ralph?.status).toBe('enforced');
    expect(r.verdict?.unless.join('\n')).not.toContain('stop_hook_active');
  });

  it('4.9.2 with nothing known of the turn: its unless never offers stop_hook_active', () => {
    const r = judge('4.9.2', {});
    expect(r.verdict).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(r.verdict?.unless.join('\n')).not.toContain('stop_hook_active');
    expect(judge('4.15.10', {}).verdict?.unless.join('\n')).toContain('stop_hook_active');
  });

  it('4.14.5 and 4.15.10 have the check: paused, the hook lets the agent stop', () => {
    for (const v of ['4.14.5', '4.15.10']) {
      const r = judge(v, { stopHookActive: true });
      expect(r.verdict).toMatchObject({ decision: 'stop', rule: 'stop-hook-active' });
      expect(r.ralph?.status).toBe('paused');
    }
  });

  it('DISABLE_OMC=1: 4.15.2 (no switch yet) still blocks, 4.15.3 lets every stop through', () => {
    const old = judge('4.15.2', { settingsEnv: { DISABLE_OMC: '1' } });
    expect(old.install.book.differences.join('\n')).toContain('no DISABLE_OMC / OMC_SKIP_HOOKS check');
    expect(old.verdict).toMatchObject({ decision: 'block', mode: 'ralph' });
    expect(judge('4.15.3', { settingsEnv: { DISABLE_OMC: '1' } }).verdict).toMatchObject({
      decision: 'stop',
      rule: 'hooks-disabled',
    });
  });
});
