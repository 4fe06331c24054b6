"""Stateful switch emulation (issue 13): configuration sessions and renderers over hostlint's Switch model."""
