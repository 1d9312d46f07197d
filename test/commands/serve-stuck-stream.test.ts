/**
 * A page that stops reading its `/events` stream (a phone asleep behind `ssh -L`) is not buffered for without
 * limit: serve holds at most STREAM_BUFFER_LIMIT for it however often the picture changes (20 such streams and a
 * busy project took serve from 75 MB to 2.1 GB in a minute). A page reading meanwhile gets every picture; the
 * stuck one, once it reads again, holds the latest picture (sent whole once its socket drained).
 *
 * serve's own count of what it holds per stream is measured (Served.streamStats), never RSS. The kernel's socket
 * buffers take a few MB first, so the picture changes until serve has had to hold back (at most 400 changes).
 */
import http from 'node:http';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { APPLY_DELTA_JS, type PictureDelta } from '../../src/commands/serve/delta.js';
import { startServer, STREAM_BUFFER_LIMIT } from '../../src/commands/serve/server.js';
import type { Picture } from '../../src/commands/serve/source.js';
import { rawStream, setSource } from '../helpers/serve-raw.js';
import { waitFor } from '../helpers/fixtures.js';

const TOKEN = 'test-token-0123456789';
const applyDelta = new Function(`${APPLY_DELTA_JS}\nreturn applyDelta;`)() as (p: Picture, d: PictureDelta) => Picture;

/** Picture number `k`: about 256 KB, all of it changing from one to the next. */
const pictureNo = (k: number): Picture =>
  ({
    count: k,
    roots: [{ id: 'r', project: 'shop', rows: [], needs: [], note: `${k}:`.repeat(64 * 1024) }],
  }) as unknown as Picture;

/** A page's picture, as the page builds it from the stream's text as it comes (a whole picture, then deltas). */
function page() {
  let buf = '';
  const p = {
    picture: null as Picture | null,
    feed(text: string) {
      buf += text;
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const ev = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let type = 'message';
        for (const line of ev.split('\n')) {
          if (line.startsWith('event: ')) type = line.slice(7);
          else if (line.startsWith('data: ')) {
            const data = JSON.parse(line.slice(6));
            p.picture = type === 'delta' ? applyDelta(p.picture as Picture, data) : data;
          }
        }
      }
    },
  };
  return p;
}

describe('serve: a stream whose page stops reading', () => {
  it('holds at most the limit for it while the picture changes, a reading page gets every picture, and the stuck one is resynced whole', async () => {
    const source = setSource(pictureNo(0));
    const served = await startServer({ source, token: TOKEN, listen: '127.0.0.1', port: 0, readonly: true });
    onTestFinished(() => served.close());

    // The stuck page: its stream opened, then never read (the socket paused once the first picture came).
    const stuckPage = page();
    const stuck = rawStream(served.port, '/events', { 'x-omc-top-token': TOKEN }, (t) => stuckPage.feed(t));
    onTestFinished(() => void stuck.socket.destroy());
    await waitFor(() => stuckPage.picture?.count === 0, { what: 'the stuck page’s first picture' });
    stuck.socket.pause();
    expect(served.streamStats()).toHaveLength(1);

    // The reading page, through Node's client (the body de-chunked).
    const reading = page();
    const req = http.get(
      { host: '127.0.0.1', port: served.port, path: '/events', headers: { 'x-omc-top-token': TOKEN } },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (c: string) => reading.feed(c));
      },
    );
    req.on('error', () => undefined);
    onTestFinished(() => void req.destroy());
    await waitFor(() => reading.picture?.count === 0, { what: 'the reading page’s first picture' });

    const stuckStats = () => served.streamStats()[0]!;
    let k = 0;
    let behindAt = -1;
    // Changes until serve has held back from the stuck stream, then 20 more while it is behind.
    while (behindAt < 0 || k < behindAt + 20) {
      k++;
      source.set(pictureNo(k));
      const want = k;
      await waitFor(() => reading.picture?.count === want, {
        what: `the reading page at picture ${want}`,
        timeoutMs: 20_000,
      });
      const s = stuckStats();
      expect(s.peak, `picture ${k}: serve holds ${s.buffered} bytes for the stuck stream`).toBeLessThanOrEqual(
        STREAM_BUFFER_LIMIT,
      );
      if (behindAt < 0 && s.behind) behindAt = k;
      if (behindAt < 0) expect(k, 'serve never held back (the kernel took 100 MB?)').toBeLessThan(400);
    }
    expect(stuckStats().buffered).toBeLessThanOrEqual(STREAM_BUFFER_LIMIT);
    expect(reading.picture).toEqual(pictureNo(k));

    // The stuck page reads again: it ends with the latest picture, whole.
    stuck.socket.resume();
    await waitFor(() => stuckPage.picture?.count === k, {
      what: 'the stuck page at the latest picture',
      timeoutMs: 20_000,
    });
    expect(stuckPage.picture).toEqual(pictureNo(k));
    expect(stuckStats().behind).toBe(false);
  });
});
