import type { OmcStore } from '../store.js';
import { WikiDomain } from './domain.js';

/** Adds the wiki index to the store; the wiki pane and `omc-top wiki search` read it. */
export function registerWiki(store: OmcStore): WikiDomain {
  return store.addDomain(new WikiDomain({ root: store.root, clock: store.clock }));
}

/** The store's wiki domain (registered by addStandardDomains). */
export function wikiOf(store: OmcStore): WikiDomain | undefined {
  return store.getDomain<WikiDomain>('wiki');
}
