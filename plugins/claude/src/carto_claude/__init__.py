"""carto_claude: a carto plugin (entry point group `carto`). Registrations are added as features land."""
