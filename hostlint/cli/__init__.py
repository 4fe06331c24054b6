"""The `hostlint` command line: one module per command."""
