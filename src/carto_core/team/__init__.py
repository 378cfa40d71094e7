"""Team memory: a home's allowed projects pushed to a PostgreSQL server shared by a team, and
the lenses that read it back (docs/team.md).

- `settings`: the home's team settings (`<home>/.carto/team/team.json`: the server URL without
  its password, the team, this machine's name, the allowed projects); stdlib only, the keep-up
  trigger reads it from hooks;
- `remotes`: projects named across machines by their normalised git remote; stdlib only;
- `connect`: the connection (libpq: TLS from the URL or service, the password from a 0600
  password file or the environment) and the errors every command reports in one line;
- `schema`: carto's schema on the server, versioned migrations checked at every connect;
- `admin`: what a team's administrator runs (set up, members, per-project grants, the vector
  index);
- `rows`: one log row as the row the server keeps;
- `push`: the local logs as the outbox; `queries`: the team lenses' SQL;
- `forget`: taking rows back.

Only `settings` and `remotes` are imported without the `team` extra (psycopg, pgvector).
"""
