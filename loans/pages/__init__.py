"""The loans app's pages: the desk (``desk``, ``member_cards``), the member's account (``account``)
and the catalogue records' checklists (``checklists``). They use only ``loans`` and ``games``; the
site mounts their URL modules by name (``urls``, ``checklist_urls``) and imports nothing else of
them (an import-linter contract in pyproject.toml)."""
