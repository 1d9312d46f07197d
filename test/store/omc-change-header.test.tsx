/**
 * Sweep 10 §10: the message line said when another OMC runs the project's hooks and the header's label say the
 * same thing at the same time. The header counts the sessions' own `--plugin-dir` (a live Claude's, or once it
 * exited the flags omc-top recorded): when the last `--plugin-dir` Claude exits and the project's files name no
 * OMC, the header keeps `OMC 5.5.0 (--plugin-dir)`, so no line may say `OMC ? … now`.
 */
import { makeOmcInstall, type OmcInstall } from '../../src/store/omc-install.js';
import { waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { headerFrame } from '../helpers/header-frame.js';
import { describe, expect, it, type Fixtures } from '../helpers/it.js';

const SID = 'aaaaaaaa-1111-4222-8333-55555555555a';

const pluginDir = (version: string, source: string) => makeOmcInstall(version, source, '--plugin-dir');

/**
 * A monitor (the test's fixtures make and remove its project and store) whose project install is `first` until the
 * test changes `current`; SID's own Claude ran `own`.
 */
function monitor(
  { newProject, newStore }: Pick<Fixtures, 'newProject' | 'newStore'>,
  first: OmcInstall,
  own: OmcInstall,
) {
  const p = newProject({ prefix: 'omc-top-change-header-' });
  writeLiveRalph(p, { sessionId: SID, iteration: 2, max: 10, projectPath: p.dir, prompt: 'ralph: x' });
  const box = { current: first };
  const said: string[] = [];
  const s = newStore({
    root: p.root,
    projectDir: p.dir,
    omc: first,
    omcRedetect: () => box.current,
    omcRecheckMs: 100,
    watch: 'poll',
    claude: { live: false, env: { HOME: p.dir, CLAUDE_CONFIG_DIR: `${p.dir}/no-claude` } },
  });
  s.onOmcChange((words) => {
    if (words) said.push(words);
  });
  s.start();
  // What the Claude side hands over for a session whose --plugin-dir Claude ran (its recorded flags once gone).
  s.sessions.setSessionInstalls(new Map([[SID, own]]));
  const header = () => headerFrame({ sessions: s.sessions.getSnapshot(), omc: s.omc ?? undefined });
  return { box, said, s, header };
}

describe('the OMC change line and the header', () => {
  it('the last --plugin-dir Claude exits (the project names no OMC): no line, the header keeps its label', async ({
    newProject,
    newStore,
  }) => {
    // The project's answer came from that Claude's process (gone now: the monitor looks again, as at a start).
    const m = monitor(
      { newProject, newStore },
      { ...pluginDir('5.5.0', '--plugin-dir /x (claude pid 42)'), process: { pid: 42, procStart: '1' } },
      pluginDir('5.5.0', '--plugin-dir /x (claude pid 42 ran with it; process gone)'),
    );
    expect(m.header()).toContain('OMC 5.5.0 (--plugin-dir)');
    m.box.current = makeOmcInstall(null, 'not found: assuming the newest rules', 'assumed');
    await waitFor(() => m.s.omc?.assumed === true, { timeoutMs: 15_000, what: 'the project install re-detected' });
    expect(m.header()).toContain('OMC 5.5.0 (--plugin-dir)');
    expect(m.said).toEqual([]);
  });

  it("the project's plugin moves while a --plugin-dir session runs: the line names the header's labels", async ({
    newProject,
    newStore,
  }) => {
    const m = monitor(
      { newProject, newStore },
      makeOmcInstall('4.4.4', 'plugin oh-my-claudecode@omc', 'plugin'),
      pluginDir('5.5.0', '--plugin-dir /x'),
    );
    expect(m.header()).toContain('OMC 4.4.4/5.5.0 (per session)');
    m.box.current = makeOmcInstall('5.5.0', 'plugin oh-my-claudecode@omc', 'plugin');
    await waitFor(() => m.s.omc?.version === '5.5.0', { timeoutMs: 15_000, what: 'the project install re-detected' });
    expect(m.header()).toContain('OMC 5.5.0 (--plugin-dir)');
    expect(m.said).toEqual(['OMC 5.5.0 (--plugin-dir) now (was 4.4.4/5.5.0 (per session)): verdicts re-judged']);
  });
});
