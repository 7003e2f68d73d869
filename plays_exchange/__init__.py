"""A club's play history in and out: BoardGameGeek and BG Stats logs imported as result-only
records, and the club's plays exported in those shapes and as CSV (docs/club-history.md)."""
