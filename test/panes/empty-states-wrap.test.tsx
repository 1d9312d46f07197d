/**
 * The empty states that tell a new user what to do ("No sessions yet: start a ralph / autopilot / team loop in
 * Claude and it appears here.") are read whole at 80 and 60 columns: wrapped at word boundaries over the rows the
 * list would have had, not cut to one line with "…" (Memory's already wrapped). Sessions, Teams, History, Wiki and
 * the fleet's (`--all`) empty machine.
 */
import { describe, expect, it } from '../helpers/it.js';
import { mountFleet, type MountedApp } from '../helpers/mount-app.js';
import { OmcStore } from '../../src/store/store.js';
import { LocalFleet } from '../../src/fleet/local.js';
import { NO_CLAUDE_DIR } from '../helpers/fixtures.js';
import { makeMachine } from '../fleet/fleet-tree.js';

const SAYS: Array<[key: string, words: string]> = [
  ['s', 'No sessions yet: start a ralph / autopilot / team loop in Claude and it appears here.'],
  ['t', 'No team runs yet: start /team in Claude (OMC team mode) and its workers, tasks and events show up here.'],
  [
    'R',
    'No runs yet: OMC 5.6 logs each ralph / autopilot / team / ultragoal run in state/runs/ledger.jsonl; ended sessions come from .omc/sessions/.',
  ],
  ['w', 'No wiki yet: OMC creates .omc/wiki when a session saves knowledge (wiki_ingest / wiki_add).'],
];

/** The screen's lines from the one starting with `first` on, joined as a reader reads them (a wrap is a space). */
function readFrom(lines: string[], first: string): string {
  const at = lines.findIndex((l) => l.trimStart().startsWith(first));
  if (at === -1) return '';
  const out: string[] = [];
  for (const l of lines.slice(at)) {
    if (l.trim() === '' || /\? help/.test(l)) break;
    out.push(l.trim());
  }
  return out.join(' ');
}

describe('empty states wrap instead of being cut', () => {
  for (const columns of [80, 60]) {
    it(`at ${columns} columns Sessions, Teams, History and Wiki say their empty state whole`, async ({
      emptyProject,
      mount,
    }) => {
      const store = new OmcStore({
        root: emptyProject.root,
        watch: 'none',
        projectDir: emptyProject.dir,
        claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
      });
      store.start();
      const a: MountedApp = mount(store, { columns, rows: 24 });
      await a.waitForText('No sessions yet');
      for (const [key, words] of SAYS) {
        await a.step(key);
        await a.waitForText(words.slice(0, 12));
        const lines = a.lines();
        expect(readFrom(lines, words.slice(0, 12)), key).toBe(words);
        for (const l of lines) expect(l.length, key).toBeLessThanOrEqual(columns);
      }
    });
  }

  it("at 60 columns the fleet's empty machine says it whole", async () => {
    const m = makeMachine();
    const fleet = new LocalFleet({
      env: m.env,
      home: m.home,
      watch: 'none',
      limits: { watches: 1e6, instances: 1024 },
    });
    try {
      fleet.start();
      const a = await mountFleet(fleet, { columns: 60, rows: 24 });
      const words =
        'No OMC sessions on this machine yet: no live Claude session, $OMC_STATE_DIR project or ~/.omc has one.';
      await a.waitForText('No OMC sessions');
      expect(readFrom(a.lines(), 'No OMC sessions')).toBe(words);
      a.unmountOnly();
    } finally {
      await fleet.close();
      m.cleanup();
    }
  });
});
