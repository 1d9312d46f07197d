/**
 * Ink marks a text's Yoga node dirty once per layout, not once per changed span
 * (scripts/ink-patches/dirty-once.mjs). What must hold: a text whose spans change
 * is measured again at every frame, however many spans changed and however many
 * frames in a row, so nothing beside it is drawn where the old width put it.
 */
import React from 'react';
import { Box, Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { layoutEpoch, markDirtyOnce } from '../../scripts/ink-patches/dirty-once.mjs';

function Spans({ parts }: { parts: string[] }) {
  return (
    <Box>
      <Text>
        {parts[0]}
        <Text bold>{parts[1]}</Text>
        <Text inverse>{parts[2]}</Text>
      </Text>
      <Text>|</Text>
    </Box>
  );
}

describe('a text is measured again whenever its spans change', () => {
  it('frame after frame, with one, two or every span changed', () => {
    const frames = [
      ['a', 'b', 'c'],
      ['aaaa', 'b', 'c'],
      ['aaaa', 'bbbbbb', 'cc'],
      ['x', 'y', 'z'],
      ['x', 'yyyyyyyyy', 'z'],
      ['long first span', 'and a second', 'and a third'],
      ['', '', 'c'],
    ];
    const app = render(<Spans parts={frames[0] as string[]} />);
    for (const parts of frames) {
      app.rerender(<Spans parts={parts} />);
      expect(app.lastFrame()).toBe(`${parts.join('')}|`);
    }
    app.unmount();
  });

  it('calls into Yoga once per node between two layouts, and again after each layout', () => {
    const node = { markDirty: vi.fn() };
    markDirtyOnce(node);
    markDirtyOnce(node);
    markDirtyOnce(undefined);
    expect(node.markDirty).toHaveBeenCalledTimes(1);
    expect(layoutEpoch('ltr')).toBe('ltr');
    markDirtyOnce(node);
    markDirtyOnce(node);
    expect(node.markDirty).toHaveBeenCalledTimes(2);
  });
});
