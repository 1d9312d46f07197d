/** Named keys as a terminal sends them: the one table for the in-process rig and the pty harness. */
export const KEY = {
  enter: '\r',
  esc: '\u001b',
  tab: '\t',
  backtab: '\u001b[Z',
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  home: '\u001b[H',
  end: '\u001b[F',
  pageup: '\u001b[5~',
  pagedown: '\u001b[6~',
  backspace: '\u007f',
  ctrlC: '\u0003',
  wheelup: '\u001b[<64;10;10M',
  wheeldown: '\u001b[<65;10;10M',
  /** A left click (press, then release) at 1-based column `x`, row `y`, as an SGR mouse report. */
  click: (x: number, y: number) => `\u001b[<0;${x};${y}M\u001b[<0;${x};${y}m`,
  ctrl: (c: string) => String.fromCharCode(c.toLowerCase().charCodeAt(0) - 96),
} as const;
