/**
 * npm's global prefix, found as npm itself finds it (npm 10/11, @npmcli/config), so a global OMC installed under a
 * prefix the user set with `npm config set prefix ~/.npm-global` (npm's own advice against sudo, written to
 * `~/.npmrc`) is found where npm put it. In npm's order, the first that sets `prefix` decides:
 *  1. the environment: `npm_config_prefix`, its name in any case, an empty value not counting;
 *  2. the user config: `$npm_config_userconfig`, else `~/.npmrc`;
 *  3. the global config: `$npm_config_globalconfig`, else the user config's `globalconfig`, else
 *     `<default prefix>/etc/npmrc`;
 *  4. the default: `$PREFIX`, else the directory above the one holding node (`$DESTDIR` in front).
 * A project `.npmrc` cannot move the global prefix (npm refuses it), so none is read. A value is a path as npm
 * reads one: `${VAR}` replaced from the environment (`${VAR?}` empty when unset), `~/` at the start is the home
 * directory, a relative path is taken from the current directory. Only the `prefix` and `globalconfig` keys are
 * looked at, outside any `[section]`, the last line of a key winning as in npm's ini reader. Files are read
 * through the safe read path (a link followed: dotfile managers link `~/.npmrc`).
 */
import path from 'node:path';
import { readTextSync } from '../io/safe-fs/index.js';
import { followedStampKey } from '../io/file-stamp.js';
import { homeDir } from '../io/home-dir.js';
import { shownPath } from '../io/shown-path.js';

export interface NpmPrefix {
  /** The global prefix: global packages are in `<dir>/lib/node_modules`. */
  dir: string;
  /** Where it came from, in words (paths escaped): "npm_config_prefix", "~/.npmrc", "/usr/etc/npmrc", "next to node (…)". */
  from: string;
}

/** An npmrc is a few lines; a larger one is cut (what is past the cut is not looked at). */
const NPMRC_MAX_BYTES = 256 * 1024;

/** The value of an `npm_config_<key>` variable as npm takes it (any case; the last non-empty one). */
function envConfig(env: NodeJS.ProcessEnv, key: string): string | null {
  let found: string | null = null;
  for (const [name, value] of Object.entries(env))
    if (name.toLowerCase() === `npm_config_${key}` && typeof value === 'string' && value !== '') found = value;
  return found;
}

/** `${VAR}` and `${VAR?}` replaced as npm replaces them; a backslash before `$` keeps the text. */
export function npmEnvReplace(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/(?<!\\)(\\*)\$\{([^${}?]+)(\?)?\}/g, (whole, esc: string, name: string, opt?: string) => {
    if (esc.length % 2 === 1) return whole.slice((esc.length + 1) / 2);
    const value = env[name] ?? (opt === '?' ? '' : `\${${name}}`);
    return esc.slice(esc.length / 2) + value;
  });
}

/** A path-typed npm setting: trimmed, variables replaced, `~/` the home directory, made absolute. */
export function npmPathValue(raw: string, env: NodeJS.ProcessEnv): string {
  const text = npmEnvReplace(raw.trim(), env);
  return text.startsWith('~/') ? path.resolve(homeDir(env), text.slice(2)) : path.resolve(text);
}

