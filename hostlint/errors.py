"""The one error type any layer may raise for a problem of the user's making that no command catches itself."""


class UserError(Exception):
    """A mistake in what the user gave (a rule that fails as it runs): one line, exit 2 (hostlint.cli.main)."""
