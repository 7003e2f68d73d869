"""Map files shipped with the engine: the JSON schema and the maps (see ``map_file``)."""
