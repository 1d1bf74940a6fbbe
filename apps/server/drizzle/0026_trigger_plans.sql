-- The tag-value trigger without a recursive CTE, and no JIT in the triggers' functions.
--
-- pakt_sync_tag_values (0017) walked a document's tags with WITH RECURSIVE. PostgreSQL cannot
-- know how deep a recursion goes: it took jsonb_array_elements for 100 rows and the recursion for
-- ten times its first level, about 1,000,000 rows and a cost of 2.65 million. That is above
-- jit_above_cost, jit_inline_above_cost and jit_optimize_above_cost (100,000 and 500,000 by
-- default), so every tag write (a signature, a tag save, each bulk-compose row) compiled its
-- query with LLVM first: 0.2 to 2.3 s a call (the more, the busier the machine), against 1 to 4 ms
-- without JIT.
--
-- The walk is now a function that says how many rows it gives (ROWS 50: a document's tags,
-- composites' members included, are tens, not a million), so the query's cost is about 150.
-- What the query keeps is unchanged: the same nodes (every element of the tags array and, at any
-- depth, of an element's "children" array), the same filters, names and values. Of two tags with
-- one uuid, the first in that walk (level by level, in array order) is kept; before, which one
-- was unspecified.
--
-- JIT is also turned off on the functions the inbox and tag triggers run at every commit (for what
-- they call, too, and for the triggers their writes fire). The server's own connections run with
-- jit=off, but a trigger runs in whatever session writes: psql, a backfill, another tool. These
-- functions do a few index lookups per ePak: compiling can never pay for itself there, and a plan
-- that a stale or missing statistic makes look expensive must not add seconds to every write.
-- Checked with EXPLAIN on a seeded database (50,000 ePaks, 350,000 tag values): the tag query was
-- the only one of the migrations' functions above the thresholds; the next costliest, the inbox
-- sync's upsert, is about 100.

-- Every node of a document's tags, level by level: the array's elements, then the elements of
-- their "children" arrays, and so on. Anything else (a tags value that is not an array, children
-- that are not an array, elements that are not objects) is passed over or given as it is, as the
-- recursive CTE did; the caller keeps only objects.
CREATE OR REPLACE FUNCTION pakt_tag_tree(tags jsonb) RETURNS SETOF jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE ROWS 50 AS $$
DECLARE
  level jsonb[] := ARRAY[CASE WHEN jsonb_typeof(tags) = 'array' THEN tags ELSE '[]'::jsonb END];
  next_level jsonb[];
  siblings jsonb;
  node jsonb;
BEGIN
  WHILE cardinality(level) > 0 LOOP
    next_level := '{}';
    FOREACH siblings IN ARRAY level LOOP
      FOR node IN SELECT jsonb_array_elements(siblings) LOOP
        RETURN NEXT node;
        IF jsonb_typeof(node -> 'children') = 'array' THEN
          next_level := array_append(next_level, node -> 'children');
        END IF;
      END LOOP;
    END LOOP;
    level := next_level;
  END LOOP;
END
$$;--> statement-breakpoint

-- As in 0017: the filled values of one document's tags (composites' members included), for the
-- "ePak tag" search: name is the tag's label, else its name, else its type; a select's chosen
-- options are joined. Images (signatures, initials, pictures, letterheads, anything sent as a data
-- URL) are not text anyone searches for, and would only bloat the trigram index.
CREATE OR REPLACE FUNCTION pakt_sync_tag_values(document uuid) RETURNS void
LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  DELETE FROM epak_tag_values WHERE epak_document_id = pakt_sync_tag_values.document;
  INSERT INTO epak_tag_values (epak_id, tenant_id, epak_document_id, tag_uuid, name, value)
  SELECT DISTINCT ON (valued.tag_uuid) d.epak_id, e.tenant_id, d.id, valued.tag_uuid, coalesce(valued.name, ''), valued.value
  FROM epak_documents d
  JOIN epaks e ON e.id = d.epak_id
  CROSS JOIN LATERAL (
    SELECT
      tag.t ->> 'uuid' AS tag_uuid,
      coalesce(nullif(btrim(tag.t ->> 'label'), ''), nullif(btrim(tag.t ->> 'name'), ''), tag.t ->> 'type') AS name,
      CASE jsonb_typeof(tag.t -> 'value')
        WHEN 'string' THEN tag.t ->> 'value'
        WHEN 'array' THEN (SELECT string_agg(v, ', ') FROM jsonb_array_elements_text(tag.t -> 'value') AS v)
      END AS value,
      tag.walked
    FROM pakt_tag_tree(d.tags) WITH ORDINALITY AS tag(t, walked)
    WHERE jsonb_typeof(tag.t) = 'object'
      AND tag.t ->> 'uuid' IS NOT NULL
      AND coalesce(tag.t ->> 'type', '') NOT IN ('signature', 'userInitial', 'image', 'letterHead', 'composite')
  ) valued
  WHERE d.id = pakt_sync_tag_values.document
    AND btrim(coalesce(valued.value, '')) <> '' AND valued.value NOT LIKE 'data:%'
  ORDER BY valued.tag_uuid, valued.walked;
END
$$;--> statement-breakpoint

ALTER FUNCTION pakt_sync_inbox(uuid) SET jit = off;--> statement-breakpoint
ALTER FUNCTION pakt_bump_inbox_versions(uuid) SET jit = off;
