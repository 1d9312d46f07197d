/** The header names the OMC whose rules the statuses use, when the root path still fits beside it. */
import { makeOmcInstall } from '../../src/store/omc-install.js';
import { omcLabel } from '../../src/store/omc-label.js';
import React from 'react';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Header } from '../../src/ui/chrome.js';
import { EMPTY_SESSIONS } from '../../src/store/sessions/model.js';
import { resolveOmcRoot } from '../../src/store/root.js';
import { render as inkRender } from 'ink';
import { FakeStdin, FakeStdout } from '../helpers/fake-terminal.js';
import { headerFrame } from '../helpers/header-frame.js';

const omc = (version: string | null) => makeOmcInstall(version, 'test');

const frame = (width: number, root: string, o: ReturnType<typeof omc>) => headerFrame({ width, root, omc: o });

/** What the Claude side hands over for a session whose Claude runs OMC 5.5.0 from its own `--plugin-dir`. */
const seenPluginDir550 = [
  {
    version: '5.5.0',
    source: '--plugin-dir /x',
    sourceTag: '--plugin-dir',
    rules: '5.5.0' as const,
    exact: true,
    assumed: false,
    differences: [],
  },
];

describe('header: which OMC', () => {
  it('shows the version, or the assumed rules', () => {
    expect(frame(100, '/p/.omc', omc('4.4.4'))).toContain('OMC 4.4.4');
    expect(frame(100, '/p/.omc', omc(null))).toContain('OMC ? (5.5.0 rules, assumed)');
  });
  it('names where the version was found, and the book a version without its own is judged by', () => {
    expect(frame(100, '/p/.omc', makeOmcInstall('4.4.4', 'plugin oh-my-claudecode@omc', 'plugin'))).toContain(
      'OMC 4.4.4 (plugin)',
    );
    expect(frame(110, '/p/.omc', makeOmcInstall('4.9.2', 'npm', 'npm'))).toContain('OMC 4.9.2 (npm · 4.15.10 rules)');
  });
  it("a session's own --plugin-dir names the version in the header, even when the project has none", () => {
    const f = headerFrame({ sessions: { ...EMPTY_SESSIONS, omcSeen: seenPluginDir550 }, omc: omc(null) });
    expect(f).toContain('OMC 5.5.0 (--plugin-dir)');
    expect(f).not.toContain('assumed');
  });
  it('a 5.5.0 plugin beside a 4.4.4 --plugin-dir session: both releases, oldest first, as for the reverse', () => {
    const seen444 = [{ ...seenPluginDir550[0]!, version: '4.4.4', rules: '4.4.4' as const }];
    const f = headerFrame({
      sessions: { ...EMPTY_SESSIONS, omcSeen: seen444 },
      omc: makeOmcInstall('5.5.0', 'plugin oh-my-claudecode@dev', 'plugin'),
    });
    expect(f).toContain('OMC 4.4.4/5.5.0 (pe');
  });
  it('two OMC plugins enabled at once: the header names both releases, whose hooks both run', () => {
    const five = makeOmcInstall('5.5.0', 'plugin oh-my-claudecode@dev (enabled in user settings)', 'plugin');
    const four = makeOmcInstall('4.4.4', 'plugin oh-my-claudecode@omc (enabled in user settings)', 'plugin');
    expect(omcLabel({ ...five, alongside: [four] })).toBe('OMC 4.4.4+5.5.0 (2 plugins)');
  });
  it('gives its source up before the root path, and keeps its short form while the path keeps room', () => {
    const root = '/tmp/a-rather-long-project-directory-name/with/more/parts/.omc';
    const f = frame(90, root, omc('5.5.0'));
    expect(f).toContain('project-directory-name/with/more/parts/.omc');
    expect(f).toContain('OMC 5.5.0');
    expect(f).not.toContain('(test)');
  });
});

describe('header: a known OMC at 80 columns and narrower (it was dropped below ~85)', () => {
  const root = '/tmp/testerA/s/p/.omc';
  const flag = makeOmcInstall('4.4.4', '--omc-version', '--omc-version');
  it('at 80 columns: the short form `OMC 4.4.4` beside the whole root and the clock', () => {
    const f = frame(80, root, flag);
    expect(f).toMatch(/omc-top {2}\/tmp\/testerA\/s\/p\/\.omc +0 sess · 0 running {2}OMC 4\.4\.4 {2}00:00 UTC/);
    expect(f.length).toBeLessThanOrEqual(80);
  });
  it('where the long form fits, the long form', () => {
    expect(headerFrame({ width: 100, root, rule: '--root', omc: flag })).toContain('OMC 4.4.4 (--omc-version)');
  });
  it('narrower: the clock goes, then the path is cut, and the version stays', () => {
    const at60 = frame(60, root, flag);
    expect(at60).toContain('OMC 4.4.4');
    expect(at60).not.toContain('UTC');
    expect(at60).toMatch(/….*\.omc/);
    expect(at60.length).toBeLessThanOrEqual(60);
  });
});

