"""HPE/H3C Comware (Comware 5 and 7): everything hostlint knows of it, one folder (docs/design/platform-folders.md)."""
