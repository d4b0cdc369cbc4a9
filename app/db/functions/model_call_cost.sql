-- What a model call cost by the admin's price table (model_prices, per million tokens): uncached
-- input at the input price, cached input and cache writes at theirs (the input price when the
-- model has none), output at the output price. p_input counts every input token, cached and cache
-- writes included. No row when the model has no price: its calls' cost stays NULL ("no price").
CREATE OR REPLACE FUNCTION model_call_cost(
  p_provider text, p_model text, p_input integer, p_cached integer, p_cache_write integer, p_output integer
) RETURNS TABLE (cost numeric, currency text) AS $$
  SELECT round((greatest(p_input - p_cached - p_cache_write, 0) * price.input_per_million
      + p_cached * coalesce(price.cached_input_per_million, price.input_per_million)
      + p_cache_write * coalesce(price.cache_write_per_million, price.input_per_million)
      + p_output * price.output_per_million) / 1000000, 6),
    price.currency
  FROM model_prices AS price WHERE price.provider = p_provider AND price.model = p_model;
$$ LANGUAGE sql STABLE;
