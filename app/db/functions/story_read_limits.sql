-- What a turn reads of its stored story at most for a context of p_budget_tokens (a game's own
-- budget, games.context_tokens): as storyReadLimits in app/domain/game-master/tokens.server.ts
-- counts it for the site's (tests/integration/game-models.test.ts holds the two together).
-- NULL budget, NULL limits.
CREATE OR REPLACE FUNCTION story_read_limits(p_budget_tokens integer)
RETURNS TABLE (max_exchanges integer, max_characters integer) AS $$
  -- (greatest() passes over a NULL: the budget's absence is said outright.)
  SELECT CASE WHEN p_budget_tokens IS NOT NULL THEN least(1000, greatest(20, ceil(p_budget_tokens / 50.0)))::integer END,
    ceil(p_budget_tokens * 3.5)::integer;
$$ LANGUAGE sql IMMUTABLE;
