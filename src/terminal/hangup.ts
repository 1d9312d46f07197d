/**
 * When the terminal is hung up (tmux pane killed, ssh dropped), every
 * terminal ioctl on it fails with EIO. Node 20 restores the terminal modes it
 * saw at start-up when the process exits, and aborts on that EIO ("Assertion
 * failed … ResetStdio", then SIGSEGV while printing the stack: a crash report
 * or core file for every closed pane). Fixed in later Node (nodejs/node#58200,
 * nodejs/node#51519); until then we close the stdio descriptors whose terminal is
 * gone, right before exiting, and Node skips descriptors that are closed.
 */
import fs from 'node:fs';
import tty from 'node:tty';

/** Which of fds 0-2 were terminals at start-up (call once, early). */
export function stdioTerminals(): boolean[] {
  return [0, 1, 2].map((fd) => tty.isatty(fd));
}

let released = false;

/**
 * Closes each fd that was a terminal and no longer answers as one (hung up).
 * Only the first call acts: a closed number may be reused by a later open.
 */
export function releaseHungUpStdio(wasTty: readonly boolean[]): number[] {
  const closed: number[] = [];
  if (released) return closed;
  released = true;
  for (const fd of [0, 1, 2]) {
    if (!wasTty[fd] || tty.isatty(fd)) continue;
    try {
      fs.closeSync(fd);
      closed.push(fd);
    } catch {
      /* already closed */
    }
  }
  return closed;
}

/** Whether the terminal omc-top was started in has hung up (stdin was one and no longer answers as one). */
export function terminalHungUp(): boolean {
  return process.stdin.isTTY === true && !tty.isatty(0);
}
