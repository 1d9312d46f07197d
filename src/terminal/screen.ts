/**
 * Full-screen mode for Ink 6 (which has no alternateScreen option): we enter
 * the alternate screen and bracketed paste ourselves, and put the terminal
 * back on every way out. The order matters (found by running Ink 6.8 in tmux):
 * unmount Ink first, then cooked mode, then leave the alternate screen and
 * show the cursor; leaving first lets Ink repaint its last frame onto the
 * user's shell screen.
 */
export const ENTER_SEQ = '\u001b[?1049h\u001b[2J\u001b[H\u001b[?2004h';
/** SGR mouse reports (ESC[<b;x;yM), for the wheel; off with --no-mouse. Leaving always turns them off. */
export const MOUSE_ON = '\u001b[?1000h\u001b[?1006h';
export const MOUSE_OFF = '\u001b[?1006l\u001b[?1000l';
export const LEAVE_SEQ = MOUSE_OFF + '\u001b[?2004l\u001b[?1049l\u001b[?25h';

export interface TerminalHandle {
  /** Idempotent; safe to call from signal handlers and 'exit'. */
  restore(): void;
  readonly restored: boolean;
}

export function enterFullScreen(
  stdout: NodeJS.WriteStream,
  stdin: NodeJS.ReadStream,
  beforeLeave: () => void,
): TerminalHandle {
  let restored = false;
  const write = (s: string) => {
    try {
      stdout.write(s);
    } catch {
      /* terminal already gone (SIGHUP, closed pty) */
    }
  };
  write(ENTER_SEQ);
  return {
    get restored() {
      return restored;
    },
    restore() {
      if (restored) return;
      restored = true;
      try {
        beforeLeave();
      } catch {
        /* keep restoring */
      }
      try {
        if (stdin.isTTY) stdin.setRawMode(false);
      } catch {
        /* not a tty any more */
      }
      write(LEAVE_SEQ);
    },
  };
}
