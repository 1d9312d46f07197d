// Runs the real bundle's own main() with `--json --root <root>` for many roots
// in one process (one Node start and one bundle load instead of hundreds), and
// records for each: the exit code, a thrown error, and the exact stdout text.
// Usage: node hostile-json-driver.mjs <bundle> <roots.json> <out.json>
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [bundle, listFile, outFile] = process.argv.slice(2);
// The bundle is one function (scripts/build.mjs): given `require` and its URL, it evaluates and returns main.
const url = pathToFileURL(bundle).href;
const req = createRequire(url);
const { main } = await (await import(url)).default(req, req, url);
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
