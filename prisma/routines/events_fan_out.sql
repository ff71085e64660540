-- Applied by scripts/db/migrate.ts after the migrations, on every run (idempotent: CREATE OR REPLACE), because
-- the migration engine cannot run dollar-quoted function bodies. Depends on the events and webhook tables and on
-- graphile-worker's schema.
-- Fan-out, in the transaction that records the event (a transactional outbox): one delivery per enabled
-- endpoint of the event's workspace and environment subscribed to its type (or only the event's target
-- endpoint), each queued for the worker through graphile-worker's public add_job. A workspace without
-- endpoints pays one index lookup. The job key makes "one attempt of a delivery at a time" a queue property.
CREATE OR REPLACE FUNCTION events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delivery_id text;
BEGIN
  FOR delivery_id IN
    INSERT INTO webhook_deliveries (id, endpoint_id, event_id, next_attempt_at)
    SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), e.id, NEW.id, NEW.created_at
      FROM webhook_endpoints e
     WHERE e.workspace_id = NEW.workspace_id
       AND e.environment = NEW.environment
       AND CASE WHEN NEW.target_endpoint_id IS NOT NULL THEN e.id = NEW.target_endpoint_id
                ELSE e.status = 'enabled' AND (cardinality(e.event_types) = 0 OR NEW.type = ANY (e.event_types)) END
    RETURNING id
  LOOP
    PERFORM graphile_worker.add_job('deliver_webhook', json_build_object('delivery_id', delivery_id),
                                    job_key := 'delivery:' || delivery_id, max_attempts := 25);
  END LOOP;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE TRIGGER events_fan_out AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_fan_out();
