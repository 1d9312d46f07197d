/**
 * detectOmcInstall against the plugin files the real Claude Code CLI wrote
 * (test/fixtures/claude-code-plugins), with the real OMC packages' manifests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bookFor } from '../../src/store/omc-books.js';
import { afterEach, describe, expect, it } from 'vitest';
import { detectOmcInstall, rulesFor } from '../../src/store/omc-install.js';
import { REPO } from '../helpers/fixtures.js';
import { OMC444, OMC55 } from '../helpers/omc-packages.mjs';

const FIX = path.join(REPO, 'test', 'fixtures', 'claude-code-plugins');

let tmp: string | null = null;
afterEach(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  tmp = null;
});

/** A Claude config dir and a project laid out as the CLI left them, paths rewritten to this run. */
function world(opts: { userEnabled: boolean; projectEnabled: boolean; cachedPackage: string }) {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-install-'));
  const config = path.join(tmp, 'home', '.claude');
  const project = path.join(tmp, 'proj');
  const rewrite = (text: string) =>
    text.replaceAll('/tmp/cc-verdict/home/.claude', config).replaceAll('/tmp/cc-verdict/proj', project);
  const install = path.join(config, 'plugins', 'cache', 'omc', 'oh-my-claudecode', '5.5.0');
  fs.mkdirSync(install, { recursive: true });
  fs.copyFileSync(path.join(opts.cachedPackage, 'package.json'), path.join(install, 'package.json'));
  fs.writeFileSync(
    path.join(config, 'plugins', 'installed_plugins.json'),
    rewrite(fs.readFileSync(path.join(FIX, 'installed_plugins.json'), 'utf8')),
  );
  const user = JSON.parse(fs.readFileSync(path.join(FIX, 'user-settings.json'), 'utf8'));
  user.enabledPlugins['oh-my-claudecode@omc'] = opts.userEnabled;
  fs.writeFileSync(path.join(config, 'settings.json'), JSON.stringify(user));
  fs.mkdirSync(path.join(project, '.claude'), { recursive: true });
  if (opts.projectEnabled)
    fs.copyFileSync(path.join(FIX, 'project-settings.json'), path.join(project, '.claude', 'settings.json'));
  return {
    env: {
      HOME: path.join(tmp, 'home'),
      CLAUDE_CONFIG_DIR: config,
      PATH: '',
      NPM_CONFIG_PREFIX: path.join(tmp, 'npm'),
    },
    project,
  };
}

describe('which OMC runs the hooks', () => {
  it('the user-scope plugin the CLI installed: version from the cached package', () => {
    const w = world({ userEnabled: true, projectEnabled: false, cachedPackage: OMC55 });
    const r = detectOmcInstall({ env: w.env, projectDir: w.project });
    expect(r).toMatchObject({ version: '5.5.0', assumed: false, rules: '5.5.0' });
    expect(r.source).toContain('user settings');
  });

  it('disabled for the user, enabled for the project: the project entry decides', () => {
    const w = world({ userEnabled: false, projectEnabled: true, cachedPackage: OMC444 });
    const r = detectOmcInstall({ env: w.env, projectDir: w.project });
    expect(r).toMatchObject({ version: '4.4.4', rules: '4.4.4', assumed: false });
    expect(r.source).toContain('project settings');
  });

  it('disabled everywhere: not the plugin; nothing else → the newest rules, marked assumed', () => {
    const w = world({ userEnabled: false, projectEnabled: false, cachedPackage: OMC55 });
    const r = detectOmcInstall({ env: w.env, projectDir: w.project });
    expect(r).toMatchObject({ version: null, assumed: true, rules: '5.5.0' });
    expect(r.candidates.some((c) => c.source.startsWith('plugin'))).toBe(false);
  });

  it('CLAUDE_PLUGIN_ROOT wins over the registry; --omc-version wins over everything', () => {
    const w = world({ userEnabled: true, projectEnabled: false, cachedPackage: OMC55 });
    const env = { ...w.env, CLAUDE_PLUGIN_ROOT: OMC444 };
    expect(detectOmcInstall({ env, projectDir: w.project })).toMatchObject({
      version: '4.4.4',
      source: 'CLAUDE_PLUGIN_ROOT',
      rules: '4.4.4',
    });
    expect(detectOmcInstall({ env, projectDir: w.project, override: '5.5.0' })).toMatchObject({
      version: '5.5.0',
      source: '--omc-version',
      rules: '5.5.0',
    });
  });

  it('a global npm install (the legacy setup) when no plugin is enabled', () => {
    const w = world({ userEnabled: false, projectEnabled: false, cachedPackage: OMC55 });
    const dir = path.join(w.env.NPM_CONFIG_PREFIX, 'lib', 'node_modules', 'oh-my-claude-sisyphus');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(OMC444, 'package.json'), path.join(dir, 'package.json'));
    expect(detectOmcInstall({ env: w.env, projectDir: w.project })).toMatchObject({
      version: '4.4.4',
      source: 'global npm install (prefix from npm_config_prefix)',
      rules: '4.4.4',
    });
  });

  it('maps versions to rule books (issue 27: every 4.x after 4.6.0 by the 4.15.10 book, not 5.5.0)', () => {
    const books = ['4.2.0', '4.4.4', '4.5.2', '4.6.1', '4.9.2', '4.15.10', '5.2.0', '5.5.0', '5.6.1', null].map((v) => {
      const b = bookFor(v);
      return `${v} ${b.rules}${b.exact ? '' : ' approx'}`;
    });
    expect(books).toEqual([
      '4.2.0 4.4.4 approx',
      '4.4.4 4.4.4',
      '4.5.2 4.4.4 approx',
      '4.6.1 4.15.10 approx',
      '4.9.2 4.15.10 approx',
      '4.15.10 4.15.10',
      '5.2.0 5.5.0 approx',
      '5.5.0 5.5.0',
      '5.6.1 5.5.0 approx',
      'null 5.5.0 approx',
    ]);
    expect(rulesFor('4.15.10')).toBe('4.15.10');
    // A version with no book of its own says what is known to differ.
    expect(bookFor('4.8.0').differences.join('\n')).toContain('no awaiting-confirmation window');
    expect(bookFor('5.6.1').differences.join('\n')).toContain('budget-guard');
  });
});
