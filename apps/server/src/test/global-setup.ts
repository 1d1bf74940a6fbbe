import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../paths';
import { startTestPostgres } from './test-database';

/**
 * One PostgreSQL and one migrated template for the whole run; every test file clones the
 * template. Also builds the server bundle from the source at hand: the tests that start the real
 * server as a process (crash, durability, scale-out) run it, as `npm start` does.
 */
export default async function setup() {
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts/build-server.mjs')], { stdio: 'inherit' });
  return startTestPostgres();
}
