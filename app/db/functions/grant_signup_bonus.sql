-- Every new user, however created (email and password, Google, a script), receives the starter
-- credits in the same statement that creates the user (the trigger user_signup_bonus): a profile
-- and a `signup_bonus` ledger row keyed by the user id, so the grant exists exactly once. The
-- amount is STARTER_CREDITS in app/lib/constants.ts; a test keeps the two equal.
CREATE OR REPLACE FUNCTION grant_signup_bonus() RETURNS trigger AS $$
BEGIN
  INSERT INTO profiles (user_id, credits) VALUES (NEW.id, 20);
  INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference)
    VALUES (NEW.id, 20, 20, 'signup_bonus', NEW.id);
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
