/**
 * `omc-top serve --host` in Debian's headless Chromium, against a real OpenSSH server
 * (test/fleet/sshd-harness.ts): the page shows a remote project's rows and what needs the user there; a cancel
 * from the page is confirmed with the fleet view's words and runs `omc-top cancel` on that machine, whose disk
 * then lacks the loop; an acknowledgement from the page lands in that machine's acknowledgements file; the
 * token and origin checks hold for remote actions as for local ones, and answers are refused for remote roots.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/commands/serve/server.js';
import { fleetSource } from '../../src/commands/serve/source.js';
import { parseHostSpec } from '../../src/config/host-spec.js';
import { LocalFleet } from '../../src/fleet/local.js';
import { RemoteFleet } from '../../src/fleet/remotes.js';
import { ackFileName } from '../../src/feeds/attention/acks.js';
import { CHROMIUM, launchChromium, type Browser } from '../helpers/chromium.js';
import { DEAD_PID, writeRegistry } from '../helpers/claude-files.js';
import { makeLive, sessionId } from '../helpers/sessions-gen.js';
import { scaled } from '../helpers/time-scale.js';
import { sshSkipReason, startSshRig } from '../fleet/sshd-harness.js';

const skip = sshSkipReason() ?? (fs.existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing`);
if (skip) console.warn(`serve --host tests skipped: ${skip}`);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Polls an expression in the page until `ok` says yes (a condition, not a sleep). */
async function pageWait<T>(browser: Browser, expression: string, ok: (v: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + scaled(30_000);
  let v = await browser.evaluate<T>(expression);
  while (!ok(v)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the page showed: ${JSON.stringify(v)}`);
    v = await browser.evaluate<T>(expression);
  }
  return v;
}

const text = (selector: string) => `(document.querySelector(${JSON.stringify(selector)}) || {}).textContent || ''`;
const click = (selector: string, label: string) =>
  `[...document.querySelectorAll(${JSON.stringify(selector + ' button')})].find((b) => b.textContent === ${JSON.stringify(label)}).click()`;

describe.skipIf(skip !== null)(
  'serve --host in headless Chromium over a real sshd',
  { timeout: scaled(150_000) },
  () => {
    it('shows a remote row and its item; a cancel and an acknowledgement from the page land on that machine', async () => {
      const base = fs.mkdtempSync(path.join('/tmp', 'omc-top-serve-remote-'));
      cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }));
      const loop = sessionId(921);
      const orphan = sessionId(922);
      const dir = path.join(base, 'shop');
      fs.mkdirSync(path.join(dir, '.omc', 'state', 'sessions'), { recursive: true });
      execFileSync('git', ['init', '-q', dir]);
      makeLive(path.join(dir, '.omc'), loop);
      makeLive(path.join(dir, '.omc'), orphan);
      const rig = await startSshRig([{ alias: 'boxa' }]);
      cleanups.push(() => rig.close());
      await rig.startSshd();
      // The second loop's Claude process is gone: an orphaned loop there, which needs the user.
      writeRegistry(rig.remoteClaudeDir, DEAD_PID, orphan, { status: 'busy', cwd: dir, procStart: '12345' });

      // As `serve --host boxa:<dir>` builds it (no push channel here).
      const fleet = new LocalFleet({ watch: 'none', local: false, env: { XDG_STATE_HOME: path.join(base, 'local') } });
      const remote = new RemoteFleet([parseHostSpec(`boxa:${dir}`)!], () => fleet.changed(), { ssh: rig.ssh });
      fleet.setExtra(() => remote.groups());
      fleet.start();
      remote.start();
      const source = fleetSource(fleet, remote, async () => {
        await Promise.all([remote.stop(), fleet.close()]);
      });
      const token = 'test-token-0123456789';
      const served = await startServer({ source, token, listen: '127.0.0.1', port: 0, readonly: false });
      cleanups.push(
        () => source.close(),
        () => served.close(),
      );
      const url = `http://127.0.0.1:${served.port}`;
      const browser = await launchChromium();
      cleanups.push(() => browser.close());
      await browser.navigate(`${url}/#${token}`);

      // The remote row and the item that needs the user there, under the host's heading.
      const row = `[data-session="${loop}"]`;
      await pageWait<string>(browser, text(row), (t) => /enforced/.test(t) && /ralph 4\/10/.test(t), 'the remote row');
      await pageWait<string>(browser, text('#count'), (t) => t === 'needs you: 1', 'the remote count');
      const need = await pageWait<string>(browser, text('[data-need]'), (t) => /orphaned loop/.test(t), 'the item');
      expect(need).toContain(orphan.slice(0, 8));
      expect(await browser.evaluate<string>(text('[data-root] h2'))).toBe(`shop @ boxa:${dir}`);

      // Remote actions pass the same token and origin checks as local ones.
      const post = (headers: Record<string, string>) =>
        fetch(`${url}/api/cancel/plan`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ root: `remote|boxa:${dir}`, session: loop }),
        }).then((r) => r.status);
      expect(await post({})).toBe(401);
      expect(await post({ 'x-omc-top-token': token, origin: 'http://evil.example' })).toBe(403);
      const answer = await fetch(`${url}/api/permission`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-omc-top-token': token },
        body: JSON.stringify({ root: `remote|boxa:${dir}`, request: 'r', digest: 'd', decision: 'allow' }),
      });
      expect(answer.status).toBe(501);
      expect(((await answer.json()) as { error: string }).error).toMatch(/answered on that machine/);

      // Cancel from the page: the fleet view's confirmation words, then omc-top cancel there, checked there.
      await browser.evaluate(click(row, 'Cancel'));
      const lines = await pageWait<string>(browser, text('#confirm-lines'), (t) => t.includes('Runs:'), 'the plan');
      expect(lines).toContain(`Runs: ssh boxa omc-top cancel session:${loop} --cwd '${dir}'`);
      await browser.evaluate(`document.getElementById('confirm-yes').click()`);
      const said = await pageWait<string>(
        browser,
        text('#message'),
        (t) => /took effect|did not|failed/.test(t),
        'the verdict',
      );
      expect(said).toMatch(new RegExp(`cancel on boxa:\\S+ took effect \\(checked there\\)`));
      expect(fs.existsSync(path.join(dir, '.omc', 'state', 'sessions', loop, 'ralph-state.json'))).toBe(false);
      await pageWait<string>(browser, text(row), (t) => !/enforced/.test(t), 'the cancelled row');

      // Acknowledge the remote item from the page: it lands in that machine's acknowledgements file.
      await browser.evaluate(click('[data-need]', 'Acknowledge'));
      const acked = await pageWait<string>(browser, text('#message'), (t) => /acknowledg/.test(t), 'the ack');
      expect(acked).toMatch(/acknowledged 1 item on boxa:\S+ \(seen there/);
      const ackFile = path.join(rig.dir, 'state', 'omc-top', ackFileName(fs.realpathSync(path.join(dir, '.omc'))));
      expect(fs.readFileSync(ackFile, 'utf8')).toContain(`orphaned:${orphan}/ralph@`);
      await pageWait<string>(browser, text('#count'), (t) => t === 'nothing needs you', 'the count to drop');
    });
  },
);
