import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../platform/db/database';
import { MIGRATIONS_DIR } from '../../paths';
import { makeTenant, makeUser } from '../../test/factories';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';

/**
 * Migration 0026: the tag-value trigger's query is planned as what it is, a handful of rows. 0017
 * walked the tags with a recursive CTE that PostgreSQL estimated at about a million rows (cost
 * 2.65 million), far over the JIT thresholds, so every tag write in a session with JIT on
 * compiled the query with LLVM first (0.2 to 2.3 s against a few ms). Here: the per-commit trigger
 * functions carry jit=off whatever the session says; every statement of pakt_sync_tag_values,
 * planned as the server plans it (generic plans) on an analysed database, is estimated in tens of
 * rows and far below jit_above_cost; and
 * the function keeps exactly what 0017's kept, compared on generated tag trees with 0017's own
 * text. No timings are asserted.
 */
let database: TestDatabase;
let db: Db;
let tenant: { id: string };
let owner: { id: string };

/** PostgreSQL's default jit_above_cost: a plan costlier than this is compiled when JIT is on. */
const JIT_ABOVE_COST = 100_000;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  tenant = await makeTenant(db);
  owner = await makeUser(db, { password: null });
});
afterAll(() => database.close());

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

async function newEpak(subject: string): Promise<string> {
  const { rows } = await database.executeSql(
    `insert into epaks (tenant_id, owner_id, subject, signing_policy) values ($1, $2, $3, 'ESIGNATURE') returning id`,
    [tenant.id, owner.id, subject],
  );
  return (rows[0] as { id: string }).id;
}

/** One document per element of `tagsOfEach` (each document's tags as given, array or not). */
async function insertDocuments(epakId: string, tagsOfEach: unknown[]): Promise<void> {
  await database.executeSql(
    `insert into epak_documents (epak_id, position, name, sha256, size, page_count, pages, tags)
     select $1, d.i, 'doc-' || d.i || '.pdf', 'x', 1, 1, '[]', d.tags
     from jsonb_array_elements($2::jsonb) with ordinality as d(tags, i)`,
    [epakId, JSON.stringify(tagsOfEach)],
  );
}

/** The SQL statements of a PL/pgSQL function whose body is BEGIN, statements, END. */
async function statementsOf(functionName: string): Promise<string[]> {
  const { rows } = await database.executeSql(`select prosrc from pg_proc where proname = $1`, [functionName]);
  expect(rows).toHaveLength(1);
  const body = /^\s*BEGIN\b([\s\S]*)\bEND\s*;?\s*$/i.exec((rows[0] as { prosrc: string }).prosrc);
  expect(body, `${functionName} is not BEGIN ... END`).not.toBeNull();
  return body![1]!
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '');
}

interface PlanNode {
  'Node Type': string;
  'Total Cost': number;
  'Plan Rows': number;
  Plans?: PlanNode[];
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

/**
 * A statement of pakt_sync_tag_values as the server's connections plan it: a generic plan
 * (plan_cache_mode=force_generic_plan), the function's parameter a placeholder.
 */
async function genericPlan(statement: string): Promise<PlanNode> {
  const text = statement.replaceAll('pakt_sync_tag_values.document', '$1');
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`prepare tag_values_statement(uuid) as ${text}`));
    try {
      const result = await tx.execute(sql`explain (format json) execute tag_values_statement(gen_random_uuid())`);
      const [explained] = rowsOf<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(result);
      return explained!['QUERY PLAN'][0].Plan;
    } finally {
      await tx.execute(sql`deallocate tag_values_statement`);
    }
  });
}

/** A realistic document's tags: a signer's signature, reason and fields, a composite with a name and date beneath. */
function realisticTags(n: number) {
  const place = { pageNumber: 1, positionX: 60, positionY: 60, blockWidth: 150, blockHeight: 40, userEmail: 'signer@example.test', wfsOrderId: 1 };
  return [
    { uuid: `${n}-sig`, type: 'signature', ...place, value: 'data:image/png;base64,iVBORw0KGgo' },
    { uuid: `${n}-reason`, type: 'reason', ...place, value: 'I approve this document' },
    { uuid: `${n}-amount`, type: 'text', name: 'Amount', ...place, value: String(n * 10) },
    { uuid: `${n}-address`, type: 'text', label: 'Address', ...place, value: `Flat ${n}B, Pune` },
    { uuid: `${n}-colours`, type: 'multiSelect', name: 'Colours', ...place, value: ['Red', 'Blue'] },
    {
      uuid: `${n}-group`,
      type: 'composite',
      ...place,
      children: [
        { uuid: `${n}-group-sig`, type: 'signature', ...place, value: 'data:image/png;base64,AAAA' },
        { uuid: `${n}-group-name`, type: 'signerName', ...place, value: 'Sanjay Signer' },
        { uuid: `${n}-group-date`, type: 'signedDate', ...place, value: '2026-11-27 10:00' },
      ],
    },
  ];
}

