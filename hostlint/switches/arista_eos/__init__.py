"""The EOS switch platform folder (docs/design/platform-folders.md); reached through hostlint.switches."""
