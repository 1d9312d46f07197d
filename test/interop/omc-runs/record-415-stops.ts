/**
 * Records OMC 4.15.10's Stop decisions for the hook-vs-omc-top tests that compare one Stop per case
 * (terminal-phase, hooks-disabled, ultragoal-plan), so they check 4.15.10 without a checkout (npm does not serve it):
 * those tests run with OMC_TOP_OMC_415 = the checkout (its real hook, as Claude Code runs it) and
 * OMC_TOP_RECORD_415 = a scratch directory, where each answer is noted; the answers are then written, with their
 * provenance, to test/fixtures/omc-4.15.10/stop-<book>.json.
 *
 *   npx tsx test/interop/omc-runs/record-415-stops.ts <path to the 4.15.10 checkout>
 *
 * The checkout's commit is read with git when it is a git work tree, else taken from OMC_415_COMMIT (a tree
 * exported from a mirror). Only decisions (block or stop, and the mode the hook named) are written; none of OMC's
 * code or text.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO } from '../../helpers/fixtures.js';

const BOOKS: Record<string, string> = {
  'terminal-phase': 'test/interop/terminal-phase-vs-hook.test.ts',
  'hooks-disabled': 'test/interop/hooks-disabled-vs-hook.test.ts',
  'ultragoal-plan': 'test/interop/ultragoal-plan-vs-hook.test.ts',
};

const checkout = process.argv[2] ? path.resolve(process.argv[2]) : '';
if (!checkout || !fs.existsSync(path.join(checkout, 'scripts', 'persistent-mode.mjs'))) {
  console.error('usage: record-415-stops.ts <OMC 4.15.10 checkout>');
  process.exit(2);
}
const git = (args: string[], cwd: string) => {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
};
const pkg = JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8')) as { version: string };
if (pkg.version !== '4.15.10') {
  console.error(`the checkout is OMC ${pkg.version}, not 4.15.10`);
  process.exit(2);
}
const commit =
  (git(['rev-parse', '--show-toplevel'], checkout) === checkout ? git(['rev-parse', 'HEAD'], checkout) : null) ??
  process.env.OMC_415_COMMIT ??
  null;
if (!commit) {
  console.error('the checkout is not a git work tree: give its commit in OMC_415_COMMIT');
  process.exit(2);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'omc-top-record-415-'));
try {
  const run = spawnSync('npx', ['vitest', 'run', ...Object.values(BOOKS)], {
    cwd: REPO,
    env: { ...process.env, OMC_TOP_OMC_415: checkout, OMC_TOP_RECORD_415: scratch },
    stdio: 'inherit',
  });
  // A failing comparison still records what the hook said (that is the point); a book with no answers is an error.
  if (run.status !== 0) console.error('\nsome comparisons failed (omc-top disagrees with the hook): recorded anyway');
  for (const [book, file] of Object.entries(BOOKS)) {
    const got = path.join(scratch, `${book}.json`);
    if (!fs.existsSync(got)) throw new Error(`no 4.15.10 answers came from ${file}`);
    const cases = JSON.parse(fs.readFileSync(got, 'utf8')) as Record<string, unknown>;
    const out = path.join(REPO, 'test', 'fixtures', 'omc-4.15.10', `stop-${book}.json`);
    const doc = {
      provenance: {
        generator: 'omc-top test/interop/omc-runs/record-415-stops.ts (data produced by running OMC code)',
        test: file,
        omc_version: '4.15.10',
        omc_package_version: pkg.version,
        omc_commit: commit,
        omc_top_commit: git(['rev-parse', 'HEAD'], REPO),
        node: process.version,
        date: new Date().toISOString().slice(0, 10),
        // What a case's answer is: the hook's decision, and the mode its block message named (stop-hook-live.ts).
        recorded: 'decision, mode',
      },
      cases: Object.fromEntries(Object.entries(cases).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    };
    fs.writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
    console.error(`wrote ${out} (${Object.keys(cases).length} cases)`);
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
