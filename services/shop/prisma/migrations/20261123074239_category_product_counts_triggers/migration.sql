-- Browse totals without counting products. `category_product_counts` (previous migration) holds,
-- per category, how many active products it has (its own, not its descendants'). The triggers
-- below keep it for every change to `products` that moves it (insert, delete, truncate, an
-- `active` flip, a change of category), in the transaction of the change, whoever makes it: the
-- app, the benchmark's bulk loader, an operator's SQL. The product list's unfiltered total is the
-- sum of all rows and a category's total the sum over its subtree (`modules/products/repository.ts`);
-- a category's activity and parent are read at query time, so moving or (de)activating a category
-- changes no count. Created empty by `pnpm migrate:new category_product_counts_triggers --empty`
-- (Prisma's schema language has no triggers), then filled in.
--
-- How a transaction's changes reach the counts:
-- 1. Triggers on `products` write the change per category into `category_product_count_changes`
--    (plain inserts: no lock on the counts).
-- 2. When the transaction commits, a deferred trigger applies all of them in one statement, in
--    category order, and deletes them. Count rows are locked only while committing and always in
--    the same order, so concurrent writers (two imports touching the same categories in different
--    orders, say) queue for a moment and never deadlock; a long import does not hold them.
-- A rolled-back transaction or savepoint takes its changes with it. Inside a writing transaction
-- the counts show its own changes only once it has committed.

-- No writes to products between creating the triggers and counting the rows already there.
LOCK TABLE "products" IN SHARE ROW EXCLUSIVE MODE;

-- 1. Recording. Inserts and deletes once per statement, from its transition table (a bulk INSERT
--    of 20,000 rows records one change per category); updates per row, and only for rows whose
--    `active` or category changed (the WHEN clause is checked without calling the function, so
--    stock and price updates cost nothing here).
CREATE FUNCTION "category_product_counts_record_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "category_product_count_changes" ("category_id", "delta")
  SELECT "category_id", count(*) FROM "inserted" WHERE "active" GROUP BY "category_id";
  IF FOUND THEN
    PERFORM set_config('dogshop.category_counts_pending', 'on', true);
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION "category_product_counts_record_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "category_product_count_changes" ("category_id", "delta")
  SELECT "category_id", -count(*) FROM "deleted" WHERE "active" GROUP BY "category_id";
  IF FOUND THEN
    PERFORM set_config('dogshop.category_counts_pending', 'on', true);
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION "category_product_counts_record_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "category_product_count_changes" ("category_id", "delta")
  SELECT "category_id", "delta"
    FROM (VALUES (OLD."category_id", CASE WHEN OLD."active" THEN -1 ELSE 0 END),
                 (NEW."category_id", CASE WHEN NEW."active" THEN 1 ELSE 0 END))
         AS d ("category_id", "delta")
   WHERE "delta" <> 0;
  IF FOUND THEN
    PERFORM set_config('dogshop.category_counts_pending', 'on', true);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "products_counts_insert"
  AFTER INSERT ON "products" REFERENCING NEW TABLE AS "inserted"
  FOR EACH STATEMENT EXECUTE FUNCTION "category_product_counts_record_insert"();

CREATE TRIGGER "products_counts_delete"
  AFTER DELETE ON "products" REFERENCING OLD TABLE AS "deleted"
  FOR EACH STATEMENT EXECUTE FUNCTION "category_product_counts_record_delete"();

CREATE TRIGGER "products_counts_update"
  AFTER UPDATE OF "active", "category_id" ON "products"
  FOR EACH ROW
  WHEN (OLD."active" IS DISTINCT FROM NEW."active" OR OLD."category_id" IS DISTINCT FROM NEW."category_id")
  EXECUTE FUNCTION "category_product_counts_record_update"();

-- 2. Applying, at commit. The deferred trigger fires once per recorded change; the first firing
--    applies them all (the transaction-local setting says whether any are pending, so the others
--    return at once). The DELETE sees this transaction's changes only: every transaction deletes
--    its own before it commits, and other transactions' uncommitted rows are invisible to it.
--    A count below zero means the counts and the rows disagree: the commit fails rather than go
--    on. (A CHECK constraint cannot say it: INSERT … ON CONFLICT checks the proposed row, a
--    negative delta, before it finds the conflict.)
CREATE FUNCTION "category_product_counts_apply"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  "below_zero" integer[];
BEGIN
  IF current_setting('dogshop.category_counts_pending', true) IS DISTINCT FROM 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('dogshop.category_counts_pending', 'off', true);
  WITH "taken" AS (
    DELETE FROM "category_product_count_changes" RETURNING "category_id", "delta"
  ), "changed" AS (
    INSERT INTO "category_product_counts" AS c ("category_id", "active_products")
    SELECT "category_id", sum("delta") FROM "taken"
     GROUP BY "category_id" HAVING sum("delta") <> 0
     ORDER BY "category_id"
    ON CONFLICT ("category_id")
    DO UPDATE SET "active_products" = c."active_products" + EXCLUDED."active_products"
    RETURNING c."category_id", c."active_products"
  )
  SELECT array_agg("category_id") INTO "below_zero" FROM "changed" WHERE "active_products" < 0;
  IF "below_zero" IS NOT NULL THEN
    RAISE EXCEPTION 'category_product_counts: the count of categories % would go below zero', "below_zero"
      USING ERRCODE = 'check_violation',
            HINT = 'The counts disagree with the products: recount them from the products table.';
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER "category_product_count_changes_apply"
  AFTER INSERT ON "category_product_count_changes"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION "category_product_counts_apply"();

-- TRUNCATE products: no product is left in any category (TRUNCATE locks out every other writer).
CREATE FUNCTION "category_product_counts_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "category_product_count_changes";
  DELETE FROM "category_product_counts";
  RETURN NULL;
END
$$;

CREATE TRIGGER "products_counts_truncate"
  AFTER TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "category_product_counts_truncate"();

-- The products already there.
INSERT INTO "category_product_counts" ("category_id", "active_products")
SELECT "category_id", count(*) FROM "products" WHERE "active" GROUP BY "category_id";
