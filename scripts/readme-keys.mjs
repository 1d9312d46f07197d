// Writes docs/keys.md's key table and legend from the panes' bindings tables,
// and README.md's status table from the legend (src/panes/key-table.ts).
// test/panes/bindings.test.ts and test/unit/readme-claims.test.ts fail when they differ.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// Inside the project so the bundle's bare imports resolve against node_modules.
const out = path.join(root, `.readme-keys-${process.pid}.mjs`);
try {
  await build({
    stdin: {
      contents:
        "export { keyTableMarkdown, withKeyTable, statusTableMarkdown, withBlock, STATUSES_START, STATUSES_END } from './src/panes/key-table.ts';\nexport { PANES } from './src/panes/registry.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    packages: 'external',
    logLevel: 'warning',
  });
  const { keyTableMarkdown, withKeyTable, statusTableMarkdown, withBlock, STATUSES_START, STATUSES_END, PANES } =
    await import(pathToFileURL(out).href);
  const readmePath = path.join(root, 'docs', 'keys.md');
  const next = withKeyTable(fs.readFileSync(readmePath, 'utf8'), keyTableMarkdown(PANES));
  if (next === null) throw new Error('docs/keys.md has no keys:start / keys:end markers');
  fs.writeFileSync(readmePath, next);
  console.log('docs/keys.md key table written');
  const readme = path.join(root, 'README.md');
  const withStatuses = withBlock(fs.readFileSync(readme, 'utf8'), STATUSES_START, STATUSES_END, statusTableMarkdown());
  if (withStatuses === null) throw new Error('README.md has no statuses:start / statuses:end markers');
  fs.writeFileSync(readme, withStatuses);
  console.log('README.md status table written');
} finally {
  fs.rmSync(out, { force: true });
}
