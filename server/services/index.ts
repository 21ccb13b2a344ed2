import type { Config } from '../config';
import { pingDatabase, type Db } from '../db';
import { createBuildService } from './builds';
import type { Mailer } from './mailer';
import type { ScryptCost } from './passwords';
import { createPasswordResetService } from './passwordReset';
import type { RateLimiter } from './rateLimiter';
import { createSessionService } from './sessions';
import { createUserService } from './users';

export interface ServiceDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** Lower only in tests, where thousands of hashes would otherwise dominate the run. */
  scryptCost?: ScryptCost;
  onMailError: (err: unknown) => void;
}

/** Wires the services together; routes receive this object and nothing lower. */
export function createServices(deps: ServiceDeps) {
  const sessions = createSessionService(deps.db, {
    idleMs: deps.config.sessionIdleMs,
    absoluteMs: deps.config.sessionAbsoluteMs,
  });
  const users = createUserService(deps.db, deps.scryptCost);
  const passwordReset = createPasswordResetService({
    db: deps.db,
    users,
    sessions,
    mailer: deps.mailer,
    publicUrl: deps.config.publicUrl,
    onMailError: deps.onMailError,
  });
  const builds = createBuildService(deps.db);
  return {
    sessions,
    users,
    passwordReset,
    builds,
    rateLimiter: deps.rateLimiter,
    databaseReachable: () => pingDatabase(deps.db),
  };
}

export type Services = ReturnType<typeof createServices>;
