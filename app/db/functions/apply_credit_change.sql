-- One credit change in one call, so a Game Master turn pays for its message in a single round
-- trip (app/domain/credits.server.ts). The rules are those of every change of a balance:
--   * (reason, reference) is claimed first: a change already applied under it changes nothing
--     ('duplicate'); a concurrent duplicate waits on the unique index, then finds the claim;
--   * a debit is one conditional UPDATE, so concurrent debits never take a balance below zero
--     ('insufficient': the claim is withdrawn and nothing changes);
--   * the ledger row records the balance the change produced.
-- Called on its own it is one atomic statement; inside a caller's transaction it is part of it.
CREATE OR REPLACE FUNCTION apply_credit_change(p_user_id text, p_delta integer, p_reason text, p_reference text)
RETURNS TABLE (outcome text, balance integer) AS $$
DECLARE
  claimed_id bigint;
  new_balance integer;
BEGIN
  INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference)
    VALUES (p_user_id, p_delta, 0, p_reason, p_reference)
    ON CONFLICT (reason, reference) DO NOTHING
    RETURNING id INTO claimed_id;
  IF claimed_id IS NULL THEN
    RETURN QUERY SELECT 'duplicate'::text, coalesce((SELECT credits FROM profiles WHERE user_id = p_user_id), 0);
    RETURN;
  END IF;

  IF p_delta > 0 THEN
    INSERT INTO profiles (user_id, credits) VALUES (p_user_id, p_delta)
      ON CONFLICT (user_id) DO UPDATE SET credits = profiles.credits + p_delta, updated_at = now()
      RETURNING credits INTO new_balance;
  ELSE
    UPDATE profiles SET credits = credits + p_delta, updated_at = now()
      WHERE user_id = p_user_id AND credits >= -p_delta
      RETURNING credits INTO new_balance;
    IF new_balance IS NULL THEN
      DELETE FROM credit_ledger WHERE id = claimed_id;
      RETURN QUERY SELECT 'insufficient'::text, NULL::integer;
      RETURN;
    END IF;
  END IF;

  UPDATE credit_ledger SET balance_after = new_balance WHERE id = claimed_id;
  RETURN QUERY SELECT 'applied'::text, new_balance;
END;
$$ LANGUAGE plpgsql;
