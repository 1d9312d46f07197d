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

/**
 * Keeps the title at `text()`: pushes the old title, sets it now, sets it again on `onChange` when the text moved,
 * and pops the old one back when stopped. Nothing at all is written when `enabled` is false (`--no-title`, or
 * `"title": false` in the config file).
 */
export function keepTitle(opts: {
  enabled: boolean;
  write(bytes: string): void;
  text(): string;
  /** Subscribes to what the text follows; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
}): () => void {
  if (!opts.enabled) return () => undefined;
  let shown: string | null = null;
  const set = () => {
    const t = opts.text();
    if (t === shown) return;
    shown = t;
    opts.write(titleSequence(t));
  };
  opts.write(PUSH_TITLE);
  set();
  const off = opts.onChange(set);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    off();
    opts.write(POP_TITLE);
  };
}