describe('header: a guess keeps a mark while the root path fits whole', () => {
  it('a shorter mark at 80 and 60 columns, the root path whole beside it', () => {
    const at80 = frame(80, '/home/someone/projects/some-project/.omc', omc(null));
    expect(at80).toContain('/home/someone/projects/some-project/.omc');
    expect(at80).toContain('OMC ?');
    const at60 = frame(60, '/p/.omc', omc(null));
    expect(at60).toContain('/p/.omc');
    expect(at60).toContain('OMC ?');
  });
  it('the longest mark that fits: the long one where there is room', () => {
    expect(frame(100, '/p/.omc', omc(null))).toContain('OMC ? (5.5.0 rules, assumed)');
    const mid = frame(70, '/p/.omc', omc(null));
    expect(mid).toContain('OMC ? (assumed)');
    expect(mid).not.toContain('5.5.0 rules');
  });
  it('no mark rather than a cut path', () => {
    const root = '/tmp/a-rather-long-project-directory-name/with/more/parts/.omc';
    const f = frame(80, root, omc(null));
    expect(f).not.toContain('OMC ?');
    // The header as it was: the path shortened to its room, the clock kept.
    expect(f).toContain('00:00 UTC');
  });
  it('a known OMC gives its short form before it gives its place', () => {
    const f = frame(60, '/p/.omc', omc('5.5.0'));
    expect(f).toContain('OMC 5.5.0  00:00 UTC');
    expect(f).not.toContain('(test)');
    expect(f).toContain('/p/.omc');
  });
});

describe('header: a narrow pane keeps the count', () => {
  const narrow = (width: number) =>
    headerFrame({ root: '/home/someone/projects/a-long-project-name/.omc', width, omc: omc('5.5.0'), needs: 2 });
  it('gives the path up before the count, and then the name', () => {
    for (const w of [14, 20, 24, 28, 34, 40, 60, 80]) {
      const f = narrow(w);
      expect(f, `${w} columns`).toContain('needs you: 2');
      expect(f.length, `${w} columns`).toBeLessThanOrEqual(w);
    }
    // A path shorter than it can name nothing is left out, not cut into a fragment glued to the count.
    expect(narrow(28)).toMatch(/^omc-top {2,}needs you: 2/);
    expect(narrow(14)).toMatch(/^needs you: 2/);
    expect(narrow(60)).toContain('omc-top  ');
    expect(narrow(60)).toMatch(/…|\/\.omc/);
  });
});

describe('header: a project whose sessions run two releases (sweep 10 §10)', () => {
  // The root as OMC 4.4.4 (the project's plugin) finds it: a git top-level; a 5.5.0 --plugin-dir session runs there too.
  // A directory of the test's own: the rule is the git top-level's only where the directory exists (a fixed path
  // passed only on a machine where an earlier manual run had left it, and failed on a fresh one).
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 's10-'));
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
  const top = path.join(base, 'proj');
  fs.mkdirSync(top);
  const probe = { topLevel: () => top, superproject: () => null, remoteOrigin: () => null, commonDir: () => null };
  const res = resolveOmcRoot({ cwd: top, env: {}, home: '/home/u', git: probe, flavor: 'cwd', omcVersion: '4.4.4' });
  it('at 150 columns names both versions beside the whole root and a rule naming the release that decided', () => {
    expect(res.root).toBe(`${top}/.omc`);
    // ink-testing-library draws 100 columns: a terminal of 150.
    const stdout = new FakeStdout(150, 10);
    const ink = inkRender(
      <Header
        root={res.root}
        rule={res.explain}
        sessions={{ ...EMPTY_SESSIONS, omcSeen: seenPluginDir550 }}
        width={150}
        now={0}
        readonly={false}
        omc={makeOmcInstall('4.4.4', 'plugin oh-my-claudecode@omc', 'plugin')}
        needs={1}
      />,
      { stdout: stdout as never, stdin: new FakeStdin() as never, debug: true, patchConsole: false },
    );
    const f = stdout.lastFrame();
    ink.unmount();
    expect(f).toContain('OMC 4.4.4/5.5.0 (per session)');
    expect(f).toContain(`${top}/.omc (git top-level (OMC 4.4.4))`);
    expect(f).not.toContain('4.x');
  });
});
