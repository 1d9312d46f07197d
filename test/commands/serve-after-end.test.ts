/**
 * serve never writes to an `/events` stream that takes no more. A change that comes just before close() has its
 * broadcast scheduled for the next turn of the event loop, when every stream's answer has already been ended: that
 * write (ERR_STREAM_WRITE_AFTER_END, on an answer with no error listener) was thrown out of the event loop, and
 * ended the process that ran serve. It took a page whose socket was still behind (serve holding part of a picture
 * for it): an ended answer to a page that had taken everything was already let go of by then.
 */
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { startServer } from '../../src/commands/serve/server.js';
import type { Picture } from '../../src/commands/serve/source.js';
import { rawStream, setSource } from '../helpers/serve-raw.js';
import { waitFor } from '../helpers/fixtures.js';

const TOKEN = 'test-token-0123456789';
const AUTH = { 'x-omc-top-token': TOKEN };
/** Picture number `k`: about 256 KB, all of it changing from one to the next (as in serve-stuck-stream.test.ts). */
const pictureNo = (k: number): Picture =>
  ({
    count: k,
    roots: [{ id: 'r', project: 'shop', rows: [], needs: [], note: `${k}:`.repeat(64 * 1024) }],
  }) as unknown as Picture;

/** The picture numbers a page's stream has carried so far (whole pictures and deltas alike). */
function countsSeen(): { seen: Set<number>; feed: (text: string) => void } {
  const seen = new Set<number>();
  let tail = ''; // a number cut between two chunks is read with the next
  const feed = (text: string) => {
    const s = tail + text;
    for (const m of s.matchAll(/"count":(\d+)[,}]/g)) seen.add(Number(m[1]));
    tail = s.slice(-32);
  };
  return { seen, feed };
}

/** Errors thrown out of the event loop while the test runs (serve runs in this process). */
function uncaught(): unknown[] {
  const seen: unknown[] = [];
  const listener = (e: unknown) => seen.push(e);
  process.on('uncaughtException', listener);
  onTestFinished(() => void process.off('uncaughtException', listener));
  return seen;
}

describe('serve: a stream that takes no more', () => {
  it('close() with a change in flight to a page that stopped reading: nothing is thrown, the streams end', async () => {
    const thrown = uncaught();
    const source = setSource(pictureNo(0));
    const served = await startServer({ source, token: TOKEN, listen: '127.0.0.1', port: 0, readonly: true });
    // Opened one after the other: streamStats() lists them in that order.
    const read = countsSeen();
    const reading = rawStream(served.port, '/events', AUTH, read.feed);
    onTestFinished(() => void reading.socket.destroy());
    await waitFor(() => read.seen.has(0), { what: 'the reading page’s first picture' });
    const stuck = rawStream(served.port, '/events', AUTH);
    onTestFinished(() => void stuck.socket.destroy());
    await waitFor(() => stuck.text().includes('"count":0'), { what: 'the stuck page’s first picture' });
    // The stuck page stops reading; the picture changes until serve holds some of it for that page (the kernel's
    // socket buffers full), not yet so much that it holds back (STREAM_BUFFER_LIMIT).
    stuck.socket.pause();
    let k = 0;
    while (served.streamStats()[1]!.buffered === 0) {
      expect(k, 'serve never held anything for the stuck page').toBeLessThan(400);
      source.set(pictureNo(++k));
      const want = k;
      await waitFor(() => read.seen.has(want), { what: `the reading page at picture ${want}` });
    }
    expect(served.streamStats()[1]!.behind).toBe(false);

    // The change's broadcast runs on the next turn of the loop, after close() has ended both answers.
    source.set(pictureNo(k + 1));
    await served.close();
    await waitFor(() => reading.socket.closed, { what: 'the reading page’s stream ended by serve' });

    expect(thrown).toEqual([]);
    expect(read.seen.has(k + 1)).toBe(false);
    expect(read.seen.has(k)).toBe(true);
  });
});
