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
 * raw mode comes back with the remounted UI.
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
}

export function installJobControl(hooks: JobControlHooks, proc: NodeJS.Process = process): () => void {
  let stopped = false;
  const onStop = () => {
    if (stopped || hooks.canResume?.() === false) return;
    stopped = true;
    try {
      hooks.leave();
    } catch {
      /* stop anyway: the user asked for the shell */
    }
    proc.kill(proc.pid, 'SIGSTOP');
  };
  const onContinue = () => {
    // Continued after a SIGSTOP someone else sent (the terminal was not handed back): repaint all the same.
    if (!stopped) {
      try {
        hooks.leave();
      } catch {
        /* repaint below */
      }
    }
    stopped = false;
    hooks.enter();
  };
  proc.on('SIGTSTP', onStop);
  proc.on('SIGCONT', onContinue);
  return () => {
    proc.off('SIGTSTP', onStop);
    proc.off('SIGCONT', onContinue);
  };
}
