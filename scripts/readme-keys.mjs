// Writes README.md's key table and legend from the panes' bindings tables
// (src/panes/key-table.ts). test/unit/readme-keys.test.ts fails when they differ.
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
        "export { keyTableMarkdown, withKeyTable } from './src/panes/key-table.ts';\nexport { PANES } from './src/panes/registry.ts';",
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
  const { keyTableMarkdown, withKeyTable, PANES } = await import(pathToFileURL(out).href);
  const readmePath = path.join(root, 'README.md');
  const next = withKeyTable(fs.readFileSync(readmePath, 'utf8'), keyTableMarkdown(PANES));
  if (next === null) throw new Error('README.md has no keys:start / keys:end markers');
  fs.writeFileSync(readmePath, next);
  console.log('README.md key table written');
} finally {
  fs.rmSync(out, { force: true });
}
