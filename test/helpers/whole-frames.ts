/**
 * What a terminal that honours synchronized output (DEC mode 2026) shows: Ink opens each frame with `CSI ? 2026 h`
 * and closes it with `CSI ? 2026 l`, and such a terminal keeps showing the last whole screen until the close. A pty
 * hands a long frame to its reader in pieces, so the headless terminal's buffer between two pieces is half the new
 * frame over the old one: no user sees that screen, and no test may read it. The hook runs in the parser, in byte
 * order, so the whole screen is kept however the bytes were cut.
 */
import type { Terminal } from '@xterm/headless';

/** Whether a frame is open (its start parsed, its end not yet). */
export const frameOpen = (term: Terminal): boolean => term.modes.synchronizedOutputMode;

/**
 * Keeps the screen as it was when each frame opened; `read` reads the terminal's buffer. The answer is the screen a
 * user sees: the kept one while a frame is open, else the buffer.
 */
export function wholeScreens(term: Terminal, read: () => string[]): () => string[] {
  let kept: string[] = [];
  term.parser.registerCsiHandler({ prefix: '?', final: 'h' }, (params) => {
    if (params.includes(2026) && !frameOpen(term)) kept = read();
    return false; // the terminal's own handler sets the mode
  });
  return () => (frameOpen(term) ? kept : read());
}
