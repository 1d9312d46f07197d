/**
 * A sessions row is one <Text> whose pieces are painted as strings (ui/paint.ts) instead of six nested <Text>
 * elements: the same bytes must reach the terminal. Ink's own rendering of the nested form is the reference, at
 * every colour level chalk has, for every colour the themes use, selected or not, bold or not, empty pieces too.
 */
import React from 'react';
import chalk from 'chalk';
import { Text, renderToString } from 'ink';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isColorName, paint } from '../../src/ui/paint.js';
import { pickTheme, screenTheme } from '../../src/ui/theme.js';

const level = chalk.level;
afterEach(() => {
  chalk.level = level;
});

// A terminal with colour (chalk's level 1 or more); under vitest stdout is no terminal, level 0.
const colorTheme = pickTheme({}, 1);
const themeColors = [
  ...new Set(
    [
      colorTheme.accent,
      colorTheme.ok,
      colorTheme.warn,
      colorTheme.error,
      colorTheme.muted,
      ...Object.values(colorTheme.status),
    ].filter((c): c is string => c !== undefined),
  ),
];

interface Piece {
  text: string;
  color?: string;
  bold: boolean;
}

const nested = (marker: string, pieces: Piece[], inverse: boolean) =>
  renderToString(
    <Text inverse={inverse} wrap="truncate">
      {marker}
      {pieces.map((p, i) => (
        <Text key={i} color={p.color} bold={p.bold}>
          {p.text}
        </Text>
      ))}
    </Text>,
    { columns: 200 },
  );

const painted = (marker: string, pieces: Piece[], inverse: boolean) =>
  renderToString(
    <Text inverse={inverse} wrap="truncate">
      {marker + pieces.map((p) => paint(p.text, { color: p.color, bold: p.bold })).join('')}
    </Text>,
    { columns: 200 },
  );

describe('a row painted as one string', () => {
  it('uses only colours chalk names, in every theme', () => {
    expect(themeColors.length).toBeGreaterThan(3);
    for (const c of themeColors) expect(isColorName(c)).toBe(true);
    const mono = pickTheme({ NO_COLOR: '1' }, 3);
    expect(Object.values(mono.status).every((c) => c === undefined)).toBe(true);
  });

  it('no colour from the terminal (FORCE_COLOR=0, TERM=dumb, --no-color: level 0): monochrome, bold and inverse kept', () => {
    expect(pickTheme({}, 0)).toEqual(pickTheme({ NO_COLOR: '1' }, 3));
    chalk.level = 0;
    const theme = screenTheme({});
    expect(theme.color).toBe(false);
    expect(paint('x', { color: theme.ok, bold: true })).toBe('\u001b[1mx\u001b[22m');
    expect(chalk.inverse('c')).toBe('\u001b[7mc\u001b[27m');
  });

  it('reaches the terminal as the nested <Text> elements did, at every colour level', () => {
    const piece = fc.record({
      text: fc.oneof(
        fc.constant(''),
        fc.string({ maxLength: 12 }),
        fc.constantFrom('enforced ', '0f6c2a57 ', '10m ', '…'),
      ),
      color: fc.option(fc.constantFrom(...themeColors), { nil: undefined }),
      bold: fc.boolean(),
    });
    for (const l of [0, 1, 2, 3] as const) {
      chalk.level = l;
      // The level reaches Ink's own styling (one chalk): colour at 1 and above, none at 0.
      expect(nested('', [{ text: 'x', color: 'green', bold: false }], false).includes('\u001b[')).toBe(l > 0);
      fc.assert(
        fc.property(
          fc.constantFrom('▸ ', '  '),
          fc.array(piece, { maxLength: 6 }),
          fc.boolean(),
          (marker, pieces, inverse) => {
            expect(painted(marker, pieces, inverse)).toBe(nested(marker, pieces, inverse));
          },
        ),
        { numRuns: 150 },
      );
    }
  });
});
