-- Wakes the webhook delivery workers as soon as events commit, instead of at their next poll.
-- A statement that inserts events notifies `dogshop_events_committed` (a refused order's
-- statement inserts none and sends nothing). PostgreSQL delivers a notification only when its
-- transaction commits (never for a rolled-back one), after its rows are visible, and folds the
-- same notification sent twice in one transaction into one. Every replica's worker listens
-- (`modules/events/commit-notifications.ts`) and numbers the new events at once; its poll stays
-- as the fallback while the listener reconnects. Created empty by
-- `pnpm migrate:new events_commit_notify --empty` (Prisma's schema language has no triggers),
-- then filled in.
CREATE FUNCTION "events_notify_committed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT FROM "inserted") THEN
    PERFORM pg_notify('dogshop_events_committed', '');
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "events_notify_committed"
AFTER INSERT ON "events"
REFERENCING NEW TABLE AS "inserted"
FOR EACH STATEMENT EXECUTE FUNCTION "events_notify_committed"();
