import fs from 'node:fs';
import path from 'node:path';
import { render } from 'ink-testing-library';
import { describe, expect, it } from '../helpers/it.js';
import { transcriptRel } from '../../src/store/claude/config-dir.js';
import { PeekView } from '../../src/panes/sessions/peek.js';
import { OmcStore } from '../../src/store/store.js';
import { writeLiveRalph } from '../helpers/fixtures.js';
import { assistant, prompt, stopBlock, toolResult } from '../store/claude/lines.js';

const SID = 'bbbbbbbb-1111-4222-8333-444444444444';

describe('peek view', () => {
  it('shows a gone process, the orphaned loop, tokens, tool calls, the error and the Stop-hook timeline', async ({
    emptyProject: p,
  }) => {
    const cfg = path.join(p.dir, 'cfg');
    writeLiveRalph(p, { sessionId: SID, iteration: 2, max: 10, projectPath: p.dir });
    fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
    // A pid that cannot be running: the entry outlived its CLI.
    fs.writeFileSync(
      path.join(cfg, 'sessions', '4194303.json'),
      JSON.stringify({
        pid: 4194303,
        sessionId: SID,
        cwd: p.dir,
        procStart: '5',
        status: 'busy',
        version: '2.1.332',
        entrypoint: 'cli',
      }),
    );
    const t = path.join(cfg, transcriptRel(p.dir, SID));
    fs.mkdirSync(path.dirname(t), { recursive: true });
    fs.writeFileSync(
      t,
      [
        prompt(SID, '2026-12-01T09:00:00Z', 'ralph: fix it'),
        ...assistant(SID, '2026-12-01T09:00:01Z', 'm1', 1, [
          { type: 'text', text: 'Trying \u001b[2Jagain' },
          { type: 'tool_use', name: 'Bash', input: { command: 'npm test' } },
        ]),
        toolResult(SID, '2026-12-01T09:00:02Z', 'Exit code 1', true),
        stopBlock(SID, '2026-12-01T09:00:05Z', '[RALPH LOOP - ITERATION 2/10] Work is NOT done.'),
      ].join('\n') + '\n',
    );
    const store = new OmcStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg } },
    });
    store.start();
    const session = store.sessions.getSnapshot().sessions.find((s) => s.id === SID)!;
    const { lastFrame, unmount } = render(
      <PeekView store={store} session={session} width={60} height={30} now={Date.now()} />,
    );
    const frame = lastFrame() ?? '';
    unmount();
    await store.close();
    expect(frame).toMatch(/^gone, last sign of life .* · pid 4194303 · cli ·/m);
    expect(frame).toContain('! orphaned ralph');
    expect(frame).toContain('in 101 · out 11 · cache read 1,000');
    expect(frame).toContain('Trying again');
    expect(frame).toContain('Bash npm test');
    expect(frame).toContain('Exit code 1');
    expect(frame).toMatch(/\[RALPH LOOP - ITERATION 2\/10\]/);
    expect(frame).not.toContain('\u001b[2J');
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
  });
});
