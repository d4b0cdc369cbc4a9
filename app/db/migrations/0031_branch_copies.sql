-- A message copied into a branch when it stops sharing an exchange (unshare_latest_exchange.sql,
-- docs/decisions/063) names the message it copies, so the admin overview never counts it as a turn again.
ALTER TABLE "game_messages" ADD COLUMN "copied_from" bigint;