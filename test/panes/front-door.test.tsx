/**
 * What a newcomer sees first, at the sizes people run omc-top in: the `?` help
 * opens at the keys of the pane it was pressed in.
 */
import { READERS_CAPTURED_AT } from '../helpers/fixtures.js';
import { describe, expect, it, type Fixtures } from '../helpers/it.js';
import type { MountedApp } from '../helpers/mount-app.js';
import { EMPTY_FLEET, type FleetGroup } from '../../src/fleet/model.js';
import { headerText } from '../../src/panes/fleet/layout.js';
import { LocalFleet } from '../../src/fleet/local.js';
import { mountFleet } from '../helpers/mount-app.js';
import { makeMachine } from '../fleet/fleet-tree.js';

const open = (app: Fixtures['app'], columns = 80, rows = 24) =>
  app({ columns, rows, clock: () => READERS_CAPTURED_AT });

const titlesOf = (a: MountedApp) => a.lines().find((l) => l.includes('STATUS')) ?? '';

describe('the front door', () => {
  for (const columns of [80, 60]) {
    it(`at ${columns} columns the list's note (more rows, the sort, the hidden count) never covers a column title`, async ({
      app,
    }) => {
      const a = await open(app, columns, 10);
      await a.waitForText(/↓\d+ more/);
      const wholeTitles = columns >= 80 ? /STATUS +SESSION +MODES .*AGE +CLAUDE$/ : /STATUS +SESSION +MODES .*AGE/;
      expect(titlesOf(a)).toMatch(wholeTitles);
      await a.press('S');
      await a.waitForText(/by recent|↓\d+/);
      expect(titlesOf(a)).toMatch(wholeTitles);
      await a.press('H');
      await a.waitForText(/hidden|↓\d+/);
      expect(titlesOf(a)).toMatch(wholeTitles);
      for (const l of a.lines()) expect(l.length).toBeLessThanOrEqual(columns);
    });
  }

  for (const [hotkey, title] of [
    ['n', 'Notepad'],
    ['w', 'Wiki'],
    ['s', 'Sessions'],
  ] as const) {
    it(`? in the ${title} pane opens at the ${title} keys, then the keys that work everywhere`, async ({ app }) => {
      const a = await open(app);
      await a.press(hotkey);
      await a.press('?');
      await a.waitForText('omc-top keys');
      const lines = a.lines();
      const head = lines.findIndex((l) => l.includes('omc-top keys'));
      const firstSection = lines.slice(head + 1).find((l) => l.trim() !== '');
      expect(firstSection?.trim()).toBe(title);
      expect(a.text().indexOf(title)).toBeLessThan(a.text().indexOf('Everywhere') >>> 0);
    });
  }
});

describe('the fleet title', () => {
  it('`--host` alone is titled `omc-top --host`, with no count of local roots; `--all` keeps its title', () => {
    const hostOnly = headerText({ ...EMPTY_FLEET, local: false, localClaude: 2 }, 1);
    expect(hostOnly).toMatch(/^omc-top --host · 2 Claude sessions on this machine · 1 host/);
    expect(hostOnly).not.toMatch(/root/);
    expect(headerText({ ...EMPTY_FLEET, roots: 3 }, 0)).toMatch(/^omc-top --all · .* · 3 roots/);
  });

  it("says what needs the user, first after the title, summed over every project's count (none: nothing said)", () => {
    const group = (...needs: Array<string | null>) =>
      ({
        rows: needs.map((n) => ({ needs: n })),
        needsYou: needs.filter((n) => n !== null).length,
      }) as unknown as FleetGroup;
    const snap = { ...EMPTY_FLEET, roots: 3, groups: [group('stalled', null), group(null), group('waiting', 'gone')] };
    expect(headerText(snap, 0)).toMatch(/^omc-top --all · needs you: 3 · /);
    expect(headerText({ ...snap, groups: [group('stalled')] }, 0)).toMatch(/^omc-top --all · needs you: 1 · /);
    expect(headerText({ ...snap, groups: [group(null)] }, 0)).not.toMatch(/need/);
  });
});

describe('the fleet footer', () => {
  it('on a local row offers Enter, not c / p / r (they act on --host sessions only)', async () => {
    const m = makeMachine();
    const fleet = new LocalFleet({
      env: m.env,
      home: m.home,
      watch: 'none',
      limits: { watches: 1e6, instances: 1024 },
    });
    try {
      m.project('alpha', 1);
      fleet.start();
      const a = await mountFleet(fleet, { columns: 110, rows: 30 });
      await a.waitForText(/alpha {2}\(2 sessions\)/);
      const footer = a.lines().filter(Boolean).at(-1) ?? '';
      expect(footer).toContain('Enter open');
      expect(footer).not.toMatch(/c cancel|p pause|r reconnect/);
      a.unmountOnly();
    } finally {
      await fleet.close();
      m.cleanup();
    }
  });
});
