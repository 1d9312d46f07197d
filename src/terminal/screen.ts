/**
 * Full-screen mode for Ink 6 (which has no alternateScreen option): we enter
 * the alternate screen, bracketed paste and mouse reports ourselves, and put
 * the terminal back on every way out and every time we hand it over (Ctrl-Z,
 * $EDITOR). The modes are one list, entered and left by one pair of functions,
 * so the modes taken back after `fg` or the editor are always those of the
 * start (a mode entered in one place and forgotten in another is how the wheel
 * once stopped working after Ctrl-Z). The order matters (found by running Ink
 * 6.8 in tmux): unmount Ink first, then cooked mode, then leave the alternate
 * screen and show the cursor; leaving first lets Ink repaint its last frame
 * onto the user's shell screen.
 */

/** One terminal mode: the bytes that turn it on and those that turn it off. */
interface Mode {
  on: string;
  off: string;
}

/** The alternate screen, cleared, the cursor at its top left. The cursor itself is Ink's: it hides it as it draws. */
const ALTERNATE_SCREEN: Mode = { on: '\u001b[?1049h\u001b[2J\u001b[H', off: '\u001b[?1049l\u001b[?25h' };
/** A paste arrives as one bracketed block (terminal/keys.ts), not as keys. */
const BRACKETED_PASTE: Mode = { on: '\u001b[?2004h', off: '\u001b[?2004l' };
/** SGR mouse reports (ESC[<b;x;yM), for the wheel; off with --no-mouse. */
const MOUSE: Mode = { on: '\u001b[?1000h\u001b[?1006h', off: '\u001b[?1006l\u001b[?1000l' };

/** The modes of a full screen, in the order they are entered (left in the reverse order). */
const modes = (mouse: boolean): Mode[] => [ALTERNATE_SCREEN, BRACKETED_PASTE, ...(mouse ? [MOUSE] : [])];

/** The bytes that enter every mode of a full screen. */
export const enterSequence = (mouse: boolean): string =>
  modes(mouse)
    .map((m) => m.on)
    .join('');

/**
 * The bytes that leave every mode. Mouse reports are turned off even when they were never turned on: a terminal
 * left reporting by a program before us would otherwise type escape sequences into the shell.
 */
export const LEAVE_SEQ = modes(true)
  .reverse()
  .map((m) => m.off)
  .join('');

/** Clears the screen and homes the cursor: the ground of a fresh Ink instance (Ctrl-L). */
export const CLEAR_SEQ = '\u001b[2J\u001b[H';

/** Something else the terminal holds for us while the screen is ours (the title): let go of and taken back with it. */
export interface HeldWithScreen {
  pause(): void;
  resume(): void;
}

export interface TerminalHandle {
  /** Hands the terminal back for a while (Ctrl-Z, $EDITOR): `beforeLeave`, cooked mode, every mode left. */
  leave(): void;
  /** Takes it again: every mode the start entered, and what is held with it. Raw mode comes back with the UI. */
  enter(): void;
  /** Writes one of the sequences above (a terminal already gone is not an error). */
  write(bytes: string): void;
  /** Hands the terminal back for good. Idempotent; safe to call from signal handlers and 'exit'. */
  restore(): void;
  readonly restored: boolean;
}

export function enterFullScreen(
  stdout: NodeJS.WriteStream,
  stdin: NodeJS.ReadStream,
  opts: {
    mouse: boolean;
    /** Unmounts the UI: called before cooked mode and before the modes are left. */
    beforeLeave(): void;
    /** What is held with the screen now (the monitor's title changes with its root). */
    held?(): HeldWithScreen | undefined;
  },
): TerminalHandle {
  let restored = false;
  let away = false;
  const write = (s: string) => {
    try {
      stdout.write(s);
    } catch {
      /* terminal already gone (SIGHUP, closed pty) */
    }
  };
  const leaveModes = () => {
    try {
      opts.beforeLeave();
    } catch {
      /* keep restoring */
    }
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {
      /* not a tty any more */
    }
    write(LEAVE_SEQ);
  };
  write(enterSequence(opts.mouse));
  return {
    get restored() {
      return restored;
    },
    write,
    leave() {
      if (restored || away) return;
      away = true;
      try {
        opts.held?.()?.pause();
      } catch {
        /* the screen is left all the same */
      }
      leaveModes();
    },
    enter() {
      if (restored) return;
      away = false;
      write(enterSequence(opts.mouse));
      opts.held?.()?.resume();
    },
    restore() {
      if (restored) return;
      restored = true;
      leaveModes();
    },
  };
}

/**
 * Node takes a new terminal size only on SIGWINCH, which the kernel sends to the terminal's foreground process group:
 * a resize while we were stopped (the shell in the foreground) never reaches us, and we would keep drawing at the old
 * size until the next one. So the size is asked of the terminal again whenever the screen is drawn afresh. Node has
 * no public call that asks (`getWindowSize()` returns the size it last took); its tty stream's `_refreshSize` is what
 * its own SIGWINCH handler calls (asks the kernel; on a change sets columns and rows, then emits 'resize'), so it is
 * called when there, and otherwise the same handler is reached by a SIGWINCH to ourselves (the new size then comes a
 * moment later, through the resize path).
 */
export function rereadSize(stdout: NodeJS.WriteStream, proc: NodeJS.Process = process): void {
  if (!stdout.isTTY) return;
  const refresh = (stdout as { _refreshSize?: unknown })._refreshSize;
  if (typeof refresh === 'function') {
    try {
      refresh.call(stdout);
    } catch {
      /* the terminal is gone: its 'error' says so */
    }
    return;
  }
  try {
    proc.kill(proc.pid, 'SIGWINCH');
  } catch {
    /* no such signal here: the next real resize is taken */
  }
}
