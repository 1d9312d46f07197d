import type { OmcStore } from '../store.js';
import { findClaudeConfigDir } from './config-dir.js';
import { ClaudeDomain } from './domain.js';

/** Adds the Claude Code domain (registry, process status, transcripts) to the store. */
export function registerClaude(store: OmcStore, opts: { live?: boolean; env?: NodeJS.ProcessEnv } = {}): ClaudeDomain {
  return store.addDomain(
    new ClaudeDomain({
      config: findClaudeConfigDir(opts.env),
      sessions: store.sessions,
      projectDir: store.projectDir,
      clock: store.clock,
      live: opts.live ?? true,
    }),
  );
}

export function claudeOf(store: OmcStore): ClaudeDomain | undefined {
  return store.getDomain<ClaudeDomain>('claude');
}