/** An ini value as npm's reader takes it: quoted (JSON for double quotes), or up to an unescaped `;` or `#`. */
function iniValue(raw: string): string {
  const v = raw.trim();
  const quoted = (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"));
  if (quoted) {
    const inner = v.startsWith("'") ? v.slice(1, -1) : v;
    try {
      const parsed: unknown = JSON.parse(inner);
      return typeof parsed === 'string' ? parsed : inner;
    } catch {
      return inner;
    }
  }
  let out = '';
  for (let i = 0; i < v.length; i++) {
    const c = v.charAt(i);
    if (c === ';' || c === '#') break;
    if (c !== '\\') out += c;
    else if (i + 1 < v.length) {
      const next = v.charAt(++i);
      out += ';#\\'.includes(next) ? next : `\\${next}`;
    } else out += '\\';
  }
  return out.trim();
}

/**
 * The top-level string value of `key` in an npmrc's text (null: not set there). `key` without `=` is npm's `true`,
 * not a path, so it does not count; neither does a line inside a `[section]`.
 */
export function npmrcValue(text: string, key: string): string | null {
  let found: string | null = null;
  for (const line of text.split(/[\r\n]+/)) {
    if (/^\s*([;#]|$)/.test(line)) continue;
    if (/^\[[^\]]*\]\s*$/.test(line)) return found;
    const eq = line.indexOf('=');
    if (eq <= 0 || iniValue(line.slice(0, eq)) !== key) continue;
    const value = iniValue(line.slice(eq + 1));
    found = value === 'true' || value === 'false' || value === 'null' ? null : value;
  }
  return found;
}

/** An npmrc's text, or null when there is none (or it cannot be read here: npm would not have it either). */
export function readNpmrc(file: string): string | null {
  // Asked on every look for the project's OMC (every 5 s while watching): read again only when its stat changed.
  const stamp = followedStampKey(file);
  const had = npmrcs.get(file);
  if (had && stamp !== null && had.stamp === stamp) return had.text;
  const r = readTextSync(path.dirname(file), path.basename(file), NPMRC_MAX_BYTES, {
    followLink: true,
    rootLabel: 'npm config',
  });
  const text = r.ok ? r.text : null;
  if (npmrcs.size > 16) npmrcs.clear();
  if (stamp !== null) npmrcs.set(file, { stamp, text });
  return text;
}

/** Each npmrc read, by path, with the stat it was read at (followed: a dotfiles link changes at its target). */
const npmrcs = new Map<string, { stamp: string; text: string | null }>();

/** A file in words, `~/x` under the home directory, escaped as every path shown is (shownPath). */
function homeWords(file: string, env: NodeJS.ProcessEnv): string {
  const home = homeDir(env);
  const rel = path.relative(home, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? `~/${shownPath(rel)}` : shownPath(file);
}

/**
 * npm's global prefix for this environment (see the top of this file); `execPath` is node's own path, `read` how an
 * npmrc is read (a round of looks shares its reads: omc-install.ts).
 */
export function npmGlobalPrefix(
  env: NodeJS.ProcessEnv,
  execPath: string = process.execPath,
  read: (file: string) => string | null = readNpmrc,
): NpmPrefix {
  const fromEnv = envConfig(env, 'prefix');
  if (fromEnv !== null) return { dir: npmPathValue(fromEnv, env), from: 'npm_config_prefix' };

  const userVar = envConfig(env, 'userconfig');
  const userFile = userVar !== null ? npmPathValue(userVar, env) : path.join(homeDir(env), '.npmrc');
  const userText = read(userFile);
  const userPrefix = userText === null ? null : npmrcValue(userText, 'prefix');
  if (userPrefix !== null) return { dir: npmPathValue(userPrefix, env), from: homeWords(userFile, env) };

  const nodeDefault =
    typeof env.PREFIX === 'string' && env.PREFIX !== ''
      ? { dir: path.resolve(env.PREFIX), from: 'PREFIX' }
      : {
          dir: env.DESTDIR
            ? path.join(env.DESTDIR, path.dirname(path.dirname(execPath)))
            : path.dirname(path.dirname(execPath)),
          from: `next to node (${shownPath(execPath)})`,
        };
  const globalVar = envConfig(env, 'globalconfig') ?? (userText === null ? null : npmrcValue(userText, 'globalconfig'));
  const globalFile = globalVar !== null ? npmPathValue(globalVar, env) : path.join(nodeDefault.dir, 'etc', 'npmrc');
  const globalText = read(globalFile);
  const globalPrefix = globalText === null ? null : npmrcValue(globalText, 'prefix');
  if (globalPrefix !== null) return { dir: npmPathValue(globalPrefix, env), from: homeWords(globalFile, env) };
  return nodeDefault;
}
