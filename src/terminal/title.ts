/**
 * The terminal title (OSC 2), as every omc-top screen sets it: the title the
 * terminal had is pushed on its title stack at start (XTWINOPS 22) and popped
 * back at exit (23); terminals without the stack ignore both. The text is
 * cleaned of control bytes: a project or host name never reaches the terminal
 * as a sequence.
 */
import { cleanLine } from '../io/sanitize.js';

export const PUSH_TITLE = '\x1b[22;0t';
export const POP_TITLE = '\x1b[23;0t';

/** The bytes that set the title to `text`. */
export const titleSequence = (text: string): string => `\x1b]2;${cleanLine(text)}\x07`;

/** A title kept by `keepTitle`. */
export interface TitleKeeper {
  /** Pops the old title back while the terminal is handed over (Ctrl-Z, $EDITOR); nothing is written until `resume`. */
  pause(): void;
  /** Pushes the title the terminal has now and sets ours again. */
  resume(): void;
  /** Pops the old title back for good. */
  stop(): void;
}

/**
 * Keeps the title at `text()`: pushes the old title, sets it now, sets it again on `onChange` when the text moved,
 * and pops the old one back when stopped (and while paused: a stopped omc-top's title would otherwise stay on the
 * shell's tab). Nothing at all is written when `enabled` is false (`--no-title`, or `"title": false` in the config
 * file).
 */
export function keepTitle(opts: {
  enabled: boolean;
  write(bytes: string): void;
  text(): string;
  /** Subscribes to what the text follows; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}): TitleKeeper {
  if (!opts.enabled) return { pause: () => undefined, resume: () => undefined, stop: () => undefined };
  let shown: string | null = null;
  let pushed = false;
  let stopped = false;
  const set = () => {
    if (!pushed) return;
    const t = opts.text();
    if (t === shown) return;
    shown = t;
    opts.write(titleSequence(t));
  };
  const push = () => {
    if (pushed || stopped) return;
    pushed = true;
    opts.write(PUSH_TITLE);
    shown = null;
    set();
  };
  const pop = () => {
    if (!pushed) return;
    pushed = false;
    opts.write(POP_TITLE);
  };
  push();
  const off = opts.onChange(set);
  return {
    pause: pop,
    resume: push,
    stop() {
      if (stopped) return;
      stopped = true;
      off();
      pop();
    },
  };
}
