/**
 * A Claude killed while this omc-top watched it is gone from when this omc-top found it gone, not from its last
 * sign of life on disk (an idle Claude's entry can be minutes old): the detail says `gone for 0s`, the orphaned
 * loop's inbox item arose then. An omc-top that never saw it run knows only that last sign of life, and says so.
 * Linux only (procfs).
 */
import { writeRegistry } from '../../helpers/claude-files.js';
import { attentionEnv, loopWithClaudes, registryStore } from '../../helpers/claude-registry-rig.js';
import { waitFor } from '../../helpers/fixtures.js';
import { describe, expect, it } from '../../helpers/it.js';
import { processStartIdentity } from '../../../src/io/process-start.js';
import { attentionReport } from '../../../src/feeds/attention/report.js';
import { agentDetail } from '../../../src/panes/sessions/agent-lines.js';
import type { OmcStore } from '../../../src/store/store.js';

const S = 'cccccccc-1111-4222-8333-444444444444';
const MIN = 60_000;

describe.skipIf(process.platform !== 'linux')('when a killed Claude went', () => {
  it('seen running: gone from when it was seen gone; never seen: its last sign of life, said as such', async ({
    emptyProject: p,
    claudeDir,
    tempDir,
    newStore,
  }) => {
    const pool = loopWithClaudes(p, S);
    const claude = await pool.start();
    const pid = claude.pid as number;
    // Idle for ten minutes: its entry was last written then.
    writeRegistry(claudeDir, pid, S, {
      status: 'idle',
      cwd: p.dir,
      startedAt: Date.now() - 20 * MIN,
      statusUpdatedAt: Date.now() - 10 * MIN,
    });
    const env = attentionEnv({ claudeDir, tempDir });
    const open = (): OmcStore => registryStore({ newStore, claudeDir }, p);
    const head = (store: OmcStore, now: number) => {
      const s = store.sessions.getSnapshot().sessions.find((x) => x.id === S);
      const c = store.claude.getSnapshot().bySession.get(S);
      return s ? agentDetail(s, c, now, undefined).head[0]?.text : undefined;
    };
    const watching = open();
    expect(watching.claude.getSnapshot().bySession.get(S)?.process?.status).toBe('idle');

    claude.kill('SIGKILL');
    await waitFor(() => processStartIdentity(pid) === 'absent', {
      timeoutMs: 10_000,
      what: 'the killed Claude reaped',
    });
    const killedBy = Date.now();
    watching.claude.scan();
    const seen = watching.claude.getSnapshot().bySession.get(S)?.process;
    expect(seen).toMatchObject({ status: 'gone', goneDatedBy: 'seen-gone' });
    expect(seen?.since).toBeGreaterThanOrEqual(killedBy);
    expect(head(watching, seen?.since as number)).toMatch(/^Claude: gone for 0s · pid /);
    const item = attentionReport(watching, env).items.find((i) => i.reason === 'orphaned loop');
    expect(Date.parse(item?.since as string)).toBeGreaterThanOrEqual(killedBy);

    // A second omc-top, started after the kill: the last sign of life, named so.
    const fresh = open();
    const late = fresh.claude.getSnapshot().bySession.get(S)?.process;
    expect(late).toMatchObject({ status: 'gone', goneDatedBy: 'last-sign-of-life' });
    expect(late?.since).toBeLessThan(killedBy - 9 * MIN);
    expect(head(fresh, Date.now())).toMatch(/^Claude: gone, last sign of life 10m ago · pid /);
  });
});
