/**
 * The relay's two statements (relay.ts): the debit, the story and its window read in one; the
 * exchange stored and the story moved on in the other. Also run alone, beside the site's, by
 * turn-sql.bench.ts. $1 user, $2 game, $3 the debit's reference, $4 the story's title; then $1
 * user, $2 game, $3 story, $4 exchange, $5 message, $6 reply.
 */
export function relayStatements(window: { maxExchanges: number; maxCharacters: number }) {
  const BEGIN = `WITH debit AS (SELECT outcome FROM apply_credit_change($1, -1, 'chat_message', $3)),
  story AS (SELECT id, exchanges FROM stories WHERE user_id = $1 AND game_slug = $2 AND title = $4),
  reach AS (SELECT m.exchange, m.role, m.content,
      coalesce(sum(m.characters) OVER (ORDER BY m.exchange DESC, m.role ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS newer
    FROM game_messages m, story WHERE m.story_id = story.id AND m.removed_at IS NULL AND m.exchange > story.exchanges - ${window.maxExchanges}),
  recent AS (SELECT exchange, role, content FROM reach WHERE newer < ${window.maxCharacters})
SELECT (SELECT outcome FROM debit) AS outcome, story.id AS story_id, story.exchanges,
  (SELECT coalesce(json_agg(json_build_object('role', role, 'content', content) ORDER BY exchange, role DESC), '[]') FROM recent) AS messages
FROM story`;
  const STORE = `WITH stored AS (
  INSERT INTO game_messages (user_id, game_slug, story_id, exchange, role, content)
  VALUES ($1, $2, $3, $4, 'user', $5), ($1, $2, $3, $4, 'assistant', $6))
UPDATE stories SET exchanges = $4 WHERE id = $3`;
  return { BEGIN, STORE };
}
