"""The clock held on one day, for the tests whose dates are counted from today.

A module that computes ``today`` when it is collected and a service that reads the clock when it
runs see two different days when the run crosses midnight (in the site's time zone: CI starts at
any hour); holding the clock on a fixed day at noon removes that and names the day in the test."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterator

import time_machine
from django.utils import timezone


@contextlib.contextmanager
def held_on(day: dt.date) -> Iterator[None]:
    noon = timezone.make_aware(dt.datetime.combine(day, dt.time(12)))
    with time_machine.travel(noon, tick=True):  # ticking: timeouts and durations still pass
        yield
