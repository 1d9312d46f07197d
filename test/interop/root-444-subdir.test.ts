/**
 * OMC 4.4.4 keeps state in `<the hook's cwd>/.omc` (no git top level): a Claude started in a subdirectory of a
 * repository keeps it there. `omc-top --cwd pkg --omc-version 4.4.4` reads that directory, as the real keyword hook
 * run with that cwd wrote it; run at the top level it reads the top level's, and says once where else state is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookEnv } from '../helpers/stop-hook.js';
import { BUNDLE } from '../helpers/attention-surfaces.js';
import { scaled } from '../helpers/time-scale.js';
import { OMC444 } from '../helpers/omc-packages.mjs';

const S = '4a4a4a4a-4444-4444-8444-444444444444';
let base: string | null = null;
afterEach(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
  base = null;
});

describe('OMC 4.4.4 started in a subdirectory of a repository', () => {
  it("--cwd pkg reads pkg/.omc, where 4.4.4's own keyword hook run there wrote the ultrawork", () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-444sub-'));
    const repo = path.join(base, 'repo');
    const pkg = path.join(repo, 'pkg');
    fs.mkdirSync(pkg, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    const home = path.join(base, 'home');
    fs.mkdirSync(home);
    // What Claude Code started in pkg/ does on "ulw …": 4.4.4's UserPromptSubmit hook, its cwd pkg/.
    const res = spawnSync(process.execPath, [path.join(OMC444, 'scripts', 'keyword-detector.mjs')], {
      cwd: pkg,
      env: hookEnv('4.4.4', home),
      input: JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: S, cwd: pkg, prompt: 'ulw fix it' }),
      encoding: 'utf8',
      timeout: scaled(60_000),
    });
    expect(res.status).toBe(0);
    expect(fs.existsSync(path.join(pkg, '.omc', 'state', 'sessions', S, 'ultrawork-state.json'))).toBe(true);
    expect(fs.existsSync(path.join(repo, '.omc'))).toBe(false);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      XDG_STATE_HOME: path.join(base, 'xdg'),
    };
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BUNDLE, '--json', '--omc-version', '4.4.4', ...args], {
        cwd: repo,
        env,
        encoding: 'utf8',
      });
    const sub = run(['--cwd', 'pkg']);
    expect(sub.status).toBe(0);
    const json = JSON.parse(sub.stdout) as { root: string; sessions: Array<{ id: string; status: string }> };
    expect(json.root).toBe(path.join(pkg, '.omc'));
    expect(json.sessions.find((s) => s.id === S)?.status).toBe('enforced');

    // From the top level: no .omc there, and the state in pkg/ named once (not twice in other words).
    const top = run([]);
    const notes = top.stderr.split('\n').filter((l) => l.startsWith('note:'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('pkg/.omc');
  });
});
