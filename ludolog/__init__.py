"""Ludolog: event-sourced board-game records, replays, leagues and a ludothèque catalogue."""

from .celery import app as celery_app

__all__ = ["celery_app"]
