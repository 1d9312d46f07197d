/**
 * A row's styled pieces as one string, so a row is one Ink <Text> and not one per piece.
 *
 * Why: a sessions row was seven <Text> elements (the row and six nested pieces): seven React components and
 * fourteen Ink nodes a row, 55 rows in a 200x60 first frame. A piece painted here is what Ink's nested <Text>
 * made of it (its transform: the colour, then bold; an empty piece left as it is), so the terminal gets the same
 * bytes from one element a row: the first frame's render at 2,000 sessions in 200x60 43 → 36 ms at load 1.5 and
 * 69 → 51 ms at load 3.6 (p50 of 16 starts each, scratch-build marks, 2026-12-03; level at 80x24). Ink styles
 * through chalk and so does this, the same module, so at the same colour level (a full screen's is at least 1, so
 * bold and inverse survive every no-colour setting: ui/theme.ts screenTheme).
 * Every theme colour is one of chalk's foreground names (ui/theme.ts; test/panes/sessions-row-paint.test.tsx holds
 * it), the only kind of colour taken here.
 */
import chalk, { foregroundColorNames, type ForegroundColorName } from 'chalk';

const NAMES: ReadonlySet<string> = new Set(foregroundColorNames);
export const isColorName = (color: string): color is ForegroundColorName => NAMES.has(color);

export function paint(text: string, style: { color?: string; bold?: boolean }): string {
  if (text === '') return text;
  let out = text;
  if (style.color !== undefined && isColorName(style.color)) out = chalk[style.color](out);
  if (style.bold) out = chalk.bold(out);
  return out;
}
