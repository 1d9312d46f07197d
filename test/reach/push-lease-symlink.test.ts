/**
 * A push lease file replaced by a symlink (or a directory, a FIFO) cannot be read or written safely: each omc-top
 * used to count the lease as free and push, so every one on the project sent the same item (6 copies of one). The
 * lease is refused instead: no omc-top on the project pushes while it stands, each surface that pushes says so in
 * one line, `doctor` names it, and once the file is removed pushes resume (the item still followed goes out once).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pushCheck } from '../../src/commands/doctor-push.js';
import { configPath } from '../../src/config/config-file.js';
import { LeasedPush } from '../../src/feeds/notify/push/leased-push.js';
import { ownStateDir, rootFileName } from '../../src/io/state-dir.js';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { item, liveProcess, ROOT } from '../helpers/leased-omc-top.js';

/** An omc-top on the project (a live process's pid), with what it sent and what it said. */
async function omcTop(dir: string, opts: { readonly?: boolean } = {}) {
  const proc = await liveProcess();
  const sent: string[] = [];
  const problems: string[] = [];
  const push = new LeasedPush(
    dir,
    ROOT,
    (m, done) => {
      sent.push(m.session ?? '');
      done('taken');
      return undefined;
    },
    { pid: proc.pid, readonly: opts.readonly, onProblem: (l) => problems.push(l) },
  );
  onTestFinished(() => push.dispose());
  return { sent, problems, push };
}

describe('a push lease that is not a plain file', () => {
  it('is refused: nobody pushes, each says why; removed, one pushes again', async ({ tempDir }) => {
    const dir = tempDir('lease-symlink-');
    const lease = path.join(dir, rootFileName('push-lease', ROOT));
    const elsewhere = path.join(dir, 'elsewhere.json');
    fs.writeFileSync(elsewhere, '{}');
    fs.symlinkSync(elsewhere, lease);
    const tops = [await omcTop(dir), await omcTop(dir), await omcTop(dir, { readonly: true })];
    for (const t of tops) t.push.offer([item(1)]);
    expect(tops.map((t) => t.sent)).toEqual([[], [], []]);
    for (const t of tops) {
      expect(t.problems).toEqual([
        `the push lease ${lease} is a symlink: refused; pushes held for this project (no omc-top on it pushes until it is removed)`,
      ]);
    }
    // Nothing was written through the link, and the link is left as it is.
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe('{}');
    expect(fs.lstatSync(lease).isSymbolicLink()).toBe(true);
    // Removed: the next look takes the lease; the item still followed goes out once.
    fs.unlinkSync(lease);
    for (const t of tops) t.push.offer([item(1)]);
    expect(tops.flatMap((t) => t.sent)).toEqual(['sess-1']);
    expect(tops[0]?.problems[1]).toBe(`the push lease ${lease} is a plain file again: pushes resume`);
  });

  it('a directory in its place is refused the same way', async ({ tempDir }) => {
    const dir = tempDir('lease-dir-');
    fs.mkdirSync(path.join(dir, rootFileName('push-lease', ROOT)));
    const tops = [await omcTop(dir), await omcTop(dir)];
    for (const t of tops) t.push.offer([item(2)]);
    expect(tops.flatMap((t) => t.sent)).toEqual([]);
    expect(tops[0]?.problems[0]).toMatch(/ is a directory: refused; pushes held/);
  });

  it('doctor names it', async ({ tempDir }) => {
    const home = tempDir('lease-doctor-');
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg'), CLAUDE_CONFIG_DIR: path.join(home, 'claude') };
    fs.mkdirSync(path.join(home, 'xdg', 'omc-top'), { recursive: true });
    fs.writeFileSync(
      configPath(env),
      JSON.stringify({ push: { channels: [{ type: 'ntfy', url: 'http://127.0.0.1:9/t' }] } }),
    );
    const state = ownStateDir(env);
    fs.mkdirSync(state, { recursive: true });
    const lease = path.join(state, rootFileName('push-lease', ROOT));
    expect((await pushCheck(env, false, ROOT)).status).toBe('ok');
    fs.symlinkSync('/dev/null', lease);
    const check = await pushCheck(env, false, ROOT);
    expect(check.status).toBe('broken');
    expect(check.summary).toBe(
      `the push lease ${lease} is a symlink: refused; pushes held for this project (no omc-top on it pushes until it is removed)`,
    );
  });
});
