-- Every change of a balance (the trigger profiles_credits_changed) is announced on the
-- `credits_changed` channel, so each server instance can push it to that player's open tabs
-- (LISTEN/NOTIFY works on PGlite too).
CREATE OR REPLACE FUNCTION notify_credits_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.credits IS DISTINCT FROM OLD.credits THEN
    PERFORM pg_notify('credits_changed', json_build_object('userId', NEW.user_id, 'credits', NEW.credits)::text);
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
