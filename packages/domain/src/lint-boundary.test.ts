import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function lintAsDomainFile(code: string, file = 'packages/domain/src/example.ts') {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals');
}

describe('the packages/domain boundary (npm run lint fails on any of these)', () => {
  it.each([
    ["import fs from 'node:fs';", 'a Node built-in'],
    ["import path from 'path';", 'a bare Node built-in'],
    ["import Fastify from 'fastify';", 'the server framework'],
    ["import { pgTable } from 'drizzle-orm/pg-core';", 'the ORM'],
    ["import { useState } from 'react';", 'the UI framework'],
    ["import { buildApp } from '../../../apps/server/src/app';", 'an app, by relative path'],
    ["import { x } from '@pakt/server';", 'an app, by package name'],
    ["export { readFile } from 'node:fs/promises';", 'a re-export of a built-in'],
  ])('rejects %s (%s)', async (code) => {
    const problems = await lintAsDomainFile(`${code}\nexport const used = 1;\n`);
    expect(problems.map((p) => p.ruleId)).toContain('no-restricted-imports');
  });

  it.each([
    ['window.location.href;', 'window'],
    ['document.title;', 'document'],
    ['process.env.X;', 'process'],
    ['Buffer.from("x");', 'Buffer'],
  ])('rejects the host global in %s', async (code) => {
    const problems = await lintAsDomainFile(`export const v = () => ${code}\n`);
    expect(problems.map((p) => p.ruleId)).toContain('no-restricted-globals');
  });

  it('allows zod and the package\'s own files', async () => {
    const problems = await lintAsDomainFile(
      "import { z } from 'zod';\nimport { ROLES } from './constants';\nimport { x } from '../src/envelope';\nexport const S = z.enum(ROLES);\nexport const y = x;\n",
    );
    expect(problems).toEqual([]);
  });

  it('leaves tests and the apps free to use Node', async () => {
    expect(await lintAsDomainFile("import fs from 'node:fs';\nexport const f = fs;\n", 'packages/domain/src/x.test.ts')).toEqual([]);
    expect(await lintAsDomainFile("import fs from 'node:fs';\nexport const f = fs;\n", 'apps/server/src/x.ts')).toEqual([]);
  });
});
