/**
 * The run ledger's `end` line a cancel appends on an OMC 5.6 tree is said wherever the cancel's other writes are:
 * the dialog's file list (describePlan: the TUI's and the serve page's), the `cancel` command's lines and
 * `cancel --json`. As OMC's own state clear, it is appended with no `start` line for that run in the ledger.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { describePlan } from '../../src/store/cancel/describe.js';
import { planCancel } from '../../src/store/cancel/plan.js';
import { runCancelCommand } from '../../src/commands/cancel.js';
import { SESSION, type TempProject } from '../helpers/fixtures.js';

const LEDGER = 'state/runs/ledger.jsonl';

async function cli(p: TempProject, ...argv: string[]) {
  let out = '';
  const code = await runCancelCommand(argv, {
    out: (t) => void (out += t),
    err: (t) => void (out += t),
    cwd: p.dir,
    now: Date.now,
    env: { ...process.env, CLAUDE_CONFIG_DIR: path.join(p.dir, 'claude-config') },
  });
  return { code, out };
}

const dialog = (p: TempProject) => {
  const r = planCancel(p.root, { sessionId: SESSION.ralph, mode: null, pauseOnly: false }, Date.now());
  if (!r.ok) throw new Error(r.message);
  return describePlan(r.plan).lines.join('\n');
};

describe("a cancel's run ledger line is said with its other writes", () => {
  it('OMC 5.6 tree, an empty ledger (no start line): the dialog, the lines and --json name the append', async ({
    newProject,
  }) => {
    let p = newProject({ withFixture: true });
    fs.mkdirSync(path.join(p.root, 'state', 'runs'));
    expect(dialog(p)).toMatch(
      /Elsewhere under \.omc:\n(?:.*\n)* {2}append to state\/runs\/ledger\.jsonl {2}\(an end line for ralph \(/,
    );
    const r = await cli(p, SESSION.ralph);
    expect(r.code).toBe(0);
    const written = fs.readFileSync(path.join(p.root, LEDGER), 'utf8').trimEnd().split('\n');
    expect(written).toHaveLength(1);
    expect(r.out).toContain(`  appended ${LEDGER}: an end line for ralph (OMC 5.6's run ledger`);

    p.cleanup();
    p = newProject({ withFixture: true });
    fs.mkdirSync(path.join(p.root, 'state', 'runs'));
    const j = await cli(p, SESSION.ralph, '--json');
    const doc = JSON.parse(j.out);
    const line = fs.readFileSync(path.join(p.root, LEDGER), 'utf8').trimEnd();
    expect(doc.ledger).toEqual({ path: LEDGER, runs: ['ralph'], lines: [JSON.parse(line)] });
    expect(doc.ledger.lines[0]).toMatchObject({ run: 'ralph', event: 'end', sessionId: SESSION.ralph });
  });

  it('no ledger directory (OMC before 5.6): nothing is listed, said or given', async ({ project: p }) => {
    expect(dialog(p)).not.toContain('ledger.jsonl');
    const r = await cli(p, SESSION.ralph, '--json');
    expect(JSON.parse(r.out).ledger).toBeNull();
    expect(fs.existsSync(path.join(p.root, 'state', 'runs'))).toBe(false);
  });
});
