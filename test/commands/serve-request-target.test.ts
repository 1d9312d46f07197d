/**
 * `serve` keeps running whatever one request holds. A request target starting with `//` (`<img src="http://
 * 127.0.0.1:8377//">` from any web page) was read as a URL's authority and killed serve ("Invalid URL"); each is
 * sent here on a raw socket, as written. And a fault while answering one request (here: the picture cannot be
 * made) answers that request 500 and is said once on serve's stderr; the next request is answered.
 */
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { startServer } from '../../src/commands/serve/server.js';
import { rawGet, rawStream, setSource } from '../helpers/serve-raw.js';
import { waitFor } from '../helpers/fixtures.js';

const TOKEN = 'test-token-0123456789';

async function serve() {
  const source = setSource();
  const problems: string[] = [];
  const served = await startServer({
    source,
    token: TOKEN,
    listen: '127.0.0.1',
    port: 0,
    readonly: true,
    onProblem: (line) => problems.push(line),
  });
  onTestFinished(() => served.close());
  return { port: served.port, source, problems };
}

const TARGETS = ['//', '///', '//x', '/\\', '/\\\\x', '//[', '//a:b@', '//x:99999', '//[::1', '*', 'http://[/'];

describe('serve: the request target', () => {
  it('a target starting with // (or any other odd one) is answered, without the token as any other, and serve keeps running', async () => {
    const { port } = await serve();
    for (const target of TARGETS) {
      // The checks come first: no token, no answer about the path.
      const bare = await rawGet(port, target);
      expect([400, 401], `${target}: ${bare.text.slice(0, 80)}`).toContain(bare.status);
      const withToken = await rawGet(port, target, { 'x-omc-top-token': TOKEN });
      expect([400, 404], `${target} with the token: ${withToken.text.slice(0, 80)}`).toContain(withToken.status);
      // A normal request is still answered after each.
      expect((await rawGet(port, '/')).status, `after ${target}`).toBe(200);
    }
    // A Host serve does not answer to is still refused first, whatever the path, and so is another origin.
    for (const target of ['//', '//x', '/']) {
      expect((await rawGet(port, target, { host: 'evil.example', 'x-omc-top-token': TOKEN })).status).toBe(421);
      const origin = { origin: 'http://evil.example', 'x-omc-top-token': TOKEN };
      expect((await rawGet(port, target, origin)).status).toBe(403);
    }
    expect((await rawGet(port, '/app.js?v=1')).status).toBe(200);
    expect((await rawGet(port, '/events', { 'x-omc-top-token': 'wrong' })).status).toBe(401);
  });

  it('a fault while answering one request answers it 500, is said once, and the next request is answered', async () => {
    const { port, source, problems } = await serve();
    source.failWith = new Error('the picture broke');
    for (let i = 0; i < 3; i++) {
      const r = await rawGet(port, '/events', { 'x-omc-top-token': TOKEN });
      expect(r.status).toBe(500);
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/the picture broke/);
    source.failWith = null;
    expect((await rawGet(port, '/')).status).toBe(200);
    // The stream answers again.
    const stream = rawStream(port, '/events', { 'x-omc-top-token': TOKEN });
    onTestFinished(() => void stream.socket.destroy());
    await waitFor(() => stream.text().includes('data: {"count":0,"roots":[]}\n\n'), { what: 'the first picture' });
    expect(stream.text()).toMatch(/^HTTP\/1\.1 200/);
  });
});
