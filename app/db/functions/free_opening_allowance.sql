-- Whether a player may have a free opening now (docs/decisions/041), counted from free_openings:
-- at most p_per_minute in the last minute and p_per_day in the last day per account, at most
-- p_per_address_per_day in the last day from one client address (p_client_address), and at most
-- p_before_confirmation in all while the account's email address is not confirmed. used_up is
-- NULL while one is left; otherwise the allowance that is used up ('unconfirmed', 'day',
-- 'address' or 'minute': the first that applies, so the one that lasts longest), and retry_at
-- when it gives a free opening again (NULL for 'unconfirmed': once the address is confirmed).
--
-- It takes the locks under which a player's and an address's free openings are counted and given,
-- held until the caller's transaction ends: the caller (begin_turn.sql) records a free
-- opening it gives in free_openings before then, so two turns never both take the last one.
CREATE OR REPLACE FUNCTION free_opening_allowance(
  p_user_id text, p_client_address text, p_per_minute integer, p_per_day integer, p_per_address_per_day integer, p_before_confirmation integer
) RETURNS TABLE (used_up text, retry_at timestamptz) AS $$
DECLARE
  v_confirmed boolean;
  account record;
  address record;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('free-openings:user:' || p_user_id, 0));
  PERFORM pg_advisory_xact_lock(hashtextextended('free-openings:address:' || p_client_address, 0));

  SELECT u.email_verified INTO v_confirmed FROM "user" AS u WHERE u.id = p_user_id;
  IF NOT coalesce(v_confirmed, false) AND (SELECT count(*) FROM free_openings AS f WHERE f.user_id = p_user_id) >= p_before_confirmation THEN
    RETURN QUERY SELECT 'unconfirmed'::text, NULL::timestamptz;
    RETURN;
  END IF;

  -- Each window gives a free opening again once its limit-th newest opening has left it.
  SELECT count(*) AS today,
      (array_agg(f.created_at ORDER BY f.created_at DESC))[p_per_day] + interval '1 day' AS day_frees_at,
      count(*) FILTER (WHERE f.created_at > now() - interval '1 minute') AS this_minute,
      (array_agg(f.created_at ORDER BY f.created_at DESC) FILTER (WHERE f.created_at > now() - interval '1 minute'))[p_per_minute]
        + interval '1 minute' AS minute_frees_at
    INTO account
    FROM free_openings AS f WHERE f.user_id = p_user_id AND f.created_at > now() - interval '1 day';
  IF account.today >= p_per_day THEN
    RETURN QUERY SELECT 'day'::text, account.day_frees_at;
    RETURN;
  END IF;

  SELECT count(*) AS today, (array_agg(f.created_at ORDER BY f.created_at DESC))[p_per_address_per_day] + interval '1 day' AS day_frees_at
    INTO address
    FROM free_openings AS f WHERE f.client_address = p_client_address AND f.created_at > now() - interval '1 day';
  IF address.today >= p_per_address_per_day THEN
    RETURN QUERY SELECT 'address'::text, address.day_frees_at;
    RETURN;
  END IF;

  IF account.this_minute >= p_per_minute THEN
    RETURN QUERY SELECT 'minute'::text, account.minute_frees_at;
    RETURN;
  END IF;
  RETURN QUERY SELECT NULL::text, NULL::timestamptz;
END;
$$ LANGUAGE plpgsql;
