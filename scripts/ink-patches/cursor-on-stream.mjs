// Ink hides the cursor with cli-cursor on the stream it draws on (the terminal), and cli-cursor's restore-cursor
// shows it again when the process exits, on process.stderr, whatever stderr is: `omc-top 2>err` left ESC[?25h in
// the file. Here the cursor is shown again on the stream it was hidden on, and only while it is still hidden there;
// a stream that is not a terminal is never written to (cli-cursor's own rule for hide and show).

const SHOW = '\u001B[?25h';
const HIDE = '\u001B[?25l';

/** The terminal the cursor is hidden on now (null: shown, or never hidden). */
let hiddenOn = null;
let hooked = false;

function showAtExit() {
  const stream = hiddenOn;
  hiddenOn = null;
  if (!stream) return;
  try {
    stream.write(SHOW);
  } catch {
    /* the terminal is gone: nothing to restore */
  }
}

/** cli-cursor's `show` and `hide`, as Ink's log-update calls them (always with its stream). */
export const cliCursor = {
  show(stream = process.stdout) {
    if (!stream.isTTY) return;
    hiddenOn = null;
    stream.write(SHOW);
  },
  hide(stream = process.stdout) {
    if (!stream.isTTY) return;
    if (!hooked) {
      hooked = true;
      process.once('exit', showAtExit);
    }
    hiddenOn = stream;
    stream.write(HIDE);
  },
};
