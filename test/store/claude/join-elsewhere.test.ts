/**
 * A live Claude whose registry cwd is another project (a `claude --resume <id>` typed in the wrong terminal), or a
 * subdirectory of this one (OMC's hooks pass their raw cwd: a git subdirectory gets its own `.omc`), runs this
 * root's session id but its hooks never read this `.omc`: OMC's real 5.5.0 Stop hook there lets it stop, so nothing
 * will continue or end the loop here. Every surface counts the loop as orphaned and says where that Claude runs.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ownStateDir } from '../../../src/io/state-dir.js';
import { attentionReport } from '../../../src/feeds/attention/report.js';
import { ROW_SCHEMA, cleanRow, rowOf } from '../../../src/feeds/row.js';
import { agentNeeds } from '../../../src/feeds/attention/needs.js';
import { claudeText } from '../../../src/panes/fleet/layout.js';
import { singleSource } from '../../../src/commands/serve/source.js';
import { BUNDLE, statusCount } from '../../helpers/attention-surfaces.js';
import { writeRegistry } from '../../helpers/claude-files.js';
import { attentionEnv, loopWithClaudes } from '../../helpers/claude-registry-rig.js';
import { describe, expect, it, KEY, onTestFinished } from '../../helpers/it.js';
import { hookDecision, spawnStopHook } from '../../helpers/stop-hook.js';

const S = 'eeeeeeee-1111-4222-8333-444444444444';

describe('a Claude running this session from where its hooks read another .omc', () => {
  it.for(['another project', 'a subdirectory of this project'])(
    'from %s: OMC’s Stop hook there lets it stop, and every surface says the loop is orphaned',
    async (where, { emptyProject: p, newProject, claudeDir, tempDir, newStore, mount }) => {
      const cwd = where === 'another project' ? newProject().dir : path.join(p.dir, 'sub');
      fs.mkdirSync(cwd, { recursive: true });
      const pool = loopWithClaudes(p, S, 100);
      const cli = await pool.start();
      const pid = cli.pid as number;
      writeRegistry(claudeDir, pid, S, { status: 'busy', cwd });
      const env = attentionEnv({ claudeDir, tempDir });
      const said = `Claude (pid ${pid}) runs this session from ${cwd}: its hooks do not read this .omc`;

      // The referee: OMC 5.5.0's own Stop hook, run where that Claude runs, does not hold it; run here it would.
      const home = tempDir('home-');
      const hook = (at: string) =>
        hookDecision(spawnStopHook('5.5.0', { cwd: at, sessionId: S, home, now: Date.now() }));
      expect(hook(cwd).decision).toBe('stop');
      expect(hook(p.dir).decision).toBe('block');

      // --json: the orphaned item with the words, and the process's directory.
      const doc = JSON.parse(
        execFileSync(process.execPath, [BUNDLE, '--json', '--root', p.root], {
          cwd: p.dir,
          env: { ...process.env, ...env },
          encoding: 'utf8',
        }),
      ) as { attention: { items: Record<string, any>[] }; sessions: Record<string, any>[] };
      const item = doc.attention.items.find((i) => i.session === S);
      expect(item?.kind).toBe('orphaned');
      expect(item?.text).toContain(said);
      const row = doc.sessions.find((s) => s.id === S);
      expect(row?.agent.process_detail.hooks_elsewhere).toBe(cwd);
      expect(row?.agent.process_detail.hooks_elsewhere_text).toBe(said);

      // status --tmux, read from the files.
      expect(statusCount(p.root, env, true)).toBe(1);

      // The monitor's store (the TUI, the fleet and serve read it): one orphaned item, and the detail says it.
      const store = newStore({
        root: p.root,
        projectDir: p.dir,
        rootRule: 'git',
        stateDir: ownStateDir(env),
        watch: 'none',
        claude: { env, live: false },
      });
      store.start();
      expect(attentionReport(store, env).items.map((i) => [i.kind, i.session])).toEqual([['orphaned', S]]);
      // The fleet's and serve's row of it says where that Claude runs.
      const session = store.sessions.getSnapshot().sessions.find((x) => x.id === S);
      expect(session && rowOf(session, store.claude.getSnapshot().bySession.get(S)).processWhy).toContain(said);
      // The fleet's row (as LocalFleet builds it, sent over `watch --json --rows` and read back): its needs say the
      // loop is orphaned, and its CLAUDE cell says where that Claude is, not `busy`; the serve page's cell alike.
      if (!session) throw new Error('no session');
      const claude = store.claude.getSnapshot().bySession.get(S);
      const need = agentNeeds(session, claude)[0];
      const wire = ROW_SCHEMA.parse(JSON.parse(JSON.stringify(rowOf(session, claude, Date.now(), need))));
      const fleetRow = { ...cleanRow(wire), key: S, host: null, rootId: 'r', rootLabel: 'p' };
      expect([fleetRow.needs, claudeText(fleetRow)]).toEqual(['orphaned loop', '!elsewhere']);
      const source = singleSource(store, 'p', env);
      onTestFinished(() => source.close());
      const page = source.picture(Date.now()).roots[0]?.rows.find((r) => r.session === S);
      expect(page?.processText).toBe('elsewhere');
      const a = mount(store, { columns: 200, rows: 40 });
      await a.ready;
      await a.waitForText(/eeeeeeee/);
      // The monitor's row says the same word in its CLAUDE cell.
      expect(a.text()).toMatch(/!elsewhere/);
      await a.step(KEY.enter);
      await a.waitForText(`runs this session from ${cwd}`);
      // What to do says that Claude is ended there, not resumed here while it runs.
      expect(a.text()).toContain('end that Claude and resume the session in this project');

      // The same Claude in this project's own directory carries the loop: nothing is orphaned.
      writeRegistry(claudeDir, pid, S, { status: 'busy', cwd: p.dir });
      expect(statusCount(p.root, env, true)).toBe(0);
    },
  );
});
