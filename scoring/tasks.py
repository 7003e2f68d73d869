"""Celery tasks: thin wrappers over the scoring services."""

from celery import shared_task


@shared_task(name="scoring.ping")
def ping(value: str) -> str:
    """Round trip used by the health check and the broker test: proves a worker answers."""
    return f"pong:{value}"
