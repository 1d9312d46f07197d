/**
 * The inbox (`!`) offers J only where it can act: the registry names the tmux pane of the item's Claude (the rule
 * by which the Sessions pane's detail and the notifications mention J, store/claude/attention.ts reachAdvice).
 * Pressed on an item with no pane, J says why and what reaches the session instead. The real App over a real store:
 * two orphaned ralph loops whose Claude is gone, one with the tmux pane it ran in, one without.
 */
import path from 'node:path';
import { describe, expect, it, onTestFinished } from '../helpers/it.js';
import { AckFile } from '../../src/feeds/attention/acks.js';
import { AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { DEAD_PID, writeRegistry } from '../helpers/claude-files.js';
import { waitFor, writeLiveRalph } from '../helpers/fixtures.js';

const NO_PANE = 'aaaaaaaa-1111-4222-8333-000000000001';
const PANE = 'bbbbbbbb-1111-4222-8333-000000000002';

describe('the inbox J', () => {
  it('is offered for an item whose Claude has a known tmux pane; without one it is not, and pressed says why', async ({
    emptyProject: p,
    newStore,
    mount,
  }) => {
    const cfg = path.join(p.dir, 'claude-config');
    writeLiveRalph(p, { sessionId: NO_PANE, iteration: 2, max: 10, projectPath: p.dir });
    writeLiveRalph(p, { sessionId: PANE, iteration: 3, max: 10, projectPath: p.dir });
    // Both Claudes are gone (a pid no process has); the inbox lists the oldest first: the one with no pane.
    const common = { status: 'busy' as const, cwd: p.dir, procStart: '5' };
    writeRegistry(cfg, DEAD_PID, NO_PANE, { ...common, statusUpdatedAt: Date.now() - 120_000 });
    writeRegistry(cfg, DEAD_PID - 1, PANE, { ...common, tmux: 'main:@1.%3', statusUpdatedAt: Date.now() - 60_000 });
    const store = newStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg } },
    });
    store.start();
    const monitor = new AttentionMonitor(store, { acks: new AckFile(path.join(p.dir, 'xdg-state'), store.root) });
    onTestFinished(() => monitor.dispose());
    const a = mount(store, { columns: 100, rows: 30, attention: { monitor, notifier: null } });
    await a.ready;
    await waitFor(() => monitor.count.getSnapshot() === 2 || null, { what: 'two orphaned loops counted' });
    await a.press('!');
    await a.waitForText('Needs you (2)');
    const selected = () => a.lines().find((l) => l.includes('▸')) ?? '';
    expect(selected()).toContain(NO_PANE.slice(0, 8));
    // No pane named for this one: the footer leaves J out, c still acts.
    await a.waitForText(/c cancel/);
    expect(a.lines().at(-1)).not.toMatch(/J jump/);
    await a.press('J');
    // The message line wraps: read it as one line.
    const why = (await a.waitForText('no tmux pane is known')).replace(/\s*\n\s*/g, ' ');
    expect(why).toContain(`pid ${DEAD_PID} is gone and the registry names no pane`);
    expect(why).toContain('Enter opens its session: r to resume it');
    // The inbox is still open: J acted on nothing.
    expect(a.text()).toContain('Needs you (2)');
    // The next item's Claude ran in a tmux pane the registry names: J is offered there.
    await a.press('j');
    await waitFor(() => selected().includes(PANE.slice(0, 8)) || null, { what: 'the second item selected' });
    await waitFor(() => /J jump/.test(a.lines().at(-1) ?? '') || null, { what: 'J offered in the footer' });
  });
});
