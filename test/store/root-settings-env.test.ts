/**
 * OMC_STATE_DIR set in the `env` of Claude's settings files: OMC's hooks get it (Claude lays the settings' `env`
 * over its own environment; test/agent/hook-env.test.ts has the real CLI show it), so the root is where the real
 * OMC 5.5.0 getOmcRoot puts state with that value, whatever omc-top's own environment says. `--root` still wins.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRootAndOmc } from '../../src/store/omc-root.js';
import { noRootMessage } from '../../src/store/root.js';
import { omc55Root } from '../helpers/omc-plugin.js';

let base: string;
let home: string;
let config: string;
let proj: string;

const writeJson = (file: string, value: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
};

/** omc-top's own environment: no OMC_STATE_DIR unless given, Claude's config dir under the scratch home. */
const ownEnv = (extra: Record<string, string> = {}) => ({ HOME: home, CLAUDE_CONFIG_DIR: config, ...extra });
const resolve = (cwd: string, env = ownEnv(), rootOverride?: string) =>
  resolveRootAndOmc({ cwd, env, home, processes: false, override: '5.5.0', rootOverride }).res;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-root-settings-')));
  home = path.join(base, 'home');
  config = path.join(home, '.claude');
  fs.mkdirSync(config, { recursive: true });
  proj = path.join(base, 'proj');
  fs.mkdirSync(proj);
  execFileSync('git', ['init', '-q', proj]);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe("the root follows OMC_STATE_DIR from Claude's settings", () => {
  it("the project's settings.json: the root is OMC's, and says the file; omc-top's own value loses", () => {
    const central = path.join(base, 'central');
    const settings = path.join(proj, '.claude', 'settings.json');
    writeJson(settings, { env: { OMC_STATE_DIR: central } });
    try {
      const omc = omc55Root(proj, { HOME: home, OMC_STATE_DIR: central });
      expect(omc.startsWith(central + path.sep)).toBe(true);
      const res = resolve(proj);
      expect(res.root).toBe(omc);
      expect(res.rule).toBe('state-dir');
      expect(res.explain).toMatch(
        /^OMC_STATE_DIR\/proj-[0-9a-f]{16} \(set in the project's \.claude\/settings\.json\)$/,
      );
      // No .omc there yet: the "no .omc found" line names where the value came from.
      expect(noRootMessage(res)).toContain("(set in the project's .claude/settings.json)");
      // The shell omc-top runs in has another value: the hooks still get the settings' one.
      expect(resolve(proj, ownEnv({ OMC_STATE_DIR: path.join(base, 'elsewhere') })).root).toBe(omc);
      // --root wins over everything.
      const given = path.join(base, 'given', '.omc');
      expect(resolve(proj, ownEnv(), given).root).toBe(given);
    } finally {
      fs.rmSync(settings);
    }
  });

  it('the user\'s settings with a "~/…" value: a directory named ~ under the project, as OMC makes it, said so', () => {
    const settings = path.join(config, 'settings.json');
    writeJson(settings, { env: { OMC_STATE_DIR: '~/omc-state' } });
    try {
      const omc = omc55Root(proj, { HOME: home, OMC_STATE_DIR: '~/omc-state' });
      const res = resolve(proj);
      expect(path.resolve(proj, omc)).toBe(res.root);
      expect(res.root.startsWith(path.join(proj, '~', 'omc-state') + path.sep)).toBe(true);
      expect(res.explain).toMatch(/\(set in ~\/\.claude\/settings\.json\)$/);
      expect(res.notices).toContain(
        `OMC_STATE_DIR=~/omc-state (from ~/.claude/settings.json): neither Claude Code nor OMC expands "~", so OMC's hooks keep state under ${path.join(proj, '~', 'omc-state')}; write the full path to use your home directory`,
      );
    } finally {
      fs.rmSync(settings);
    }
  });

  it("an empty value in a settings file unsets it for the hooks: the project-local root, not omc-top's OMC_STATE_DIR", () => {
    const settings = path.join(proj, '.claude', 'settings.local.json');
    writeJson(settings, { env: { OMC_STATE_DIR: '' } });
    try {
      const res = resolve(proj, ownEnv({ OMC_STATE_DIR: path.join(base, 'central') }));
      expect(res.root).toBe(omc55Root(proj, { HOME: home, OMC_STATE_DIR: '' }));
      expect(res.root).toBe(path.join(proj, '.omc'));
    } finally {
      fs.rmSync(settings);
    }
  });
});
