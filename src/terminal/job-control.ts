/**
 * Ctrl-Z and fg for a full-screen program. In raw mode the terminal sends
 * Ctrl-Z as a byte, not SIGTSTP, so the input router turns it into a SIGTSTP
 * to ourselves; an outside `kill -TSTP` arrives the same way. Handling SIGTSTP
 * replaces the default stop, so we do what a shell expects first — leave the
 * alternate screen and go back to cooked mode (otherwise the prompt draws over
 * us and, after fg, keys echo until Enter) — then stop for real with SIGSTOP,
 * which cannot be caught. SIGCONT (fg, bg, kill -CONT) re-enters every mode the
 * start entered (terminal/screen.ts: one list) and the title, and repaints at the
 * size the terminal has now (a resize while stopped signalled the shell, not us);
 * raw mode comes back with the remounted UI. Continued in the background (`bg`,
 * or `kill -CONT` while the shell holds the terminal) it is not its terminal:
 * taking it there would put the shell on a blank alternate screen with mouse
 * reports on, and the mode change stops us again (SIGTTOU). So it keeps running
 * without the screen and takes it at the SIGCONT that comes with `fg`.
 */
export interface JobControlHooks {
  /** Put the terminal back as the shell wants it (unmount, cooked mode, leave the alternate screen). */
  leave(): void;
  /** Take it again: enter the alternate screen, remount, repaint. */
  enter(): void;
  /**
   * Whether anything can continue the process once stopped (io/job-shell.ts). Without a job-control shell a stop
   * is for good (a blank pane only `kill -CONT` brings back): the stop is then not made.
   */
  canResume?(): boolean;
  /** Whether our process group is the terminal's foreground group now (io/job-shell.ts `inForeground`). */
  inForeground?(): boolean;
}

export function installJobControl(hooks: JobControlHooks, proc: NodeJS.Process = process): () => void {
  // The terminal is handed back to the shell (left at our own stop, not taken again yet).
  let away = false;
  const onStop = () => {
    if (hooks.canResume?.() === false) return;
    // A stop while a background job (`bg`, then `kill -TSTP %1`) has nothing to hand back: it only stops.
    if (!away) {
      away = true;
      try {
        hooks.leave();
      } catch {
        /* stop anyway: the user asked for the shell */
      }
    }
    proc.kill(proc.pid, 'SIGSTOP');
  };
  const onContinue = () => {
    // A background job: the terminal stays the shell's; `fg` continues us again, in the foreground.
    if (hooks.inForeground?.() === false) return;
    // Continued after a SIGSTOP someone else sent (the terminal was not handed back): repaint all the same.
    if (!away) {
      try {
        hooks.leave();
      } catch {
        /* repaint below */
      }
    }
    away = false;
    hooks.enter();
  };
  proc.on('SIGTSTP', onStop);
  proc.on('SIGCONT', onContinue);
  return () => {
    proc.off('SIGTSTP', onStop);
    proc.off('SIGCONT', onContinue);
  };
}
