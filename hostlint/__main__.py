"""`python -m hostlint`: the same as the `hostlint` command."""

from hostlint.cli.main import main

main()
