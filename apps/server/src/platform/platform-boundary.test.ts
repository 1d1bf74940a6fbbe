import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function layerProblems(code: string, file = 'apps/server/src/platform/db/example.ts') {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  return result!.messages.filter((message) => message.ruleId === 'pakt/layers').map((message) => message.message);
}

describe('the server platform boundary (npm run lint fails on any of these)', () => {
  it.each([
    ["import { withLockedEpak } from '../../epaks/manage';", 'a feature'],
    ["import { route } from '../../http/route';", 'the HTTP layer'],
    ["import type { Config } from '../../config';", 'the app configuration'],
    ["export { listInbox } from '../../inbox/list-inbox';", 'a re-export of a feature'],
    ["const later = () => import('../../routes/epak-routes');", 'a dynamic import'],
  ])('rejects %s (%s)', async (code) => {
    expect(await layerProblems(`${code}\nexport const used = 1;\n`)).toHaveLength(1);
  });

  it('allows the platform itself, paths.ts, the domain and packages', async () => {
    const code = [
      "import { outbox } from './schema';",
      "import { FileStorage } from '../storage/file-storage';",
      "import { MIGRATIONS_DIR } from '../../paths';",
      "import { ResponseCode } from '@pakt/domain';",
      "import { sql } from 'drizzle-orm';",
      'export const used = [outbox, FileStorage, MIGRATIONS_DIR, ResponseCode, sql];',
    ].join('\n');
    expect(await layerProblems(code)).toEqual([]);
  });

  it('leaves the features, and the platform’s own tests, free to import what they need', async () => {
    const reachUp = "import { withLockedEpak } from '../../epaks/manage';\nexport const used = withLockedEpak;\n";
    expect(await layerProblems(reachUp, 'apps/server/src/platform/db/example.test.ts')).toEqual([]);
    expect(await layerProblems("import { outbox } from '../platform/db/schema';\nexport const used = outbox;\n", 'apps/server/src/epaks/example.ts')).toEqual([]);
  });
});
