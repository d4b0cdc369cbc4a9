/**
 * The daily totals of model calls written straight into model_calls (generated data of past days,
 * which record_model_call.sql never saw): summed into model_spend_days as record_model_call.sql
 * would have kept them, so the overview reads them (docs/decisions/060).
 */
export const SUM_UP_GENERATED_MODEL_CALLS = `
  insert into model_spend_days (day, game_slug, provider, model, part, shard, calls, input_tokens, cached_input_tokens,
      output_tokens, spend, unpriced_calls)
  select (created_at at time zone 'UTC')::date, game_slug, provider, model,
      case kind when 'summary' then 'summaries' when 'advisory' then 'advisories' else 'turns' end, 0, count(*), sum(input_tokens),
      sum(cached_input_tokens), sum(output_tokens), coalesce(sum(cost) filter (where currency = 'USD'), 0),
      count(*) filter (where cost is null)
  from model_calls group by 1, 2, 3, 4, 5`;
