import type { OmcStore } from '../store.js';
import { TeamsDomain } from './domain.js';

/** Adds the teams domain (team runtimes, bridge heartbeats, owning sessions) to the store. */
export function registerTeams(store: OmcStore): TeamsDomain {
  return store.addDomain(
    new TeamsDomain({ root: store.root, projectDir: store.projectDir, rootRule: store.rootRule, clock: store.clock }),
  );
}

/** The teams domain of a store, for the pane and the shutdown flow. */
export function teamsOf(store: OmcStore): TeamsDomain | undefined {
  return store.getDomain<TeamsDomain>('teams');
}
