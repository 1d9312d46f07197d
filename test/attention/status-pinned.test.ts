/**
 * A monitor pinned to a release (`--omc-version X`: "what would X do here") is a what-if, not the project's answer:
 * the project's `status --tmux` (every tmux client's line) must keep saying what the OMC running the hooks does, not
 * X's verdicts for as long as someone looks. The pinned writer's cache is marked so; an unpinned call reads the
 * files instead, a call pinned to the same release still takes it. The built bundle: a pinned `watch --json` keeps
 * the cache (as a pinned monitor does), `status` calls are separate processes as tmux runs them.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeProject, waitFor, writeLiveRalph, type TempProject } from '../helpers/fixtures.js';
import { writeRetiredUltrawork } from '../helpers/omc-plugin.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

describe('status --tmux beside a monitor pinned with --omc-version', () => {
  it('an unpinned call says what the assumed OMC does, not the pinned what-if; a call pinned the same way takes it', async () => {
    const p: TempProject = makeProject({ prefix: 'omc-top-pinned-' });
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-pinned-env-'));
    cleanups.push(
      () => p.cleanup(),
      () => fs.rmSync(base, { recursive: true, force: true }),
    );
    // Retired by OMC 5.5 (ultrawork alone is no longer enforced), enforced by 4.4.4's hook; a ralph beside it.
    writeRetiredUltrawork(p.root, 'aaaaaaaa-1111-4222-8333-444444444444');
    writeLiveRalph(p, { sessionId: 'bbbbbbbb-1111-4222-8333-444444444444', iteration: 2, max: 100 });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: path.join(base, 'home'),
      XDG_STATE_HOME: path.join(base, 'state'),
      XDG_CACHE_HOME: path.join(base, 'cache'),
      XDG_CONFIG_HOME: path.join(base, 'config'),
    };
    delete env.CI;
    const status = (...args: string[]) =>
      execFileSync(process.execPath, [BUNDLE, 'status', '--tmux', '--root', p.root, ...args], {
        env,
        encoding: 'utf8',
      });
    const unpinnedFresh = status('--fresh');
    const pinnedFresh = status('--fresh', '--omc-version', '4.4.4');
    expect(pinnedFresh).not.toBe(unpinnedFresh); // the two releases judge this tree differently

    const watch: ChildProcess = spawn(
      process.execPath,
      [BUNDLE, 'watch', '--json', '--omc-version', '4.4.4', '--root', p.root],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    cleanups.push(() => watch.kill('SIGKILL'));
    const stateDir = path.join(base, 'state', 'omc-top');
    const cache = await waitFor(
      () => {
        const f = fs.existsSync(stateDir) && fs.readdirSync(stateDir).find((n) => n.startsWith('status-'));
        return f ? (JSON.parse(fs.readFileSync(path.join(stateDir, f), 'utf8')) as Record<string, unknown>) : null;
      },
      { what: "the pinned watch's status cache", timeoutMs: 30_000 },
    );
    expect(cache).toMatchObject({ book: '4.4.4', pinned: true });
    expect(status()).toBe(unpinnedFresh);
    expect(status('--omc-version', '4.4.4')).toBe(pinnedFresh);
  });
});
