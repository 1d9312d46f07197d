/**
 * A usage count no API response can hold (sweep 3, finding 4): `"input_tokens": 1e300` became the project's
 * spend ($4e+294) and a negative or string count was dropped with no word. Such a response is left out of every
 * total (session, project, mode, day, loop) and is a problem line naming the file and the response.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe as plainDescribe, expect as plainExpect, it as plainIt } from 'vitest';
import { describe, expect, it } from '../../helpers/it.js';
import { REPO, writeLiveRalph } from '../../helpers/fixtures.js';
import { MAX_RESPONSE_COUNT, readUsage } from '../../../src/store/claude/usage.js';
import { assistant, prompt } from './lines.js';
import { sessionFiles } from './ralph-session.js';

const SID = 'cccccccc-1111-4222-8333-444444444444';
const AGENT = 'a0e00d397f52ffbde';

plainDescribe('readUsage', () => {
  const good = { input_tokens: 3, output_tokens: 2, cache_read_input_tokens: 1, cache_creation_input_tokens: 0 };
  plainIt.each([
    ['input_tokens', 1e300, 'input_tokens is 1e+300'],
    ['input_tokens', MAX_RESPONSE_COUNT + 1, 'input_tokens is 1000000001'],
    ['output_tokens', -5, 'output_tokens is -5'],
    ['cache_read_input_tokens', 'abc', 'cache_read_input_tokens is "abc"'],
    ['cache_creation_input_tokens', 12.5, 'cache_creation_input_tokens is 12.5'],
    ['output_tokens', Number.NaN, 'output_tokens is NaN'],
  ])('%s = %s is not counted: %s', (field, value, why) => {
    plainExpect(readUsage({ ...good, [field]: value })).toEqual({ ok: false, why });
  });

  plainIt('a nested count is judged too; absent and null count 0; 10^9 is still a count', () => {
    plainExpect(readUsage({ ...good, server_tool_use: { web_search_requests: -1 } })).toEqual({
      ok: false,
      why: 'server_tool_use.web_search_requests is -1',
    });
    plainExpect(readUsage({ output_tokens: null, input_tokens: MAX_RESPONSE_COUNT })).toEqual({
      ok: true,
      part: { input: MAX_RESPONSE_COUNT, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, webSearches: 0 },
    });
  });
});

/** An assistant line of `id` whose usage is `usage` (the shape lines.ts writes, with the usage replaced). */
const withUsage = (id: string, at: string, usage: Record<string, unknown>) => {
  const line = JSON.parse(assistant(SID, at, id, 1, [{ type: 'text', text: 'x' }])[0] as string);
  line.message.usage = usage;
  return JSON.stringify(line);
};

describe('--json with usage no response can hold', () => {
  it('the odd responses change no figure and each file gets a problem line naming the response', ({
    emptyProject: p,
  }) => {
    const cfg = path.join(p.dir, 'cfg');
    writeLiveRalph(p, { sessionId: SID, iteration: 1, max: 5, projectPath: p.dir });
    const { parent, subDir } = sessionFiles(cfg, p.dir, SID);
    fs.mkdirSync(subDir, { recursive: true });
    const goodParent = [
      prompt(SID, '2026-12-01T09:00:00Z', 'x'),
      ...assistant(SID, '2026-12-01T09:00:01Z', 'm1', 3, [{ type: 'text', text: 'a' }]),
    ];
    const goodAgent = assistant(SID, '2026-12-01T09:00:02Z', 'sub1', 2, [{ type: 'text', text: 'b' }]);
    const write = (parentLines: string[], agentLines: string[]) => {
      fs.writeFileSync(parent, parentLines.join('\n') + '\n');
      fs.writeFileSync(path.join(subDir, `agent-${AGENT}.jsonl`), agentLines.join('\n') + '\n');
    };
    const json = () =>
      JSON.parse(
        execFileSync(process.execPath, [path.join(REPO, 'dist', 'omc-top.mjs'), '--json', '--root', p.root], {
          env: { ...process.env, CLAUDE_CONFIG_DIR: cfg },
          encoding: 'utf8',
        }),
      ) as Record<string, any>;
    const figures = (doc: Record<string, any>) => ({
      project: doc.cost.project,
      by_mode: doc.cost.by_mode,
      by_day: doc.cost.by_day,
      loops: doc.cost.loops.map((l: Record<string, unknown>) => l.spend),
      tokens: doc.sessions.find((s: Record<string, unknown>) => s.id === SID).tokens,
    });

    write(goodParent, goodAgent);
    const clean = json();
    expect(clean.cost.project.usd_est).toBeGreaterThan(0);
    expect(clean.problems).toEqual([]);

    write(
      [
        ...goodParent,
        // The sweep's line: three bad counts in one response.
        withUsage('msg_x', '2026-12-01T09:00:03Z', {
          input_tokens: 1e300,
          output_tokens: -5,
          cache_read_input_tokens: 'abc',
        }),
      ],
      [...goodAgent, withUsage('msg_neg', '2026-12-01T09:00:04Z', { input_tokens: 7, output_tokens: -5 })],
    );
    const odd = json();
    expect(figures(odd)).toEqual(figures(clean));
    const rel = path.relative(cfg, parent);
    expect(odd.problems).toEqual([
      {
        path: `$CLAUDE_CONFIG_DIR/${rel}`,
        message:
          'response msg_x: input_tokens is 1e+300, output_tokens is -5, cache_read_input_tokens is "abc": not a token count one API response can hold (a whole number from 0 to 10^9); left out of every total',
        severity: 'warning',
      },
      {
        path: `$CLAUDE_CONFIG_DIR/${rel.replace(/\.jsonl$/, '')}/subagents/agent-${AGENT}.jsonl`,
        message:
          'response msg_neg: output_tokens is -5: not a token count one API response can hold (a whole number from 0 to 10^9); left out of every total',
        severity: 'warning',
      },
    ]);
  });
});
