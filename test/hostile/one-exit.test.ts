/**
 * The structural half of round three's class 3: text leaves omc-top through
 * one exit (src/io/output.ts, which cleans every byte) or through the
 * full-screen terminal lifecycle (src/terminal/, control sequences omc-top
 * composes itself, and Ink). A new `process.stdout.write`, `stderr.write` or
 * `console.*` anywhere else fails this test, with the line; so does a JSON
 * writer other than the one terminal-safe one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/fixtures.js';

const SRC = path.join(REPO, 'src');
const ALLOWED_WRITERS = [path.join(SRC, 'io', 'output.ts'), path.join(SRC, 'terminal') + path.sep];

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sources(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
    );
}

/** Code only: comments quote the calls they explain. */
function code(file: string): Array<{ at: string; text: string }> {
  return fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .split('\n')
    .map((text, i) => ({
      at: `${path.relative(REPO, file)}:${i + 1}`,
      text: text.replace(/(^|[^:'"`\\])\/\/.*$/, '$1'),
    }))
    .filter((l) => l.text.trim() !== '');
}

const WRITES = /\b(stdout|stderr)\.write\s*\(|\bconsole\.(log|error|warn|info|debug|trace)\s*\(/;

describe('one exit for text', () => {
  it('nothing writes to stdout or stderr but src/io/output.ts and the terminal lifecycle', () => {
    const raw = sources(SRC)
      .filter((f) => !ALLOWED_WRITERS.some((a) => f === a || f.startsWith(a)))
      .flatMap(code)
      .filter((l) => WRITES.test(l.text))
      .map((l) => `${l.at}: ${l.text.trim()}`);
    expect(raw).toEqual([]);
  });

  it('the terminal lifecycle writes only its own sequences and the crash message through the one exit', () => {
    const writes = sources(path.join(SRC, 'terminal'))
      .flatMap(code)
      .filter((l) => WRITES.test(l.text))
      .map((l) => l.text.trim());
    for (const w of writes)
      expect(w, w).toMatch(
        /^(if \(opts\.mouse\) )?stdout\.write\((s|MOUSE_ON|LEAVE_SEQ|ENTER_SEQ|'\\u001b\[2J\\u001b\[H')( \+ \(opts\.mouse \? MOUSE_ON : ''\))?\);$/,
      );
  });

  it('one JSON escaper: only io/sanitize.ts turns characters into \\u escapes', () => {
    // Every JSON output (--json, watch --json lines, the subcommands' documents) is made by terminalSafeJson;
    // a second escaper is how watch --json came to leave the bidi controls raw.
    const escapers = sources(SRC)
      .filter((f) => f !== path.join(SRC, 'io', 'sanitize.ts'))
      .flatMap(code)
      .filter((l) => /\\\\u\$\{|'\\\\u' \+|toString\(16\)\.padStart\(4/.test(l.text))
      .map((l) => `${l.at}: ${l.text.trim()}`);
    expect(escapers).toEqual([]);
  });
});
