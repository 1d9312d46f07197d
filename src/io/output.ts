/**
 * The one exit point for what omc-top prints outside the full-screen app: the subcommands' text and
 * JSON, usage, errors on stderr. Every byte of text passes the one sanitiser here (io/sanitize.ts), so
 * a project directory, a file name or a message that quotes either cannot retitle, recolour or reorder
 * the user's terminal, whichever message carries it; every JSON document escapes the same characters.
 * A test (test/hostile/one-exit.test.ts) keeps every other write to stdout or stderr out of src/.
 *
 * The full-screen app writes through Ink and the terminal lifecycle (src/terminal/), and the attention
 * layer writes its own title and notification sequences; those are control sequences omc-top makes
 * itself, around text cleaned where it is built. They reach the terminal through `writeControl`.
 */
import fs from 'node:fs';
import { forLocale } from './glyphs.js';
import { cleanBlock, terminalSafeJson } from './sanitize.js';

/** Where text goes: tests pass their own; the default is the process's stdout and stderr. */
export interface TextSink {
  out(text: string): void;
  err(text: string): void;
}

/** Text for stdout: control bytes, escape sequences, bidi controls and line separators removed. */
export function printOut(text: string): void {
  write(process.stdout, cleanBlock(text));
}

/**
 * Text for stdout, cleaned, and whether it left this process: null once the write completed (handed to the kernel,
 * into the pipe of whoever reads it), else why not (`EPIPE`: the reader was gone). A hook says what it saw with it.
 */
export function printOutHandedOver(text: string): Promise<string | null> {
  return new Promise((resolve) => {
    const out = process.stdout;
    // A write to a pipe with no reader is also emitted as an error: not a crash, the answer to this call.
    const onError = (e: Error) => resolve(errorCode(e));
    out.on('error', onError);
    const done = (e?: Error | null) => {
      resolve(e ? errorCode(e) : null);
      // The error event of the same failure may follow this callback: keep the listener until then.
      setImmediate(() => out.off('error', onError));
    };
    try {
      out.write(cleanBlock(text), done);
    } catch (e) {
      done(e as Error);
    }
  });
}

const errorCode = (e: Error) => (e as NodeJS.ErrnoException).code ?? e.message;

/** Text for stderr, cleaned the same way. */
export function printErr(text: string): void {
  write(process.stderr, cleanBlock(text));
}

/** One JSON document on stdout (terminal-safe: nothing a terminal acts on, whatever the values hold). */
export function printJson(value: unknown, indent = 2): void {
  write(process.stdout, terminalSafeJson(value, indent) + '\n');
}

/** The process's own sink, every write cleaned. */
export const processSink: TextSink = { out: printOut, err: printErr };

/**
 * Bytes omc-top composed itself for the terminal it runs in (the alternate screen, mouse modes, the
 * title stack, a bell): never text from a file, which is cleaned where these sequences are built.
 */
export function writeControl(bytes: string): void {
  write(process.stdout, controlText(bytes));
}

// ---------------------------------------------------------------------------
// A write to stdout that failed: said once at exit, and the exit is not 0.

/**
 * The first failure of a write to stdout, whoever wrote (these functions, a JSON-lines stream, `afterFlush`): a
 * full disk (`> /dev/full`: ENOSPC), an I/O error. A reader that went away (EPIPE: `| head`) is not one: it asked for
 * no more, and the command ends quietly as before. The listener is also what keeps such an error from being an
 * uncaught one.
 */
let stdoutFailure: NodeJS.ErrnoException | null = null;
let stdoutWatched = false;

function watchStdout(): void {
  if (stdoutWatched) return;
  stdoutWatched = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') stdoutFailure ??= e;
  });
}
watchStdout();

/** The status of a run whose terminal hung up (SIGHUP's, 128 + 1). */
const HANGUP_STATUS = 129;

/** Node's "ENOSPC: no space left on device, write" as "no space left on device (ENOSPC)". */
function failureWords(e: NodeJS.ErrnoException): string {
  const m = /^([A-Z0-9_]+): (.+?)(?:, \w+)?$/.exec(e.message);
  return m ? `${m[2]} (${m[1]})` : e.code ? `${e.message} (${e.code})` : e.message;
}

/**
 * The exit status once stdout is flushed: `code`, unless a write to stdout failed (not EPIPE); then that is said on
 * stderr, `omc-top: cannot write to standard output: no space left on device (ENOSPC)`, and a `code` of 0 becomes
 * 1 (what `echo` gives), so a script does not take output it never got for a success.
 */
export function exitStatus(code: number): number {
  // 129: the terminal hung up, and that is why its writes failed (EIO): nothing new to say, to no one.
  if (code === HANGUP_STATUS) return code;
  const errored = (process.stdout as { errored?: NodeJS.ErrnoException | null }).errored ?? null;
  const e = stdoutFailure ?? (errored && errored.code !== 'EPIPE' ? errored : null);
  if (!e) return code;
  printErr(`omc-top: cannot write to standard output: ${failureWords(e)}\n`);
  return code === 0 ? 1 : code;
}

/** Exits with `exitStatus(code)` once stdout has flushed (process.exit right after a large write to a pipe cuts it). */
export function exitAfterFlush(code: number): void {
  afterFlush(() => process.exit(exitStatus(code)));
}

/** A title or a notification holds text: ASCII where the locale is not UTF-8, as the monitor's frames. */
const controlText = forLocale();

function write(stream: NodeJS.WriteStream, text: string): void {
  try {
    stream.write(text);
  } catch {
    /* the terminal or pipe is gone: nothing more can be said there */
  }
}

