"""carto plugin: embedders and the `semantic` ladder ranker (filled in below as they land)."""
