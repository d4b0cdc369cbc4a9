-- The reply of a new exchange (a send or an edit), written once as its turn ends (finish_turn.sql)
-- under the id begin_turn.sql reserved for it (the story's active_reply_id), in the story's
-- current exchange: with its text ('complete'), or with none when its instance died
-- ('interrupted'). Its content feeds the search index, so a row written empty and then updated
-- cost every index entry twice (docs/decisions/068).
CREATE OR REPLACE FUNCTION write_reply(
  p_story stories, p_content text, p_status text, p_state jsonb, p_model_provider text, p_model text
) RETURNS game_messages AS $$
DECLARE
  reply game_messages%ROWTYPE;
BEGIN
  INSERT INTO game_messages (id, user_id, game_slug, story_id, exchange, role, content, status, state, model_provider, model)
    OVERRIDING SYSTEM VALUE
    VALUES (p_story.active_reply_id, p_story.user_id, p_story.game_slug, p_story.id, p_story.exchanges, 'assistant', p_content,
      p_status, p_state, p_model_provider, p_model)
    RETURNING * INTO reply;
  RETURN reply;
END;
$$ LANGUAGE plpgsql;
