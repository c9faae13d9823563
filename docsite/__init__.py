"""The documentation site (mkdocs.yml, ``./scripts/docs``): the hooks that add the pages
generated from their sources and link the repository's files from the site."""
