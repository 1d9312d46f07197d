/**
 * Every kind of the table: one change on disk → exactly one transition of
 * that kind; news notifies exactly once when the config asks for it, and
 * never by default.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '../helpers/it.js';
import { diffFacts, factsOf, KINDS, type Transition } from '../../src/feeds/attention/engine.js';
import { attentionInput, AttentionMonitor } from '../../src/feeds/attention/monitor.js';
import { Notifier } from '../../src/feeds/notify/notifier.js';
import { READERS_CAPTURED_AT, SESSION, writeOmcJson, waitFor } from '../helpers/fixtures.js';

const tick = () => new Promise((r) => setImmediate(r));
const NEW_SID = '22222222-3333-4444-8555-666666666666';
const iso = (ms: number) => new Date(ms).toISOString();

interface Step {
  kind: string;
  change(root: string, clock: { now: number }): void;
  key: string;
  news?: string;
}

const steps: Step[] = [
  {
    kind: 'session',
    key: NEW_SID,
    change: (root, c) =>
      writeOmcJson(path.join(root, 'state', 'sessions', NEW_SID, 'ralph-state.json'), {
        active: true,
        session_id: NEW_SID,
        iteration: 1,
        max_iterations: 5,
        started_at: iso(c.now),
        _meta: { mode: 'ralph', sessionId: NEW_SID, updatedAt: iso(c.now) },
      }),
  },
  {
    kind: 'iteration',
    key: `${SESSION.ralph}/ralph`,
    news: 'max reached, OMC extends it (+10)',
    change: (root) => {
      const f = path.join(root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json');
      writeOmcJson(f, { ...JSON.parse(fs.readFileSync(f, 'utf8')), iteration: 10 });
    },
  },
  {
    kind: 'cancel-signal',
    key: SESSION.ultrawork,
    change: (root, c) =>
      writeOmcJson(path.join(root, 'state', 'sessions', SESSION.ultrawork, 'cancel-signal-state.json'), {
        active: true,
        requested_at: iso(c.now),
        expires_at: iso(c.now + 30_000),
        mode: 'ultrawork',
        source: 'user',
      }),
  },
  {
    kind: 'mode',
    // ralph, not the session's ultrawork: OMC 5.5.0 retired ultrawork, so its file going away stops nothing.
    key: `${SESSION.ralph}/ralph`,
    news: 'loop stopped',
    change: (root) => fs.rmSync(path.join(root, 'state', 'sessions', SESSION.ralph, 'ralph-state.json')),
  },
];

describe('every transition kind', () => {
  it('cancel-signal: a signal that runs out is one in-force → expired transition, no notification', async ({
    project: p,
    newStore,
  }) => {
    const t0 = Date.now();
    writeOmcJson(path.join(p.root, 'state', 'sessions', SESSION.ultrawork, 'cancel-signal-state.json'), {
      active: true,
      requested_at: iso(t0 - 28_500),
      expires_at: iso(t0 + 1_500),
      mode: 'ultrawork',
      source: 'user',
    });
    const store = newStore({ root: p.root, watch: 'none', teams: { pidAlive: () => null } });
    store.start();
    await tick();
    const m = new AttentionMonitor(store);
    const seen: Transition[] = [];
    m.onTransitions((b) => seen.push(...b));
    expect(m.current().byKind.get('cancel-signal')?.get(SESSION.ultrawork)?.value).toBe('in-force');
    // The sessions domain re-derives at the expiry on its own timer: no file changes.
    await waitFor(() => seen.some((t) => t.kind === 'cancel-signal'), { timeoutMs: 20_000, what: 'expiry' });
    await tick();
    const ts = seen.filter((t) => t.kind === 'cancel-signal');
    expect(ts.map((t) => [t.key, t.from, t.to, t.needs])).toEqual([[SESSION.ultrawork, 'in-force', 'expired', null]]);
    m.dispose();
  });

  it('the table has the kinds docs/attention.md documents', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'attention.md'), 'utf8');
    const row = doc.split('\n').find((l) => l.startsWith('| `kind` |')) ?? '';
    for (const k of KINDS) expect(row).toContain(`\`${k.kind}\``);
  });

  for (const step of steps) {
    it(`${step.kind}: one change → one ${step.kind} transition${step.news ? ` (news: ${step.news}, one notification when asked for)` : ''}`, async ({
      project: p,
      newStore,
    }) => {
      const clock = { now: READERS_CAPTURED_AT };
      const store = newStore({ root: p.root, watch: 'none', clock: () => clock.now, teams: { pidAlive: () => null } });
      store.start();
      await tick();
      const before = factsOf(attentionInput(store));
      step.change(p.root, clock);
      store.sessions.scan();
      store.teams.scan();
      await tick();
      await tick();
      const ts = diffFacts(before, factsOf(attentionInput(store)));
      const mine = ts.filter((t: Transition) => t.kind === step.kind && t.key === step.key);
      expect(mine, JSON.stringify(ts.map((t) => [t.kind, t.key, t.from, t.to]))).toHaveLength(1);
      expect(ts.filter((t) => t.needs)).toEqual([]);
      const sent = (asked: boolean) => {
        const reasons = asked && step.news ? { [step.news]: true } : {};
        const n = new Notifier({
          channels: ['bell'],
          project: 'p',
          write: () => {},
          env: {},
          config: { notify: { debounceMs: 0, reasons } },
        });
        n.handle(ts);
        n.flush();
        n.handle(ts);
        n.flush();
        n.dispose();
        return n.sent;
      };
      expect(sent(false)).toEqual([]);
      expect(sent(true)).toEqual(step.news ? [expect.stringContaining(step.news)] : []);
    });
  }
});
