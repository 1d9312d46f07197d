/**
 * A forged registry entry must not get a signal. Each case of FORGED_REGISTRY_CASES starts a real process of the
 * user's with the project as its working directory, writes a registry entry with its true pid and start time
 * (what anyone can read in /proc), and asks the stop escalation to plan and send SIGINT. A refused case says why
 * and the process is not signalled: it is ended afterwards with SIGTERM, and dies of SIGTERM (a SIGINT sent before
 * would have been delivered first). An accepted case is signalled and the stand-in exits 42.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { describe, expect, it } from '../helpers/it.js';
import { planInterrupt, sendInterrupt } from '../../src/store/claude/interrupt.js';
import type { ProcessView } from '../../src/store/claude/model.js';
import { processStartIdentity } from '../../src/io/process-start.js';
import { writeRegistry } from '../helpers/claude-files.js';
import { startClaudeStandIn, startOtherProgram } from '../helpers/claude-stand-in.js';
import { FORGED_REGISTRY_CASES, type ForgedRegistryCase } from '../helpers/hostile-corpus.js';

const SID = 'ffffffff-1111-4222-8333-000000000028';
const isRoot = process.getuid?.() === 0;
let child: ChildProcess | null = null;

afterEach(() => {
  child?.kill('SIGKILL');
  child = null;
});

function start(c: ForgedRegistryCase, cwd: string): Promise<ChildProcess> {
  if (c.runs === 'sleep') return startOtherProgram(cwd);
  if (c.runs === 'stand-in') return startClaudeStandIn(cwd);
  const n = spawn(process.execPath, ['-e', 'console.log("ready");setInterval(()=>{},1000)'], {
    cwd,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve) => n.stdout?.once('data', () => resolve(n)));
}

const view = (pid: number, cwd: string): ProcessView => ({
  pid,
  sessionId: SID,
  status: 'busy',
  reason: '',
  since: null,
  entrypoint: 'cli',
  version: '2.1.332',
  kind: 'interactive',
  name: null,
  tmux: null,
  tmuxWhere: null,
  cwd,
  waitingFor: null,
  procStart: processStartIdentity(pid) as string,
  startedAt: null,
  registryRel: `sessions/${pid}.json`,
});

describe('forged registry entries: refused, never signalled', () => {
  for (const c of FORGED_REGISTRY_CASES)
    it.skipIf(c.root && !isRoot)(c.name, async ({ emptyProject: p }) => {
      const cfg = path.join(p.dir, 'claude-config');
      const proc = await start(c, p.dir);
      child = proc;
      const pid = proc.pid as number;
      const ended = new Promise<NodeJS.Signals | number | null>((r) =>
        proc.once('exit', (code, sig) => r(sig ?? code)),
      );
      writeRegistry(cfg, pid, SID, { status: 'busy', cwd: p.dir });
      const file = path.join(cfg, 'sessions', `${pid}.json`);
      if (c.file?.mode !== undefined) fs.chmodSync(file, c.file.mode);
      if (c.file?.uid !== undefined) fs.chownSync(file, c.file.uid, c.file.uid);
      if (c.dir?.mode !== undefined) fs.chmodSync(path.dirname(file), c.dir.mode);

      const plan = planInterrupt(view(pid, p.dir), { projectDir: p.dir, configDir: cfg });
      const err = sendInterrupt(plan);
      if (c.refused === null) {
        expect(plan).toMatchObject({ ok: true, pid });
        expect(err).toBeNull();
        expect(await ended).toBe(42);
        return;
      }
      expect(plan).toMatchObject({ ok: false, reason: c.refused });
      expect(err).toMatch(/not signalled/);
      proc.kill('SIGTERM');
      expect(await ended).toBe('SIGTERM');
    });
});
