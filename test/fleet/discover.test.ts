/**
 * Root discovery for --all: $OMC_STATE_DIR projects, $HOME/.omc, registry
 * cwds through OMC's own resolution, one root per identity.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverRoots, type DiscoverOptions } from '../../src/fleet/discover.js';
import { realGit, type GitProbe } from '../../src/io/git.js';
import type { RootResolution } from '../../src/store/root.js';
import { findClaudeConfigDir } from '../../src/store/claude/config-dir.js';
import { makeMachine, type Machine } from './fleet-tree.js';

let m: Machine | null = null;
afterEach(() => {
  m?.cleanup();
  m = null;
});

describe('discoverRoots', () => {
  it('finds OMC_STATE_DIR projects, ~/.omc and session cwds, each root once', () => {
    m = makeMachine();
    const state = path.join(m.base, 'omc-state');
    fs.mkdirSync(path.join(state, 'shop-0123456789abcdef', 'state'), { recursive: true });
    fs.mkdirSync(path.join(state, 'non-git', 'state'), { recursive: true });
    fs.mkdirSync(path.join(m.home, '.omc', 'state'), { recursive: true });
    const p = m.project('app', 0);
    // A second session in the same project, reached through a symlinked path: still one root.
    fs.symlinkSync(p.dir, path.join(m.base, 'app-link'));
    m.register('11111111-2222-4333-8444-555555555555', path.join(m.base, 'app-link'));
    const env = { ...m.env, OMC_STATE_DIR: state };
    const found = discoverRoots({ env, home: m.home, config: findClaudeConfigDir(env) });
    const labels = found.roots.map((r) => r.groupLabel).sort();
    expect(found.liveClaude).toHaveLength(2);
    // OMC_STATE_DIR set for the fleet, not for app's Claudes: their hooks keep app's state in app/.omc, found there.
    expect(labels).toEqual(['app', 'non-git', 'shop', '~/.omc']);
    expect(found.problems).toEqual([]);

    const without = discoverRoots({ env: m.env, home: m.home, config: findClaudeConfigDir(m.env) });
    expect(without.roots.map((r) => r.groupLabel).sort()).toEqual(['app', '~/.omc']);
    expect(without.roots.find((r) => r.groupLabel === 'app')?.sources).toEqual(['claude']);
  });

  it('runs git for a project once across rediscoveries, and again when its .git is replaced', () => {
    m = makeMachine();
    const p = m.project('app', 0);
    const calls: string[] = [];
    const counting: GitProbe = {
      ...realGit,
      topLevel: (d) => (calls.push(`topLevel ${d}`), realGit.topLevel(d)),
      commonDir: (d) => (calls.push(`commonDir ${d}`), realGit.commonDir(d)),
    };
    const opts: DiscoverOptions = {
      env: m.env,
      home: m.home,
      config: findClaudeConfigDir(m.env),
      git: counting,
      cache: new Map<string, RootResolution>(),
      groups: new Map(),
    };
    const first = discoverRoots(opts);
    expect(first.roots.find((r) => r.groupLabel === 'app')).toBeTruthy();
    const grouped = calls.filter((c) => c.startsWith('commonDir')).length;
    expect(grouped).toBeGreaterThan(0);
    calls.length = 0;
    for (let i = 0; i < 3; i++) expect(discoverRoots(opts).roots).toEqual(first.roots);
    expect(calls, 'git run by the rediscoveries').toEqual([]);

    // The project's .git replaced (re-cloned in place): grouped again.
    fs.renameSync(path.join(p.dir, '.git'), path.join(m.base, 'old-git'));
    fs.cpSync(path.join(m.base, 'old-git'), path.join(p.dir, '.git'), { recursive: true });
    discoverRoots(opts);
    expect(calls.some((c) => c.startsWith('commonDir'))).toBe(true);
  });
});