// ---------------------------------------------------------------------------
// Stopping: SIGINT and SIGTERM are answered at once, whatever a reader is doing.

let stopSignal: NodeJS.Signals | null = null;
const stopWaiters = new Set<() => void>();
let listening = false;

function onSignal(sig: NodeJS.Signals): void {
  stopSignal ??= sig;
  for (const w of [...stopWaiters]) w();
}

function listen(): void {
  if (listening) return;
  listening = true;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Calls `cb` on the first SIGINT or SIGTERM (at once if one came already); returns the unsubscribe. */
export function onStopSignal(cb: () => void): () => void {
  listen();
  let called = false;
  const once = () => {
    if (called) return;
    called = true;
    stopWaiters.delete(once);
    cb();
  };
  stopWaiters.add(once);
  if (stopSignal !== null) once();
  return () => stopWaiters.delete(once);
}

/**
 * Runs `then` once everything written to stdout has been handed to the kernel (process.exit right
 * after a large write to a pipe would cut it), or at once on SIGINT / SIGTERM, before or during the
 * wait: a reader that stopped reading must not keep omc-top from exiting when it is asked to.
 */
export function afterFlush(then: () => void): void {
  let done = false;
  let off: () => void = () => undefined;
  const once = () => {
    if (done) return;
    done = true;
    off();
    then();
  };
  // A signal that came already (it stopped a `watch`) calls `once` right here.
  off = onStopSignal(once);
  if (done) return;
  try {
    process.stdout.write('', once);
  } catch {
    once();
  }
}

// ---------------------------------------------------------------------------
// JSON-lines streams with a reader that may stop reading.

/** What a stream holds for a slow reader before lines are dropped (counted) or producers wait. */
export const STREAM_MAX_BUFFERED_BYTES = 1024 * 1024;

interface LineSink {
  write(chunk: string): boolean;
  readonly writableLength: number;
  once(event: 'drain', cb: () => void): unknown;
}

/** Whether a descriptor is a pipe or a socket: a reader there can go away (a file or a terminal has none to lose). */
export function hasReaderToLose(fd: number): boolean {
  try {
    const st = fs.fstatSync(fd);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/**
 * A JSON-lines stream (`watch --json`) whose memory is bounded whatever the reader does. While more
 * than `maxBufferedBytes` wait for the reader (a paused pager, a stalled pipe), event lines are dropped
 * and counted, and state-based producers wait for room (`hasRoom`, `onRoom`) and then send the state as
 * it is by then. When the reader catches up, one `lagged` line says how many lines were dropped.
 */
export class LineStream {
  private dropped = 0;
  private waiting = false;
  private readonly roomWaiters: Array<() => void> = [];
  private lastPut = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sink: LineSink,
    private readonly opts: {
      lagged(dropped: number): string;
      maxBufferedBytes?: number;
      /**
       * A line written after `afterMs` with nothing else written. A pipe's writer learns that its reader has gone
       * only by writing (EPIPE): `watch --json | head -1` on a quiet project would otherwise wait for the next change,
       * hours on an idle one. Only for a pipe or socket (a terminal or a file has no reader to lose).
       */
      idle?: { afterMs: number; line(): string };
    },
  ) {
    const idle = opts.idle;
    if (idle) {
      this.lastPut = Date.now();
      // One wake per `afterMs` at most, busy or quiet: each looks how long the stream has been quiet.
      const tick = () => {
        const quiet = Date.now() - this.lastPut;
        if (quiet >= idle.afterMs && this.hasRoom) this.put(idle.line());
        this.idleTimer = setTimeout(tick, quiet >= idle.afterMs ? idle.afterMs : idle.afterMs - quiet);
        // The stream never keeps the process alive by itself: what it reports on does.
        this.idleTimer.unref();
      };
      this.idleTimer = setTimeout(tick, idle.afterMs);
      this.idleTimer.unref();
    }
  }

  /** Ends the idle line's timer (the stream's writer is done). */
  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  get hasRoom(): boolean {
    return this.sink.writableLength < (this.opts.maxBufferedBytes ?? STREAM_MAX_BUFFERED_BYTES);
  }

  /**
   * A line that is state, not an event (the snapshot, "ready", the first rows): always written. What
   * these add is bounded by the size of the state, not by how long the reader stays away.
   */
  always(text: string): void {
    this.flushLagged();
    this.put(text);
  }

  /** One event line (with its newline): written, or dropped and counted while the reader is behind. */
  line(text: string): void {
    if (!this.hasRoom) {
      this.dropped++;
      this.waitForRoom();
      return;
    }
    this.flushLagged();
    this.put(text);
  }

  /** Runs `cb` once the reader has caught up (at once when there is room now). */
  onRoom(cb: () => void): void {
    if (this.hasRoom) return cb();
    this.roomWaiters.push(cb);
    this.waitForRoom();
  }

  private flushLagged(): void {
    if (this.dropped === 0) return;
    const n = this.dropped;
    this.dropped = 0;
    this.put(this.opts.lagged(n));
  }

  private waitForRoom(): void {
    if (this.waiting) return;
    this.waiting = true;
    this.sink.once('drain', () => {
      this.waiting = false;
      if (!this.hasRoom) return this.waitForRoom();
      this.flushLagged();
      for (const cb of this.roomWaiters.splice(0)) cb();
    });
  }

  private put(text: string): void {
    this.lastPut = Date.now();
    try {
      this.sink.write(text);
    } catch {
      /* the reader is gone: the stream's 'error' ends the run */
    }
  }
}
