/** The header names the OMC whose rules the statuses use, when the root path still fits beside it. */
import React from 'react';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Header } from '../../src/ui/chrome.js';
import { EMPTY_SESSIONS } from '../../src/store/sessions/model.js';

const omc = (version: string | null) => ({
  version,
  source: 'test',
  assumed: version === null,
  rules: version ?? '5.5.0',
  candidates: [],
});

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
    expect(frame(100, '/p/.omc', omc(null))).toContain('OMC ? (5.5.0 rules)');
  });
  it('gives way to the root path when both do not fit', () => {
    const root = '/tmp/a-rather-long-project-directory-name/with/more/parts/.omc';
    const f = frame(90, root, omc('5.5.0'));
    expect(f).toContain('project-directory-name/with/more/parts/.omc');
    expect(f).not.toContain('OMC 5.5.0');
  });
});
