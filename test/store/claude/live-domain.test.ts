/** The Claude domain live: one watch on the registry, the liveness tick, transcripts followed as they grow. */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processStartIdentity } from '../../../src/io/process-start.js';
import { transcriptRel } from '../../../src/store/claude/config-dir.js';
import { ownPidDomain } from '../../../src/store/claude/process-status.js';
import { planInterrupt, sendInterrupt, shouldOfferInterrupt } from '../../../src/store/claude/interrupt.js';
import { OmcStore } from '../../../src/store/store.js';
import { makeProject, type TempProject, waitFor as waitUntil, writeLiveRalph } from '../../helpers/fixtures.js';
import { assistant, prompt } from './lines.js';
import { scaled } from '../../helpers/time-scale.js';
import { startClaudeStandIn } from '../../helpers/claude-stand-in.js';

const SID = 'aaaaaaaa-1111-4222-8333-444444444444';
let p: TempProject;
let cfg: string;
let child: ChildProcess | null = null;
let store: OmcStore | null = null;

beforeEach(() => {
  p = makeProject();
  cfg = path.join(p.dir, 'claude-config');
  fs.mkdirSync(path.join(cfg, 'sessions'), { recursive: true });
  writeLiveRalph(p, { sessionId: SID, iteration: 3, max: 10, projectPath: p.dir, prompt: 'ralph: x' });
});
afterEach(async () => {
  child?.kill('SIGKILL');
  child = null;
  await store?.close();
  store = null;
  p.cleanup();
});

const startChild = (cwd: string) => startClaudeStandIn(cwd);

const register = (pid: number, status: string) =>
  fs.writeFileSync(
    path.join(cfg, 'sessions', `${pid}.json`),
    JSON.stringify({
      pid,
      sessionId: SID,
      cwd: p.dir,
      procStart: processStartIdentity(pid),
      pidDomain: ownPidDomain(),
      version: '2.1.332',
      kind: 'interactive',
      entrypoint: 'cli',
      status,
      statusUpdatedAt: Date.now(),
    }),
  );

describe('Claude domain, live', () => {
  it(
    'follows status changes, notices a killed CLI without any file change, and follows the transcript',
    { timeout: scaled(60_000) },
    async () => {
      child = await startChild(p.dir);
      const pid = child.pid as number;
      register(pid, 'busy');
      store = new OmcStore({
        root: p.root,
        watch: 'none',
        projectDir: p.dir,
        claude: { env: { CLAUDE_CONFIG_DIR: cfg } },
      });
      const claude = store.claude;
      store.start();
      const proc = () => claude.getSnapshot().bySession.get(SID)?.process;
      expect(proc()?.status).toBe('busy');
      register(pid, 'waiting');
      await waitUntil(() => proc()?.status === 'waiting', { what: 'waiting', timeoutMs: 20_000 });

      const t = path.join(cfg, transcriptRel(p.dir, SID));
      fs.mkdirSync(path.dirname(t), { recursive: true });
      fs.writeFileSync(t, prompt(SID, '2026-12-01T09:00:00Z', 'hi') + '\n');
      await waitUntil(() => claude.getSnapshot().bySession.get(SID)?.transcript, {
        what: 'the transcript',
        timeoutMs: 20_000,
      });
      fs.appendFileSync(
        t,
        assistant(SID, '2026-12-01T09:00:01Z', 'm1', 1, [{ type: 'text', text: 'ok' }]).join('\n') + '\n',
      );
      await waitUntil(() => claude.getSnapshot().bySession.get(SID)?.transcript?.facts.tokens.input === 101, {
        what: 'tokens',
        timeoutMs: 20_000,
      });

      child.kill('SIGKILL');
      await waitUntil(() => proc()?.status === 'gone', { what: 'gone', timeoutMs: 20_000 });
      expect(store.claude).toBe(claude);
    },
  );

  it('interrupts only the verified process working in this project', async () => {
    child = await startChild(p.dir);
    const pid = child.pid as number;
    register(pid, 'busy');
    store = new OmcStore({
      root: p.root,
      watch: 'none',
      projectDir: p.dir,
      claude: { live: false, env: { CLAUDE_CONFIG_DIR: cfg } },
    });
    const claude = store.claude;
    store.start();
    const proc = claude.getSnapshot().bySession.get(SID)?.process;
    expect(proc).toBeDefined();
    expect(shouldOfferInterrupt(1, proc!)).toBe(false);
    expect(shouldOfferInterrupt(2, proc!)).toBe(true);
    const here = { projectDir: p.dir, configDir: cfg };
    expect(planInterrupt({ ...proc!, procStart: '1' }, here)).toMatchObject({ ok: false, reason: /another process/ });
    expect(planInterrupt(proc!, { ...here, projectDir: path.join(p.dir, 'elsewhere') })).toMatchObject({
      ok: false,
      reason: /not in this project/,
    });
    const plan = planInterrupt(proc!, here);
    expect(plan).toMatchObject({ ok: true, pid, procStart: proc!.procStart });
    expect(plan.ok && plan.checked).toMatch(/runs as you, node running \S+\/@anthropic-ai\/claude-code\/cli\.js/);
    const exited = new Promise<number | null>((r) => child!.on('exit', (code) => r(code)));
    expect(sendInterrupt(plan)).toBeNull();
    expect(await exited).toBe(42);
  });
});
