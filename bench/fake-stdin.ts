import { EventEmitter } from 'node:events';

/** Enough of a raw-mode TTY stdin for Ink, in process: `read` hands Ink the next key (null: none). */
export function fakeStdin(read: () => string | null) {
  return Object.assign(new EventEmitter(), {
    isTTY: true,
    setRawMode() {},
    setEncoding() {},
    ref() {},
    unref() {},
    read,
    resume() {},
    pause() {},
  });
}
