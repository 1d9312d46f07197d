/**
 * A stand-in for a Claude Code CLI that omc-top may signal: node running a script at
 * `…/node_modules/@anthropic-ai/claude-code/cli.js`, the shape the JS CLI had when npm installed it (node + its
 * cli.js). It exits 42 on SIGINT and says "ready" once that handler is in place. The real CLI (the native binary)
 * is driven in test/agent/real-cli.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeRegistry } from './claude-files.js';

const BODY = 'process.on("SIGINT",()=>process.exit(42));console.log("ready");setInterval(()=>{},1000);\n';

/** Starts the stand-in with `cwd` as its working directory; its script lives under `under` (cleaned by the caller). */
export function startClaudeStandIn(cwd: string, under: string = cwd): Promise<ChildProcess> {
  const script = path.join(under, 'node_modules', '@anthropic-ai', 'claude-code', 'cli.js');
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, BODY);
  const c = spawn(process.execPath, [script], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
  // Ready once its SIGINT handler is installed (it says so), not after a guessed delay.
  return new Promise((resolve, reject) => {
    c.once('error', reject);
    c.stdout?.once('data', () => resolve(c));
  });
}

/** Any other program of the user's, started in `cwd`: `sleep` (what a forged registry entry might name). */
export function startOtherProgram(cwd: string): Promise<ChildProcess> {
  return spawned(spawn('sleep', ['600'], { cwd, stdio: 'ignore' }));
}

/** Resolves with `c` once it runs (its pid and start time are then real), rejects if it could not start. */
function spawned(c: ChildProcess): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    c.once('error', reject);
    c.once('spawn', () => resolve(c));
  });
}

export interface SleeperPool {
  /**
   * A sleeping process standing for a Claude CLI (for liveness: a real pid and start time, nothing else); `env` laid
   * over this process's environment (its /proc environ is what a Claude's hooks would inherit).
   */
  start(env?: Record<string, string>): Promise<ChildProcess>;
  /** SIGKILLs every process started so far (call it in afterEach). */
  killAll(): void;
}

export function sleeperPool(): SleeperPool {
  const started: ChildProcess[] = [];
  return {
    start(env) {
      const c = spawn('sleep', ['600'], { stdio: 'ignore', ...(env ? { env: { ...process.env, ...env } } : {}) });
      started.push(c);
      return spawned(c);
    },
    killAll() {
      for (const c of started.splice(0)) c.kill('SIGKILL');
    },
  };
}

/**
 * A stand-in Claude of session `sid` in `cwd`, started with `env` and entered in the registry of the config directory
 * `cfg` (`startedAt` orders it among the project's Claudes): its pid.
 */
export async function registeredSleeper(
  pool: SleeperPool,
  cfg: string,
  sid: string,
  cwd: string,
  env: Record<string, string>,
  startedAt: number,
): Promise<number> {
  const c = await pool.start(env);
  writeRegistry(cfg, c.pid as number, sid, { status: 'busy', cwd, startedAt });
  return c.pid as number;
}
