/**
 * The full-screen lifecycle shared by the monitor and the fleet (`--all`): alternate screen, mouse, job
 * control, signals, crash handling, hang-up.
 */
import React from 'react';
import { render, type Instance } from 'ink';
import { printErr } from '../io/output.js';
import { releaseHungUpStdio, stdioTerminals, terminalHungUp } from './hangup.js';
import { installJobControl } from './job-control.js';
import { inForeground, shellCanResume } from '../io/job-shell.js';
import { asciiText, localeIsUtf8 } from '../io/glyphs.js';
import { CLEAR_SEQ, enterFullScreen, rereadSize, type HeldWithScreen } from './screen.js';

export interface FullScreenControls {
  exit(): void;
  redraw(): void;
  suspend<T>(fn: () => Promise<T>): Promise<T>;
}

/** What the caller does around the full screen's end, and what it holds with the screen. */
export interface FullScreenDone {
  /** `code`: the exit status (0 for the app's own exit; 129 a hang-up, 143 SIGTERM, 1 a crash, …). */
  beforeRestore(code: number): void;
  afterRestore(): Promise<void>;
  /** The terminal title kept now (terminal/title.ts): popped at Ctrl-Z and for $EDITOR, set again after. */
  title?(): HeldWithScreen | undefined;
}

/** Runs `element` full screen until it exits; resolves to the exit status. */
export function runFullScreen(
  mouse: boolean,
  element: (ctl: FullScreenControls) => React.ReactElement,
  done: FullScreenDone,
): Promise<number> {
  const { stdout, stdin } = process;
  return new Promise<number>((resolve) => {
    let instance: Instance | null = null;
    let shown: React.ReactElement | null = null;
    let finished = false;
    const inkOut = localeStdout(stdout);
    const term = enterFullScreen(stdout, stdin, {
      mouse,
      beforeLeave: () => {
        instance?.unmount();
        instance = null;
      },
      held: done.title,
    });

    const finish = (code: number, error?: unknown) => {
      if (finished) return;
      finished = true;
      done.beforeRestore(code);
      term.restore();
      if (error !== undefined) {
        const e = error as Error;
        printErr(
          `omc-top crashed: ${e?.stack ?? String(error)}\nThe terminal was restored. Please report this with the lines above.\n`,
        );
      }
      void done.afterRestore().finally(() => resolve(code));
    };

    const mount = () => {
      // Raw (no echo) before the first frame, not in Ink's first effect after it: keys typed while that frame is
      // on screen would otherwise be echoed by the tty as text (an escape sequence as `^[…`) and held as a line.
      try {
        if (stdin.isTTY) stdin.setRawMode(true);
      } catch {
        /* not a tty any more: Ink's own call says the same */
      }
      // Every fresh instance (the start, Ctrl-L, fg, back from $EDITOR) draws at the size the terminal has now.
      rereadSize(stdout);
      shown = element({ exit: () => finish(0), redraw, suspend });
      instance = render(shown, {
        stdout: inkOut,
        exitOnCtrlC: false,
        patchConsole: false,
        maxFps: 30,
        incrementalRendering: true,
      });
    };
    // Ink 6 has no "forget what is on screen" call; a fresh instance on a cleared screen is the reliable repaint.
    const redraw = () => {
      instance?.unmount();
      instance = null;
      term.write(CLEAR_SEQ);
      mount();
    };
    // $EDITOR and Ctrl-Z hand the terminal over the same way, and take it back the same way.
    const takeBack = () => {
      if (finished) return;
      term.enter();
      mount();
    };
    async function suspend<T>(fn: () => Promise<T>): Promise<T> {
      term.leave();
      try {
        return await fn();
      } finally {
        // A terminal that hung up while it was handed over ($EDITOR open in a killed tmux pane) is not taken back:
        // the first write to it would end the run (an 'error' on the next tick) before the caller had kept what
        // fn brought back (the text the editor wrote). The end comes a macrotask later, after the caller's own
        // continuation, with the hang-up's status, whether or not SIGHUP reaches this process.
        if (terminalHungUp()) setImmediate(() => finish(129));
        else takeBack();
      }
    }

    // Ink draws the tree it holds the moment the terminal resizes (its own 'resize' listener). That tree is still
    // cut for the old width: in a narrower terminal every full-width row wraps onto two, the screen scrolls, and
    // every later frame lands rows too low, leaving the old footer and problem lines on screen. So, before Ink's
    // listener, the tree is rendered again at the new size (Ink's rerender is synchronous; the size is read as it
    // renders, terminal/use-size.ts), and Ink's resize draws the right frame.
    const renderAtNewSize = () => {
      if (instance && shown) instance.rerender(React.cloneElement(shown));
    };
    stdout.prependListener('resize', renderAtNewSize);

    installJobControl({
      leave: () => term.leave(),
      enter: takeBack,
      canResume: () => shellCanResume(),
      inForeground: () => inForeground(),
    });
    process.on('SIGTERM', () => finish(143));
    process.on('SIGHUP', () => finish(129));
    process.on('SIGINT', () => finish(130));
    process.on('SIGQUIT', () => finish(131));
    process.on('uncaughtException', (e) => finish(1, e));
    process.on('unhandledRejection', (e) => finish(1, e));
    const wasTty = stdioTerminals();
    process.on('exit', () => {
      term.restore();
      releaseHungUpStdio(wasTty);
    });
    // A closed terminal (tmux pane killed, ssh dropped) shows up as EIO/EPIPE on write,
    // and as the end of input: in raw mode Ctrl-D is a key, so EOF only means the
    // terminal hung up. Without the latter, a process outside the terminal's session
    // (no SIGHUP) would linger until its next write. Whichever comes first, the
    // status is SIGHUP's, as when the signal wins the race.
    stdout.on('error', () => finish(129));
    stdin.on('end', () => finish(129));

    const crashAfter = Number(process.env.OMC_TOP_TEST_CRASH_AFTER_MS);
    if (Number.isFinite(crashAfter) && crashAfter > 0) {
      // Test hook: proves the terminal is restored after an uncaught error.
      setTimeout(() => {
        throw new Error('test crash requested by OMC_TOP_TEST_CRASH_AFTER_MS');
      }, crashAfter);
    }
    mount();
  });
}

/**
 * The stdout Ink draws to: every frame through the locale's text (io/glyphs.ts: ASCII where the locale is not UTF-8,
 * each glyph one character of its width, so Ink's layout holds); stdout itself where it is UTF-8. Everything but
 * `write` is stdout's own (its size, its 'resize' listeners).
 */
function localeStdout(stdout: NodeJS.WriteStream): NodeJS.WriteStream {
  if (localeIsUtf8()) return stdout;
  return new Proxy(stdout, {
    get(target, key) {
      if (key === 'write')
        return (chunk: unknown, ...rest: unknown[]) =>
          (target.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' ? asciiText(chunk) : chunk, ...rest);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
