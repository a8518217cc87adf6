// The actor the management commands act as: an administrator at this machine's shell, recorded in the
// audit log as `cli:<user>`.
import { userInfo } from 'node:os';
import type { Actor } from '../gateway/admin/actor.js';
import type { Environment } from '../config/load.js';

export function cliActor(env: Environment): Actor {
  let user = env.USER ?? env.LOGNAME ?? env.USERNAME;
  if (user === undefined || user === '') {
    try {
      user = userInfo().username;
    } catch {
      user = 'unknown';
    }
  }
  return { role: 'admin', subject: `cli:${user}`, via: 'cli' };
}
