/**
 * Entry of dist/omc-top-hook.mjs, the small bundle Claude Code runs as a hook (`omc-top hooks install`). Kept
 * apart from the monitor's bundle so a hook starts in tens of milliseconds: no React, no Ink. Whatever happens
 * it exits 0, and prints nothing but a valid reply (Claude Code then keeps its own prompt).
 */
import { runPermissionHook, systemHookDeps } from './hook-permission.js';
import { afterFlush } from '../io/output.js';

const STDIN_MAX = 1024 * 1024;

function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= STDIN_MAX) chunks.push(c);
    });
    process.stdin.on('end', () => resolve(size <= STDIN_MAX ? Buffer.concat(chunks).toString('utf8') : ''));
    process.stdin.on('error', () => resolve(''));
  });
}

async function main(): Promise<void> {
  if (process.argv[2] !== 'permission') return;
  const deps = systemHookDeps();
  // Claude Code ends a hook past its timeout with SIGTERM: clean up and leave the prompt to the terminal.
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, deps.stop);
  await runPermissionHook(await readStdin(), deps);
  await new Promise<void>((r) => afterFlush(r));
}

main().then(
  () => process.exit(0),
  () => process.exit(0),
);
