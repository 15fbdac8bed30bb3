"""The sample prompt-zones config (one group-chat persona in JSON, YAML and TOML)."""
