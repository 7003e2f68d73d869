"""The table recorder: a phone-first page for recording a game move by move, by taps.

``views`` serves the page and the table's state as JSON (board, what may be recorded next,
what the last moves did in words); ``pictures`` draws every tile of a tile game once for the
picker and the board; the browser side is ``static/ludolog/recorder*.js``. Every action is
appended through the records API (``POST /api/records/<id>/events/``) with an idempotency key,
so that a phone that loses the Wi-Fi can queue its actions and send them later, once each.
"""
