/**
 * An in-memory terminal for rendering the whole App at a chosen size
 * (ink-testing-library fixes 100 columns): a stdout that keeps every frame
 * and can be resized, and a stdin that hands Ink one chunk per read, exactly
 * as a terminal's reads arrive.
 */
import { EventEmitter } from 'node:events';

export class FakeStdout extends EventEmitter {
  frames: string[] = [];
  isTTY = true;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
  lastFrame = () => this.frames[this.frames.length - 1] ?? '';
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

export class FakeStdin extends EventEmitter {
  isTTY = true;
  private queue: string[] = [];
  write(data: string): void {
    this.queue.push(data);
    this.emit('readable');
  }
  read = () => this.queue.shift() ?? null;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}
