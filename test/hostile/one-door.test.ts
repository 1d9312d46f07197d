/**
 * The structural half of round three's class 1: every open of a file goes
 * through io/safe-fs, and every open there cannot wait (O_NONBLOCK, or
 * O_EXCL on a name that cannot exist yet, or O_DIRECTORY). A FIFO, a device
 * or a socket where omc-top expects a file can then never hold open(2), for
 * a read or for a write. A new raw open anywhere else fails this test, with
 * the line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';

const SRC = path.join(REPO, 'src');
const SAFE_FS = path.join(SRC, 'io', 'safe-fs');

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sources(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
    );
}

/** Code lines only (comments say "readFileSync" when they explain OMC's readers). */
function codeLines(file: string): Array<{ at: string; text: string }> {
  const out: Array<{ at: string; text: string }> = [];
  let inBlock = false;
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      let text = line;
      if (inBlock) {
        const end = text.indexOf('*/');
        if (end === -1) return;
        text = text.slice(end + 2);
        inBlock = false;
      }
      text = text.replace(/\/\*.*?\*\//g, '');
      const start = text.indexOf('/*');
      if (start !== -1) {
        inBlock = true;
        text = text.slice(0, start);
      }
      text = text.replace(/(^|[^:'"`])\/\/.*$/, '$1');
      if (text.trim() !== '') out.push({ at: `${path.relative(REPO, file)}:${i + 1}`, text });
    });
  return out;
}

/** Whatever opens a file's contents, by any of Node's doors. */
const OPENS =
  /\b(openSync|readFileSync|writeFileSync|appendFileSync|createReadStream|createWriteStream|openAsBlob|copyFileSync|cpSync|truncateSync)\s*\(|\bfs\.(open|readFile|writeFile|appendFile|copyFile|cp|truncate)\s*\(|node:fs\/promises|fs\.promises/;

describe('one door for every open', () => {
  it('no file is opened outside src/io/safe-fs', () => {
    const raw = sources(SRC)
      .filter((f) => !f.startsWith(SAFE_FS + path.sep))
      .flatMap(codeLines)
      .filter((l) => OPENS.test(l.text))
      .map((l) => `${l.at}: ${l.text.trim()}`);
    expect(raw).toEqual([]);
  });

  it('every open in src/io/safe-fs is one that cannot wait on a FIFO or a device', () => {
    const lines = sources(SAFE_FS).flatMap(codeLines);
    const opens = lines.filter((l) => OPENS.test(l.text));
    expect(opens.length).toBeGreaterThan(0);
    // The flags of each open are on its line or named by a constant defined with O_NONBLOCK below.
    const blocking = opens.filter(
      (l) => !/O_NONBLOCK|O_EXCL|DIR_FLAGS|APPEND_FLAGS|READ_FLAGS|EXCL_FLAGS/.test(l.text),
    );
    expect(blocking.map((l) => `${l.at}: ${l.text.trim()}`)).toEqual([]);
    const text = sources(SAFE_FS)
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    for (const name of ['DIR_FLAGS', 'APPEND_FLAGS', 'READ_FLAGS', 'EXCL_FLAGS']) {
      const def = new RegExp(`const ${name} =[^;]*;`).exec(text)?.[0];
      if (def) expect(def, name).toMatch(/O_NONBLOCK/);
    }
  });
});
