import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function problems(rule: string, code: string, file: string) {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  return result!.messages.filter((message) => message.ruleId === rule).map((message) => message.message);
}
const layerProblems = (code: string, file = 'apps/server/src/platform/db/example.ts') => problems('pakt/layers', code, file);
const featureProblems = (code: string, file = 'apps/server/src/features/inbox/example.ts') => problems('pakt/feature-index', code, file);

describe('the server platform boundary (npm run lint fails on any of these)', () => {
  it.each([
    ["import { withLockedEpak } from '../../features/epaks/manage';", 'a feature'],
    ["import { loadVisibleEpak } from '../../features/epaks';", 'a feature through its index'],
    ["import { route } from '../../http/route';", 'the HTTP layer'],
    ["import type { AppContext } from '../../http/app-context';", 'the request context'],
    ["import { buildApp } from '../../app/app';", 'the app composition'],
    ["export { listInbox } from '../../features/inbox/list-inbox';", 'a re-export of a feature'],
    ["const later = () => import('../../features/epaks/epak-routes');", 'a dynamic import'],
  ])('rejects %s (%s)', async (code) => {
    expect(await layerProblems(`${code}\nexport const used = 1;\n`)).toHaveLength(1);
  });

  it('allows the platform itself, paths.ts, the domain and packages', async () => {
    const code = [
      "import { outbox } from './schema';",
      "import { FileStorage } from '../storage/file-storage';",
      "import { MIGRATIONS_DIR } from '../../paths';",
      "import type { Config } from '../config';",
      "import { ResponseCode } from '@pakt/domain';",
      "import { sql } from 'drizzle-orm';",
      'export const used = [outbox, FileStorage, MIGRATIONS_DIR, ResponseCode, sql] as unknown as Config;',
    ].join('\n');
    expect(await layerProblems(code)).toEqual([]);
  });

  it('leaves the features, and the platform’s own tests, free to import what they need', async () => {
    const reachUp = "import { withLockedEpak } from '../../features/epaks/manage';\nexport const used = withLockedEpak;\n";
    expect(await layerProblems(reachUp, 'apps/server/src/platform/db/example.test.ts')).toEqual([]);
    expect(await layerProblems("import { outbox } from '../../platform/db/schema';\nexport const used = outbox;\n", 'apps/server/src/features/epaks/example.ts')).toEqual([]);
  });
});

describe('the server feature boundary (npm run lint fails on any of these)', () => {
  it.each([
    ["import { withLockedEpak } from '../epaks/manage';", 'a file inside another feature'],
    ["export { loadVisibleEpak } from '../epaks/access';", 'a re-export from inside another feature'],
    ["const later = () => import('../epaks/epak-routes');", 'a dynamic import inside another feature'],
    ["import { buildApp } from '../../app/app';", 'the app composition above the features'],
    ["import { createFactories } from '../../test/factories';", 'test support'],
  ])('rejects %s (%s)', async (code) => {
    expect(await featureProblems(`${code}\nexport const used = 1;\n`)).toHaveLength(1);
  });

  it("allows another feature's index, the feature's own files, http/, platform/ and paths.ts", async () => {
    const code = [
      "import { loadVisibleEpak } from '../epaks';",
      "import { checkSigners } from '../epaks/index';",
      "import { listInbox } from './list-inbox';",
      "import { route } from '../../http/route';",
      "import { outbox } from '../../platform/db/schema';",
      "import { MIGRATIONS_DIR } from '../../paths';",
      'export const used = [loadVisibleEpak, checkSigners, listInbox, route, outbox, MIGRATIONS_DIR];',
    ].join('\n');
    expect(await featureProblems(code)).toEqual([]);
  });

  it("leaves a feature's tests free to reach into what they test", async () => {
    expect(await featureProblems("import { withLockedEpak } from '../epaks/manage';\nexport const used = withLockedEpak;\n", 'apps/server/src/features/inbox/example.test.ts')).toEqual([]);
  });
});

describe('the web feature boundary (npm run lint fails on any of these)', () => {
  const webProblems = (code: string, file = 'apps/web/src/features/compose/example.tsx') => problems('pakt/feature-index', code, file);

  it.each([
    ["import { TagEditor } from '../tag-editor/tag-editor';", 'a file inside another feature'],
    ["import { routes } from '../../app/routes';", 'the app composition (shell, routes)'],
    ["import { renderApp } from '../../test/render-app';", 'test support'],
  ])('rejects %s (%s)', async (code) => {
    expect(await webProblems(`${code}\nexport const used = 1;\n`)).toHaveLength(1);
  });

  it("allows another feature's index, its own queries, api/, ui/ and i18n/", async () => {
    const code = [
      "import { TagEditor } from '../tag-editor';",
      "import { composeQueryKeys } from './queries';",
      "import { callApi } from '../../api/client';",
      "import { FormError } from '../../ui/form-error';",
      "import { useLanguageSync } from '../../i18n/use-languages';",
      'export const used = [TagEditor, composeQueryKeys, callApi, FormError, useLanguageSync];',
    ].join('\n');
    expect(await webProblems(code)).toEqual([]);
  });
});

/** Which feature imports which, from the production files under `features/` (tests may reach anywhere). */
function featureGraph(root: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  const features = path.join(ROOT, root, 'features');
  for (const feature of fs.readdirSync(features)) {
    const uses = new Set<string>();
    graph.set(feature, uses);
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          for (const [, source] of fs.readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
            const target = path.relative(features, path.resolve(dir, source!)).split(path.sep);
            if (target[0] !== '..' && target[0] !== feature) uses.add(target[0]!);
          }
        }
      }
    };
    walk(path.join(features, feature));
  }
  return graph;
}

/** A cycle in the graph, as the features along it, or null. */
function cycleIn(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...trail.slice(trail.indexOf(node)), node];
    state.set(node, 'open');
    trail.push(node);
    for (const next of graph.get(node) ?? []) {
      const found = visit(next);
      if (found) return found;
    }
    trail.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

describe('features depend on each other in one direction', () => {
  it.each(['apps/server/src', 'apps/web/src'])('%s: no feature imports, however indirectly, one that imports it back', (root) => {
    expect(cycleIn(featureGraph(root))).toBeNull();
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(cycleIn(graph)).toEqual(['a', 'b', 'c', 'a']);
    expect(cycleIn(new Map([['a', new Set(['b'])], ['b', new Set<string>()]]))).toBeNull();
  });
});