describe('the per-commit trigger functions', () => {
  it('run with JIT off', async () => {
    const { rows } = await database.executeSql(
      `select proname, coalesce(proconfig, '{}') as config from pg_proc
       where proname in ('pakt_sync_tag_values', 'pakt_sync_inbox', 'pakt_bump_inbox_versions') order by proname`,
      [],
    );
    expect(rows).toEqual([
      { proname: 'pakt_bump_inbox_versions', config: ['jit=off'] },
      { proname: 'pakt_sync_inbox', config: ['jit=off'] },
      { proname: 'pakt_sync_tag_values', config: ['jit=off'] },
    ]);
  });
});

describe('pakt_sync_tag_values', () => {
  it('has every statement planned as a few rows, far below the JIT threshold', async () => {
    // 300 documents of realistic tags (filled by the trigger), then the statistics autovacuum would gather.
    const epakId = await newEpak('Planned');
    await insertDocuments(
      epakId,
      Array.from({ length: 300 }, (_, n) => realisticTags(n)),
    );
    const { rows: filled } = await database.executeSql(`select count(*)::int as n from epak_tag_values where epak_id = $1`, [epakId]);
    expect(filled).toEqual([{ n: 300 * 6 }]);
    await database.executeSql('analyze epak_documents, epaks, epak_tag_values', []);

    const statements = await statementsOf('pakt_sync_tag_values');
    // Not vacuous: the delete and the insert of the values are both here.
    expect(statements.some((s) => /^DELETE FROM epak_tag_values\b/i.test(s))).toBe(true);
    expect(statements.some((s) => /\bINSERT INTO epak_tag_values\b/i.test(s))).toBe(true);
    for (const statement of statements) {
      const plan = await genericPlan(statement);
      const nodes = nodesOf(plan);
      const shown = `${statement}\n${JSON.stringify(plan, null, 1)}`;
      // 0017's insert: a million rows estimated for the recursion, a total cost of 2.65 million.
      expect(Math.max(...nodes.map((node) => node['Plan Rows'])), shown).toBeLessThan(1_000);
      expect(plan['Total Cost'], shown).toBeLessThan(JIT_ABOVE_COST / 100);
    }
  });

  it('keeps the first of two tags with one uuid, walking level by level, and members at any depth', async () => {
    const epakId = await newEpak('Walked');
    const deep = (depth: number): Record<string, unknown> =>
      depth === 0 ? { uuid: 'deep', type: 'text', value: 'five levels down' } : { uuid: `level-${depth}`, type: 'composite', children: [deep(depth - 1)] };
    await insertDocuments(epakId, [
      [
        { uuid: 'twice', type: 'composite', children: [{ uuid: 'same', type: 'text', name: 'Child', value: 'from the child' }] },
        { uuid: 'same', type: 'text', name: 'Top', value: 'from the top level' },
        { uuid: 'same', type: 'text', name: 'Later', value: 'a later sibling' },
        deep(5),
      ],
    ]);
    const { rows } = await database.executeSql(`select tag_uuid, name, value from epak_tag_values where epak_id = $1 order by tag_uuid`, [epakId]);
    expect(rows).toEqual([
      { tag_uuid: 'deep', name: 'text', value: 'five levels down' },
      { tag_uuid: 'same', name: 'Top', value: 'from the top level' },
    ]);
  });

  it('keeps exactly what the function of migration 0017 kept, on generated tag trees', async () => {
    // 0017's function, verbatim but for its name (and JIT off, which only saves compiling time).
    const migration = fs.readFileSync(path.join(MIGRATIONS_DIR, '0017_inbox_triggers.sql'), 'utf8');
    const original = /CREATE OR REPLACE FUNCTION pakt_sync_tag_values\(document uuid\)[\s\S]*?\n\$\$;/.exec(migration);
    expect(original).not.toBeNull();
    await database.executeSql(
      original![0].replaceAll('pakt_sync_tag_values', 'pakt_sync_tag_values_0017').replace('LANGUAGE plpgsql AS', () => 'LANGUAGE plpgsql SET jit = off AS'),
      [],
    );

    const documents = fc.sample(tagsColumn, { numRuns: 1000, seed: 26 }).map(numberUuids);
    const epakId = await newEpak('Generated');
    await insertDocuments(epakId, documents);
    const kept = async () =>
      (
        await database.executeSql(
          `select d.position, v.tag_uuid, v.name, v.value from epak_tag_values v join epak_documents d on d.id = v.epak_document_id
           where v.epak_id = $1 order by d.position, v.tag_uuid collate "C"`,
          [epakId],
        )
      ).rows as Array<{ position: number; tag_uuid: string; name: string; value: string }>;
    const byTrigger = await kept();
    await database.executeSql(`select count(pakt_sync_tag_values_0017(id)) from epak_documents where epak_id = $1`, [epakId]);
    const by0017 = await kept();

    const differing = [...new Set([...byTrigger, ...by0017].map((row) => row.position))]
      .filter((position) => JSON.stringify(byTrigger.filter((r) => r.position === position)) !== JSON.stringify(by0017.filter((r) => r.position === position)))
      .slice(0, 3)
      .map((position) => ({
        tags: documents[position - 1],
        now: byTrigger.filter((r) => r.position === position),
        in0017: by0017.filter((r) => r.position === position),
      }));
    expect(differing).toEqual([]);
    // Not vacuous (this seed: 587 values of 382 documents, 248 of them members of composites).
    expect(by0017.length).toBeGreaterThan(500);
    expect(byTrigger.filter((row) => row.tag_uuid.startsWith('nested-')).length).toBeGreaterThan(100);
    expect(new Set(byTrigger.map((row) => row.position)).size).toBeLessThan(documents.length);
  });
});

