/**
 * A teams domain on its own, for store tests that drive one domain directly:
 * like the store, it reads the session mode files through a sessions domain,
 * which each scan reads first.
 */
import { SessionsDomain } from '../../src/store/sessions/domain.js';
import { TeamsDomain, type TeamsDomainOptions } from '../../src/store/teams/domain.js';

class TeamsWithSessions extends TeamsDomain {
  constructor(
    opts: TeamsDomainOptions,
    private readonly own: SessionsDomain,
  ) {
    super(opts);
  }

  override scan(): void {
    this.own.scan();
    super.scan();
  }
}

export function teamsDomain(opts: Omit<TeamsDomainOptions, 'sessions'>): TeamsDomain {
  const sessions = new SessionsDomain({ root: opts.root, clock: opts.clock });
  return new TeamsWithSessions({ ...opts, sessions }, sessions);
}
