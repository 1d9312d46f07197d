/** The header names the OMC whose rules the statuses use, when the root path still fits beside it. */
import { makeOmcInstall } from '../../src/store/omc-install.js';
import React from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Header } from '../../src/ui/chrome.js';
import { EMPTY_SESSIONS } from '../../src/store/sessions/model.js';

const omc = (version: string | null) => makeOmcInstall(version, 'test');

const frame = (width: number, root: string, o: ReturnType<typeof omc>) =>
  render(
    <Header
      root={root}
      rule="git top-level"
      sessions={EMPTY_SESSIONS}
      width={width}
      now={0}
      readonly={false}
      omc={o}
    />,
  ).lastFrame() ?? '';

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
    const seen = [
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
    const f =
      render(
        <Header
          root="/p/.omc"
          rule="git top-level"
          sessions={{ ...EMPTY_SESSIONS, omcSeen: seen }}
          width={100}
          now={0}
          readonly={false}
          omc={omc(null)}
        />,
      ).lastFrame() ?? '';
    expect(f).toContain('OMC 5.5.0 (--plugin-dir)');
    expect(f).not.toContain('assumed');
  });
  it('gives way to the root path when both do not fit', () => {
    const root = '/tmp/a-rather-long-project-directory-name/with/more/parts/.omc';
    const f = frame(90, root, omc('5.5.0'));
    expect(f).toContain('project-directory-name/with/more/parts/.omc');
    expect(f).not.toContain('OMC 5.5.0');
  });
});

describe('header: a narrow pane keeps the count', () => {
  const narrow = (width: number) =>
    render(
      <Header
        root="/home/someone/projects/a-long-project-name/.omc"
        rule="git top-level"
        sessions={EMPTY_SESSIONS}
        width={width}
        now={0}
        readonly={false}
        omc={omc('5.5.0')}
        needs={2}
      />,
    ).lastFrame() ?? '';
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
