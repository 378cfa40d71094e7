"""Templates `carto new-plugin` copies (package data; files end in `.tmpl`)."""
