"""The plugin surface: the hook specifications, the hookimpl marker, plugin loading and the named registries."""
