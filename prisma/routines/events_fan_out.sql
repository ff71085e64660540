-- Applied by scripts/db/migrate.ts after the migrations, on every run (idempotent: CREATE OR REPLACE), because
-- the migration engine cannot run dollar-quoted function bodies. Depends on the events and webhook tables and on
-- graphile-worker's schema.
-- Fan-out, in the transaction that records the events (a transactional outbox): one delivery per enabled
-- endpoint of each event's workspace and environment subscribed to its type (or only the event's target
-- endpoint), all queued for the worker by one call of graphile-worker's public add_jobs. Statement-level, so a
-- statement recording many events (an expiry sweep, a block range's payments) pays one insert and one queue
-- call, not one per event; a workspace without endpoints pays one index lookup per event. The job key makes
-- "one attempt of a delivery at a time" a queue property.
CREATE OR REPLACE FUNCTION events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  specs graphile_worker.job_spec[];
BEGIN
  WITH created AS (
    INSERT INTO webhook_deliveries (id, endpoint_id, event_id, next_attempt_at)
    SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), e.id, n.id, n.created_at
      FROM new_events n
      JOIN webhook_endpoints e ON e.workspace_id = n.workspace_id AND e.environment = n.environment
     WHERE CASE WHEN n.target_endpoint_id IS NOT NULL THEN e.id = n.target_endpoint_id
                ELSE e.status = 'enabled' AND (cardinality(e.event_types) = 0 OR n.type = ANY (e.event_types)) END
    RETURNING id
  )
  SELECT array_agg(ROW('deliver_webhook', json_build_object('delivery_id', id), NULL, NULL, 25, 'delivery:' || id, NULL, NULL)::graphile_worker.job_spec)
    INTO specs
    FROM created;
  IF specs IS NOT NULL THEN
    PERFORM graphile_worker.add_jobs(specs);
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS events_fan_out ON events;
CREATE TRIGGER events_fan_out AFTER INSERT ON events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION events_fan_out();
