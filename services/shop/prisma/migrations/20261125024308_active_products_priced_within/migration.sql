-- How many active products are priced within [low, high] (either bound may be NULL: no bound),
-- exactly, from the counts per whole unit of price (`price_product_counts`, previous migration):
-- the sum over the units wholly inside the bounds, plus a count of the products in the units a
-- bound cuts. A unit u holds the prices [u, u + 1) and lies wholly inside when
-- ceil(low) <= u < floor(high). The rest of [low, high] is [low, ceil(low)) and
-- [greatest(floor(high), ceil(low)), high]: disjoint, each under one unit wide, counted through
-- the (active, price) index. So the cost grows with the units in the bounds, not the products.
--
-- A plpgsql function because its statements' plans are cached per connection: every plan here
-- is the same whatever the bounds (index ranges a unit wide, a range of the small counts table),
-- while the list statement that calls it is planned per call (its page's plan depends on how
-- wide the range is), and planning these three counts took longer than running them. Prices are
-- never negative (products_price_nonnegative) nor above 99,999,999.99, so the units fit an integer.
CREATE FUNCTION "active_products_priced_within"("low" numeric, "high" numeric) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
  "first_unit" integer := coalesce(ceil("low"), 0);
  "end_unit" integer := coalesce(floor("high"), 2147483647);
BEGIN
  RETURN (SELECT coalesce(sum("active_products"), 0)
            FROM "price_product_counts"
           WHERE "price_unit" >= "first_unit" AND "price_unit" < "end_unit")
       + (SELECT count(*)
            FROM "products"
           WHERE "active" AND "price" >= "low" AND "price" < "first_unit"
             AND ("high" IS NULL OR "price" <= "high"))
       + (SELECT count(*)
            FROM "products"
           WHERE "active" AND "price" >= greatest("end_unit", "first_unit") AND "price" <= "high");
END
$$;
