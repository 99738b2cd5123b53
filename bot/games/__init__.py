"""One package per hosted game (its spec, panel, table messages, clicks, results), on the
shared pieces of :mod:`bot.games.base`; :mod:`bot.games.registry` lists them."""
