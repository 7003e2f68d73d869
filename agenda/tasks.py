"""Celery tasks: thin wrappers over the agenda's services."""

from __future__ import annotations

from celery import shared_task

from accounts.models import Organisation

from . import services


@shared_task(name="agenda.daily", ignore_result=True)
def daily() -> int:
    """Each day, the openings of the coming weeks of every organisation with opening hours (each
    run makes only what is missing); how many were made."""
    return sum(services.generate_coming_openings(organisation)
               for organisation in Organisation.objects.filter(opening_hours__isnull=False).distinct())
