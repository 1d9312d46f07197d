// Runs the real bundle's own main() with `--json --root <root>` for many roots
// in one process (one Node start and one bundle load instead of hundreds), and
// records for each: the exit code, a thrown error, and the exact stdout text.
// Usage: node hostile-json-driver.mjs <bundle> <roots.json> <out.json>
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

const [bundle, listFile, outFile] = process.argv.slice(2);
const { main } = await import(pathToFileURL(bundle).href);
const roots = JSON.parse(fs.readFileSync(listFile, 'utf8'));
const realWrite = process.stdout.write.bind(process.stdout);
const results = [];
for (const root of roots) {
  let out = '';
  process.stdout.write = (chunk, enc, cb) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = typeof enc === 'function' ? enc : cb;
    if (done) done();
    return true;
  };
  let code = null;
  let error = null;
  try {
    code = await main(['--json', '--root', root]);
  } catch (e) {
    error = String(e?.stack ?? e);
  } finally {
    process.stdout.write = realWrite;
  }
  results.push({ root, code, error, out });
}
fs.writeFileSync(outFile, JSON.stringify(results));