// ---------------------------------------------------------------------------------------------
// Generated tag trees: every shape the walk and the filters tell apart
// ---------------------------------------------------------------------------------------------

/** Where a tag's uuid goes: numbered after generation (unique in a document), left out, null or a number. */
const UUID_MARK = '@uuid';

const text = fc.oneof(
  fc.constantFrom('', '   ', 'Flat 4B', ' Amount ', 'data:image/png;base64,AAAA', 'data:', 'a, b', 'Ünïcødé ✓', 'null'),
  fc.string({ maxLength: 6 }),
);

const tagValue = fc.oneof(
  text,
  fc.array(fc.oneof(text, fc.integer(), fc.constant(null), fc.constant({ nested: 'object' })), { maxLength: 3 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant({ not: 'a text' }),
);

const tagType = fc.constantFrom('text', 'reason', 'multiSelect', 'date', 'signerName', 'signature', 'userInitial', 'image', 'letterHead', 'composite', '', 7);

/** What is not a tag object: the walk passes it on (or into nothing), the filter drops it. */
const notAnObject = fc.oneof(fc.integer(), text, fc.constant(null), fc.constant([{ uuid: 'inside-an-array', type: 'text', value: 'never kept' }]));

const tagNode: fc.Memo<unknown> = fc.memo((depth) =>
  fc.oneof(
    { weight: 8, arbitrary: tagObject(depth) },
    { weight: 1, arbitrary: notAnObject },
  ),
);

function tagObject(depth: number) {
  return fc.record(
    {
      uuid: fc.constantFrom(UUID_MARK, UUID_MARK, UUID_MARK, UUID_MARK, 'missing', 'null', 'number'),
      type: tagType,
      label: text,
      name: text,
      value: tagValue,
      children: depth <= 1 ? fc.constantFrom('not an array', { not: 'an array' }) : fc.oneof(fc.array(tagNode(depth - 1), { maxLength: 3 }), fc.constant('not an array')),
    },
    { requiredKeys: ['uuid', 'value'] },
  );
}

const tagsColumn = fc.oneof(
  { weight: 12, arbitrary: fc.array(tagNode(4), { minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.oneof(fc.constant({ uuid: 'not-an-array', type: 'text', value: 'never kept' }), fc.constant(null), fc.constant('tags')) },
);

/** Gives each generated tag its uuid: `top-n` or `nested-n`, unique in the document. */
function numberUuids(tags: unknown): unknown {
  let counter = 0;
  const visit = (node: unknown, nested: boolean) => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    const tag = node as Record<string, unknown>;
    if (tag['uuid'] === UUID_MARK) tag['uuid'] = `${nested ? 'nested' : 'top'}-${++counter}`;
    else if (tag['uuid'] === 'missing') delete tag['uuid'];
    else if (tag['uuid'] === 'null') tag['uuid'] = null;
    else if (tag['uuid'] === 'number') tag['uuid'] = 1000 + ++counter;
    if (Array.isArray(tag['children'])) for (const child of tag['children']) visit(child, true);
  };
  if (Array.isArray(tags)) for (const tag of tags) visit(tag, false);
  return tags;
}
