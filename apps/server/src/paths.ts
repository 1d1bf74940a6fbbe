import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root, so defaults do not depend on which directory npm ran us from. */
export const REPO_ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

export const MIGRATIONS_DIR = fileURLToPath(new URL('../drizzle', import.meta.url));

export const DEFAULT_WEB_DIST_DIR = path.join(REPO_ROOT, 'apps/web/dist');
