/**
 * The monitor's header line drawn alone (ink-testing-library, 100 columns of terminal), for tests of what it says
 * at a given width: a project at `/p/.omc` found by its git top-level, no sessions, the clock at 0, not read-only,
 * unless `props` says otherwise.
 */
import React from 'react';
import { render } from 'ink-testing-library';
import { EMPTY_SESSIONS } from '../../src/store/sessions/model.js';
import { Header } from '../../src/ui/chrome.js';

export type HeaderProps = React.ComponentProps<typeof Header>;

/** The header's last frame with these props over the defaults above ('' when it drew nothing). */
export function headerFrame(props: Partial<HeaderProps> = {}): string {
  return (
    render(
      <Header
        root="/p/.omc"
        rule="git top-level"
        sessions={EMPTY_SESSIONS}
        width={100}
        now={0}
        readonly={false}
        {...props}
      />,
    ).lastFrame() ?? ''
  );
}
