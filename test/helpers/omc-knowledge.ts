/**
 * OMC's own compiled wiki and project-memory modules (oh-my-claude-sisyphus
 * 5.5.0 dist), loaded as the reference omc-top is compared against. OMC's
 * wiki query and lint append to log.md, so callers run them on temp copies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { REPO } from './fixtures.js';
import { OMC55 } from './omc-packages.mjs';

const DIST = path.join(OMC55, 'dist');
const load = (rel: string): Promise<any> => import(pathToFileURL(path.join(DIST, rel)).href);

export const omcWikiQuery = () => load('hooks/wiki/query.js');
export const omcWikiStorage = () => load('hooks/wiki/storage.js');
export const omcWikiLint = () => load('hooks/wiki/lint.js');
export const omcWikiIngest = () => load('hooks/wiki/ingest.js');
export const omcMemoryFormatter = () => load('hooks/project-memory/formatter.js');
export const omcDirectiveDetector = () => load('hooks/project-memory/directive-detector.js');
export const omcMemoryStorage = () => load('hooks/project-memory/storage.js');
export const omcMemoryTools = () => load('tools/memory-tools.js');
export const omcMemoryMerge = () => load('lib/project-memory-merge.js');

/** A scratch git project with an empty .omc (OMC resolves <git top>/.omc for it). */
export function scratchProject(prefix = 'omc-top-interop-'): {
  dir: string;
  root: string;
  wiki: string;
  cleanup(): void;
} {
  // OMC_STATE_DIR would move OMC's root elsewhere; these tests compare against <project>/.omc.
  delete process.env.OMC_STATE_DIR;
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  execFileSync('git', ['init', '-q', dir]);
  const root = path.join(dir, '.omc');
  const wiki = path.join(root, 'wiki');
  fs.mkdirSync(wiki, { recursive: true });
  return { dir, root, wiki, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The large real-OMC tree (1,000 wiki pages, 50 directives) unpacked into a scratch project. */
export function unpackLargeTree(): { dir: string; root: string; cleanup(): void } {
  const p = scratchProject('omc-top-large-');
  fs.rmSync(p.root, { recursive: true, force: true });
  execFileSync('tar', ['-xzf', path.join(REPO, 'test', 'fixtures', 'real-omc', 'large-tree.tar.gz'), '-C', p.dir]);
  return { dir: p.dir, root: p.root, cleanup: p.cleanup };
}
