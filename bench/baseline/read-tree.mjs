// The floor time to live is held against: a fresh Node process that lists an `.omc` tree and reads every file in it
// once, parsing the JSON ones (no validation, no watch, no screen). bench/startup.mjs times it from spawn to exit.
//   node bench/baseline/read-tree.mjs <root>
import fs from 'node:fs';
import path from 'node:path';

let files = 0;
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) {
      const text = fs.readFileSync(p, 'utf8');
      if (e.name.endsWith('.json')) {
        try {
          JSON.parse(text);
        } catch {
          /* not JSON after all: read anyway */
        }
      }
      files += 1;
    }
  }
};
walk(process.argv[2]);
if (process.env.READ_TREE_DEBUG) console.error(files);
