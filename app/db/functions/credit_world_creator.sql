-- A world's creator earns from other players' paid turns (issue 36, docs/decisions/065): called by
-- finish_turn.sql as it stores a turn's reply, so a turn refunded earns nothing and the credit is
-- in the reply's commit. A turn counts when it was paid for (a 'chat_message' debit under
-- 'turn:<id>'; a free opening is not), in a Public world of another player's, and not in a remix
-- of the player's own world (its credits name the player's handle). Each UTC day, every
-- p_paid_turns_per_credit-th such turn of a world earns its creator 1 credit, through the ledger
-- (apply_credit_change.sql), while the creator earned fewer than p_credits_per_day that day over
-- all their worlds. The creator's day is counted under one lock, so concurrent turns in their
-- worlds count one after the other and never pass the cap.
CREATE OR REPLACE FUNCTION credit_world_creator(
  p_player_id text, p_game_slug text, p_turn_id uuid, p_paid_turns_per_credit integer, p_credits_per_day integer
) RETURNS void AS $$
DECLARE
  world record;
  v_day date := (now() AT TIME ZONE 'UTC')::date;
  v_paid_turns integer;
  v_earned_today integer;
BEGIN
  SELECT g.id, g.creator_id INTO world FROM games AS g
    WHERE g.slug = p_game_slug AND g.status = 'public' AND g.is_active AND g.creator_id IS NOT NULL AND g.creator_id <> p_player_id
      AND NOT EXISTS (
        SELECT 1 FROM jsonb_array_elements(g.remixed_from) AS credit JOIN "user" AS u ON u.handle = credit->>'creatorHandle'
          WHERE u.id = p_player_id);
  IF NOT FOUND OR NOT EXISTS (SELECT 1 FROM credit_ledger WHERE reason = 'chat_message' AND reference = 'turn:' || p_turn_id) THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('creator-earnings:' || world.creator_id, 0));
  INSERT INTO world_earnings AS e (game_id, day, creator_id, paid_turns) VALUES (world.id, v_day, world.creator_id, 1)
    ON CONFLICT (game_id, day) DO UPDATE SET paid_turns = e.paid_turns + 1
    RETURNING e.paid_turns INTO v_paid_turns;
  IF v_paid_turns % p_paid_turns_per_credit <> 0 THEN
    RETURN;
  END IF;
  SELECT coalesce(sum(e.credits), 0) INTO v_earned_today FROM world_earnings AS e WHERE e.creator_id = world.creator_id AND e.day = v_day;
  IF v_earned_today >= p_credits_per_day THEN
    RETURN;
  END IF;
  UPDATE world_earnings SET credits = credits + 1 WHERE game_id = world.id AND day = v_day;
  PERFORM apply_credit_change(world.creator_id, 1, 'creator_earnings', 'world:' || world.id || ':' || v_day || ':' || v_paid_turns);
END;
$$ LANGUAGE plpgsql;
