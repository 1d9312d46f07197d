/**
 * A state file that breaks while `watch --json` runs (truncated JSON, past the 4 MB limit) is a problem of the same
 * severity on every surface: the watch's transition line (after its --snapshot and ready lines) said `warning` (its last good values were still shown)
 * while `--json` and `watch --json --snapshot`, reading the file fresh, said `error`.
 */
import fs from 'node:fs';
import { describe, expect, it } from '../helpers/it.js';
import { waitFor, writeLiveRalph } from '../helpers/fixtures.js';
import { watchLines, type WatchLine } from '../helpers/watch-lines.js';

const S = 'a1b2c3d4-0000-4000-8000-0000000000b2';
type Line = WatchLine;

function watch(args: string[], cwd: string, stateHome: string): Line[] {
  return watchLines(args, cwd, { ...process.env, XDG_STATE_HOME: stateHome });
}

describe('a state file that breaks while watch --json runs', () => {
  for (const [what, breakIt] of [
    ['truncated JSON', (f: string) => fs.writeFileSync(f, '{"active": tru')],
    ['past the 4 MB limit', (f: string) => fs.writeFileSync(f, `{"active": true, "x": "${'a'.repeat(4.5e6)}"}`)],
  ] as const) {
    it(`${what}: its transition's severity is the one --json gives`, async ({ emptyProject: p, tempDir, newStore }) => {
      const file = writeLiveRalph(p, { sessionId: S, iteration: 3, max: 10 });
      const lines = watch(['--root', p.root], p.dir, tempDir('omc-top-watch-state-'));
      await waitFor(() => lines.some((l) => l.type === 'ready'), { timeoutMs: 30_000, what: 'the ready line' });
      breakIt(file);
      const rel = `state/sessions/${S}/ralph-state.json`;
      const problem = () => lines.find((l) => l.type === 'transition' && l.kind === 'problem' && l.path === rel);
      await waitFor(() => problem() !== undefined, {
        timeoutMs: 20_000,
        what: `the problem line\n${lines.map((l) => JSON.stringify(l)).join('\n')}`,
      });
      // --json's view: a store that reads the file fresh (json-report.ts gives its problems' severity as they are).
      const fresh = newStore({ root: p.root, watch: 'none' });
      fresh.start();
      const severity = () => fresh.problems.getSnapshot().find((x) => x.path === rel)?.severity;
      await waitFor(() => severity() !== undefined, { what: 'the fresh read' });
      expect(severity()).toBe('error');
      expect(problem()?.to).toBe(severity());
    });
  }
});
