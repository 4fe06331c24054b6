"""Live collection: the only part of hostlint that talks to the world (one subpackage per source)."""
