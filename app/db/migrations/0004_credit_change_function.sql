-- One credit change in one call, so a Game Master turn pays for its message in a single round
-- trip (app/domain/credits.server.ts). The rules are those of every change of a balance:
--   * (reason, reference) is claimed first: a change already applied under it changes nothing
--     ('duplicate'); a concurrent duplicate waits on the unique index, then finds the claim;
--   * a debit is one conditional UPDATE, so concurrent debits never take a balance below zero
--     ('insufficient': the claim is withdrawn and nothing changes);
--   * the ledger row records the balance the change produced.
-- Called on its own it is one atomic statement; inside a caller's transaction it is part of it.
-- The body this migration wrote is history (git has it); the function's live definition is
-- app/db/functions/apply_credit_change.sql, applied after the migrations. Declared here so what follows can use it.
CREATE OR REPLACE FUNCTION apply_credit_change(p_user_id text, p_delta integer, p_reason text, p_reference text)
RETURNS TABLE (outcome text, balance integer) AS $$ BEGIN END; $$ LANGUAGE plpgsql;
