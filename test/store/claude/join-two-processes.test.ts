/**
 * Two live Claude processes registered for one session (two terminals resumed it): every surface joins the same
 * one (the newest), says that two run it with both pids, and an answer (`omc-top send`) goes to that one and says
 * which. The registry file that lists first is the older process, so a choice by listing order shows.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { BUNDLE } from '../../helpers/attention-surfaces.js';
import { writeRegistry } from '../../helpers/claude-files.js';
import { attentionEnv, loopWithClaudes, registryStore } from '../../helpers/claude-registry-rig.js';
import { attentionReport } from '../../../src/feeds/attention/report.js';
import { describe, expect, it, KEY } from '../../helpers/it.js';

const S = 'ffffffff-1111-4222-8333-444444444444';

describe('two Claude processes on one session', () => {
  it('--json, send and the detail name the same pid and say there are two', async ({
    emptyProject: p,
    claudeDir,
    newStore,
    mount,
  }) => {
    const pool = loopWithClaudes(p, S, 100);
    const pids = [(await pool.start()).pid as number, (await pool.start()).pid as number];
    // Listed first (sessions/<pid>.json by name): the older one.
    const [older, newer] = pids.sort((a, b) => (`${a}.json` < `${b}.json` ? -1 : 1)) as [number, number];
    writeRegistry(claudeDir, older, S, { status: 'busy', cwd: p.dir, startedAt: Date.now() - 120_000 });
    writeRegistry(claudeDir, newer, S, {
      status: 'waiting',
      waitingFor: 'permission prompt',
      cwd: p.dir,
      startedAt: Date.now() - 60_000,
    });
    const two = `2 Claude processes run this session (pids ${Math.min(older, newer)}, ${Math.max(older, newer)})`;
    const env = { ...process.env, CLAUDE_CONFIG_DIR: claudeDir };

    const doc = JSON.parse(
      execFileSync(process.execPath, [BUNDLE, '--json', '--root', p.root], { cwd: p.dir, env, encoding: 'utf8' }),
    ) as { sessions: Record<string, any>[] };
    const row = doc.sessions.find((s) => s.id === S);
    expect(row?.process.pid).toBe(newer);
    // A script's note goes to the same process (no inbox socket here: refused, naming it and the other).
    const sent = spawnSync(process.execPath, [BUNDLE, 'send', S.slice(0, 8), 'hello'], { env, encoding: 'utf8' });
    expect(sent.status).toBe(1);
    expect(sent.stderr).toContain(`pid ${newer}`);
    expect(sent.stderr).toContain(`not sent to (session ffffffff, pid ${newer}; ${two})`);
    expect(row?.agent.process_detail.other_pids).toEqual([older]);
    expect(row?.agent.process_detail.processes_text).toBe(two);

    // The monitor's detail: the same pid, and both.
    const store = newStore({ root: p.root, projectDir: p.dir, watch: 'none', claude: { env, live: false } });
    store.start();
    const a = mount(store, { columns: 200, rows: 40 });
    await a.ready;
    await a.waitForText(/ffffffff/);
    await a.step(KEY.enter);
    await a.waitForText(two);
    expect(a.text()).toContain(`pid ${newer} ·`);
    expect(a.text()).not.toContain(`pid ${older} ·`);
  });

  it('one here and a newer one in another project: the one here carries the loop, the other is named', async ({
    emptyProject: p,
    newProject,
    claudeDir,
    tempDir,
    newStore,
  }) => {
    const pool = loopWithClaudes(p, S, 100);
    const here = (await pool.start()).pid as number;
    const away = (await pool.start()).pid as number;
    writeRegistry(claudeDir, here, S, { status: 'busy', cwd: p.dir, startedAt: Date.now() - 120_000 });
    writeRegistry(claudeDir, away, S, { status: 'idle', cwd: newProject().dir, startedAt: Date.now() - 60_000 });
    const store = registryStore({ newStore, claudeDir }, p, { rootRule: 'git' });
    const proc = store.claude.getSnapshot().bySession.get(S)?.process;
    expect(proc?.pid).toBe(here);
    expect(proc?.alsoPids).toEqual([away]);
    expect(proc?.elsewhere ?? null).toBeNull();
    const env = attentionEnv({ claudeDir, tempDir });
    expect(attentionReport(store, env).items).toEqual([]);
  });
});
