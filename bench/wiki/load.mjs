// Bundles omc-top's wiki index (TypeScript) into one ESM file the benchmark
// can import, and loads OMC's own compiled query for the baseline.
import path from 'node:path';
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OMC55 } from '../../test/helpers/omc-packages.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, '..', '..');

export async function loadOmcTopWiki() {
  const outfile = path.join(REPO, '.bench-tmp', 'wiki-index.mjs');
  await build({
    stdin: {
      contents: [
        "export { WikiDomain } from './src/store/wiki/domain.ts';",
        "export { parseWikiPage } from './src/store/wiki/frontmatter.ts';",
        "export { searchWiki } from './src/store/wiki/search.ts';",
      ].join('\n'),
      resolveDir: REPO,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href + `?t=${Date.now()}`);
}

export async function loadOmcQuery() {
  return import(pathToFileURL(path.join(OMC55, 'dist', 'hooks', 'wiki', 'query.js')).href);
}
