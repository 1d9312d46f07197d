import type { OmcStore } from '../store.js';
import type { PrdRules } from './count.js';
import { PrdDomain } from './domain.js';

/** Adds the ralph PRD domain (story progress per session) to the store. */
export function registerPrd(store: OmcStore, rules: PrdRules = '5.5'): PrdDomain {
  return store.addDomain(new PrdDomain({ root: store.root, projectDir: store.projectDir, rules }));
}

export function prdOf(store: OmcStore): PrdDomain | undefined {
  return store.getDomain<PrdDomain>('prd');
}
