/**
 * `DISABLE_OMC` and `OMC_SKIP_HOOKS` in the environment Claude gives its hooks (here its project settings' `env`):
 * OMC 5.5.0's and 4.15's persistent-mode Stop hook then lets every stop through (DISABLE_OMC exactly "1" or
 * "true"; OMC_SKIP_HOOKS a comma list naming persistent-mode or stop-continuation), while 4.4.4's `.cjs` hook never
 * looks. The real hook, given what Claude would give it, and omc-top's `--json` for the same project must agree, and
 * omc-top says why it does not block; a running monitor follows a settings file that changes.
 * 4.15.10's hook is run from a checkout (OMC_TOP_OMC_415) or, without one, its recorded answers are used
 * (test/fixtures/omc-4.15.10/stop-hooks-disabled.json).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OmcStore } from '../../src/store/store.js';
import { liveRalph, waitFor, writeOmcJson } from '../helpers/fixtures.js';
import {
  hookProject,
  jsonReport,
  HOOK_VERSIONS,
  hookStop,
  projectStore,
  realStop,
  removeHookProjects,
} from './stop-hook-live.js';

const SID = '8c8c8c8c-1111-4222-8333-444455556666';
let store: OmcStore | null = null;
afterEach(async () => {
  await store?.close();
  store = null;
  removeHookProjects();
});

function project(settingsEnv: Record<string, string> | null) {
  const w = hookProject('hooksoff');
  const cwd = w.cwd;
  writeOmcJson(path.join(cwd, '.omc', 'state', 'sessions', SID, 'ralph-state.json'), {
    ...liveRalph({ sessionId: SID, iteration: 2, max: 100 }),
    prompt: 'fix the tests',
  });
  const settings = path.join(cwd, '.claude', 'settings.json');
  if (settingsEnv) writeOmcJson(settings, { env: settingsEnv });
  return { ...w, settings };
}

const CASES: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'DISABLE_OMC=1', env: { DISABLE_OMC: '1' } },
  { name: 'DISABLE_OMC=true', env: { DISABLE_OMC: 'true' } },
  { name: 'DISABLE_OMC=TRUE (not the hook’s word)', env: { DISABLE_OMC: 'TRUE' } },
  { name: 'DISABLE_OMC=0', env: { DISABLE_OMC: '0' } },
  {
    name: 'OMC_SKIP_HOOKS=" keyword-detector , persistent-mode"',
    env: { OMC_SKIP_HOOKS: ' keyword-detector , persistent-mode' },
  },
  { name: 'OMC_SKIP_HOOKS=stop-continuation', env: { OMC_SKIP_HOOKS: 'stop-continuation' } },
  { name: 'OMC_SKIP_HOOKS=pre-tool-use', env: { OMC_SKIP_HOOKS: 'pre-tool-use' } },
];

describe.each(HOOK_VERSIONS)("DISABLE_OMC / OMC_SKIP_HOOKS: omc-top's --json vs OMC %s's real Stop hook", (version) => {
  it.each(CASES)('$name in the project’s .claude/settings.json', (c) => {
    const w = project(c.env);
    // Claude Code lays its settings' env over the environment it gives the hook.
    const hook = hookStop('hooks-disabled', c.name, {
      version,
      cwd: w.cwd,
      home: w.home,
      sessionId: SID,
      now: w.now,
      env: c.env,
    });
    const s = jsonReport({ version, cwd: w.cwd, home: w.home, now: w.now }).sessions.find((x) => x.id === SID);
    const v = s?.verdict;
    expect({ decision: v?.decision, mode: v?.decision === 'block' ? v.mode : null }).toEqual({
      decision: hook.decision,
      mode: hook.mode,
    });
    const row = s?.modes.find((m) => m.mode === 'ralph');
    expect(row?.status).toBe(hook.decision === 'block' ? 'enforced' : 'not-enforced');
  });
});

describe('the words', () => {
  it('5.5.0: says why it does not block, and the ralph row is not enforced (not paused)', () => {
    const w = project({ DISABLE_OMC: '1' });
    const s = jsonReport({ version: '5.5.0', cwd: w.cwd, home: w.home, now: w.now }).sessions.find((x) => x.id === SID);
    expect(s?.verdict).toMatchObject({
      decision: 'stop',
      rule: 'hooks-disabled',
      detail:
        "not enforced: DISABLE_OMC=1 from the project's .claude/settings.json; OMC's Stop hook lets every stop through",
    });
    const row = s?.modes.find((m) => m.mode === 'ralph');
    expect(row).toMatchObject({ status: 'not-enforced', verdict: { rule: 'hooks-disabled' } });
    expect(row?.verdict.detail).toContain('DISABLE_OMC=1');
  });

  it('a running monitor follows the settings file: set, the ralph is not enforced; removed, it is again', async () => {
    const w = project(null);
    const s = (store = projectStore(w));
    const verdict = () => s.sessions.getSnapshot().sessions.find((v) => v.id === SID)?.verdict;
    await waitFor(() => verdict()?.decision === 'block', { what: 'ralph enforced' });
    writeOmcJson(w.settings, { env: { OMC_SKIP_HOOKS: 'persistent-mode' } });
    await waitFor(() => verdict()?.rule === 'hooks-disabled', { what: 'the switch seen', timeoutMs: 20_000 });
    expect(
      realStop({
        version: '5.5.0',
        cwd: w.cwd,
        home: w.home,
        sessionId: SID,
        now: Date.now(),
        env: { OMC_SKIP_HOOKS: 'persistent-mode' },
      }).decision,
    ).toBe('stop');
    fs.rmSync(w.settings);
    await waitFor(() => verdict()?.decision === 'block', { what: 'the switch gone', timeoutMs: 20_000 });
  });
});
