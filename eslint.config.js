import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * packages/domain is shared by the server and the browser, so it may import only zod and its own
 * files: no framework, ORM, Node built-in or DOM code. Tests beside it may use Node (they read
 * the spec). The rule is exported so a test can prove it fails the build when violated.
 */
export const domainBoundary = {
  files: ['packages/domain/src/**/*.ts'],
  ignores: ['packages/domain/src/**/*.test.ts'],
  languageOptions: { globals: { ...globals.es2022 } },
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^(?!zod$|zod/|\\.{1,2}/).*',
            message:
              'packages/domain imports only zod and its own files (no framework, ORM, Node built-in or DOM code).',
          },
          {
            regex: '(^|/)(apps|e2e|bench|node_modules)(/|$)|^(\\.\\./){3,}',
            message: 'packages/domain must not reach into the apps: they depend on it, not the other way.',
          },
        ],
      },
    ],
    'no-restricted-globals': [
      'error',
      ...['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'fetch', 'process', 'Buffer', 'require', '__dirname', '__filename', 'global', 'globalThis'].map(
        (name) => ({ name, message: 'packages/domain runs on server and browser alike: no host globals.' }),
      ),
    ],
  },
};

/**
 * Layers by folder: files under `from` may import, inside `root`, only what lies under one of
 * `allow` (folders or files, relative to root). Relative imports are resolved against the file, so
 * `../epaks/x` from platform/ is caught however deep the file sits.
 */
const layersRule = {
  meta: { type: 'problem', schema: [{ type: 'object' }], messages: { upward: '{{from}} must not import {{target}}: {{why}}' } },
  create(context) {
    const { root, from, allow, why } = context.options[0];
    const rootDir = path.resolve(context.cwd, root);
    const file = context.filename;
    if (!path.relative(path.join(rootDir, from), file).match(/^[^.]/)) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.relative(rootDir, path.resolve(path.dirname(file), source));
      if (target.startsWith('..')) return;
      const allowed = allow.some((entry) => target === entry || target === entry.replace(/\.ts$/, '') || target.startsWith(`${entry}/`));
      if (!allowed) context.report({ node: node.source, messageId: 'upward', data: { from, target, why } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

/**
 * A feature folder (`features/<name>/`) is a unit with one public face, its index.ts: another
 * feature imports only that, so what a feature keeps to itself can change without a search across
 * the app. Features never import the composition above them (`app/`) or test support.
 */
const featureIndexRule = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object' }],
    messages: {
      deep: '{{target}} is inside another feature: import it from that feature\'s index ({{index}}), and export it there if it is meant to be shared.',
      upward: 'a feature must not import {{target}}: {{why}}',
    },
  },
  create(context) {
    const { root, forbidden, why } = context.options[0];
    const rootDir = path.resolve(context.cwd, root);
    const own = path.relative(path.join(rootDir, 'features'), context.filename).split(path.sep);
    if (own[0] === '..' || own.length < 2) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.relative(rootDir, path.resolve(path.dirname(context.filename), source)).split(path.sep).join('/');
      const parts = target.split('/');
      if (parts[0] === 'features' && parts[1] && parts[1] !== own[0] && !(parts.length === 2 || (parts.length === 3 && /^index(\.tsx?)?$/.test(parts[2])))) {
        context.report({ node: node.source, messageId: 'deep', data: { target, index: `features/${parts[1]}` } });
      } else if (forbidden.includes(parts[0])) {
        context.report({ node: node.source, messageId: 'upward', data: { target, why } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

/** The server's features: each through the others' index, never up into app/ or test support. */
export const serverFeatureBoundary = {
  files: ['apps/server/src/features/**/*.ts'],
  ignores: ['apps/server/src/features/**/*.test.ts'],
  plugins: { pakt: { rules: { 'feature-index': featureIndexRule } } },
  rules: {
    'pakt/feature-index': [
      'error',
      { root: 'apps/server/src', forbidden: ['app', 'test'], why: 'app/ composes the features, and test/ is for tests.' },
    ],
  },
};

/** The web app's features: the same rule, over `apps/web/src` (app/ holds the shell, routes and i18n). */
export const webFeatureBoundary = {
  files: ['apps/web/src/features/**/*.{ts,tsx}'],
  ignores: ['apps/web/src/features/**/*.test.{ts,tsx}'],
  plugins: { pakt: { rules: { 'feature-index': featureIndexRule } } },
  rules: {
    'pakt/feature-index': [
      'error',
      { root: 'apps/web/src', forbidden: ['app', 'test'], why: 'app/ composes the features (shell, routes), and test/ is for tests.' },
    ],
  },
};

/**
 * The server's platform (database, storage, jobs, mail, audit log, CSV) sits below the features:
 * features import it, it never imports a feature back. Exported so a test proves it fails the lint.
 */
export const serverPlatformBoundary = {
  files: ['apps/server/src/platform/**/*.ts'],
  ignores: ['apps/server/src/platform/**/*.test.ts'],
  plugins: { pakt: { rules: { layers: layersRule } } },
  rules: {
    'pakt/layers': [
      'error',
      {
        root: 'apps/server/src',
        from: 'platform',
        allow: ['platform', 'paths.ts'],
        why: 'platform/ (database, storage, jobs, mail, audit log, CSV, configuration, PDF, sealing, signing) is below http/ and the features, and imports only platform/ (and paths.ts).',
      },
    ],
  },
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**', '**/test-results/**', '**/playwright-report/**', 'apps/server/drizzle/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // The rules of hooks, and every dependency an effect, memo or callback reads: a dependency
    // left out on purpose is a stale value waiting to happen, so none is.
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  domainBoundary,
  serverPlatformBoundary,
  serverFeatureBoundary,
  webFeatureBoundary,
);
