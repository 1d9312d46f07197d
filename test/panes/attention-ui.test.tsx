/**
 * The attention layer on screen, in the real App over a real store on the
 * OMC fixture: the header's "needs you: N" (the attention monitor's count) at
 * 80 and 60 columns, the items behind it in the problems view, and the N
 * key that switches the notifier off and on with a visible state.
 */
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { Notifier } from '../../src/feeds/notify/notifier.js';
import { OmcStore } from '../../src/store/store.js';
import { makeProject, NO_CLAUDE_DIR, type TempProject } from '../helpers/fixtures.js';
import { mountStore, type MountedApp } from '../helpers/mount-app.js';

let p: TempProject | null = null;
let app: MountedApp | null = null;
let monitor: AttentionMonitor | null = null;
afterEach(async () => {
  monitor?.dispose();
  await app?.unmount();
  p?.cleanup();
  app = monitor = p = null;
});

async function mount(columns: number, rows = 24, withAttention = true) {
  p = makeProject({ withFixture: true });
  const store = new OmcStore({
    root: p.root,
    watch: 'none',
    claude: { live: false, env: { CLAUDE_CONFIG_DIR: NO_CLAUDE_DIR } },
  });
  store.start();
  monitor = new AttentionMonitor(store);
  const notifier = new Notifier({ channels: ['bell'], project: 'proj', write: () => undefined });
  const a = mountStore(store, { columns, rows, attention: withAttention ? { monitor, notifier } : undefined });
  app = a;
  await a.ready;
  return { a, notifier, monitor };
}

describe('attention on screen', () => {
  it('the header shows "needs you: N" from the monitor, and the problems view lists the items', async () => {
    const { a, monitor } = await mount(80);
    const n = monitor.needsYou().length;
    expect(n).toBeGreaterThan(0); // the fixture has finished / cancelled / orphaned loops
    const text = await a.waitForText(`needs you: ${n}`);
    expect(a.lines()[0]).toMatch(/^omc-top {2}\S.* needs you: \d+ {2}\d+ sess · /);
    for (const l of a.lines()) expect(stringWidth(l)).toBeLessThanOrEqual(80);
    expect(text).toContain('omc-top');
    await a.press('!', 'G');
    const items = monitor.needsYou().filter((x) => x.kind !== 'problem');
    const last = items[items.length - 1]!;
    const problems = await a.waitForText(`needs you (${items.length}, listed last)`);
    const selected = problems.split('\n').find((l) => l.startsWith('▸ »'));
    expect(selected).toContain(`needs you: ${last.reason}`);
  });

  it('fits a 60-column pane: the clock and counts give way, the count and some of the path stay', async () => {
    const { a, monitor } = await mount(60);
    const n = monitor.needsYou().length;
    await a.waitForText(`needs you: ${n}`);
    const head = a.lines()[0]!;
    expect(stringWidth(head)).toBeLessThanOrEqual(60);
    expect(head).toMatch(/^omc-top {2}\S{8,}/);
    for (const l of a.lines()) expect(stringWidth(l)).toBeLessThanOrEqual(60);
  });

  it('N switches notifications off and on, says so, and the header shows the state', async () => {
    const { a, notifier } = await mount(100);
    await a.waitForText('needs you:');
    await a.press('N');
    await a.waitForText('notifications off');
    expect(notifier.isEnabled()).toBe(false);
    expect(a.lines()[0]).toContain('notify off');
    await a.press('N');
    await a.waitForText('notifications on');
    expect(notifier.isEnabled()).toBe(true);
    expect(a.lines()[0]).not.toContain('notify off');
  });

  it('without an attention layer N says notifications are not running, and the header has no count', async () => {
    const { a } = await mount(80, 24, false);
    await a.waitForText('sess');
    await a.press('N');
    await a.waitForText('notifications are not running here');
    expect(a.lines()[0]).not.toContain('needs you');
  });
});
