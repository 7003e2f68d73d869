"""Players: one person, one player. Merging the duplicates a typo or a nickname made."""

from __future__ import annotations

from django.db import transaction

from .errors import PlayersCannotMerge
from .models import Player, Seat
from .signals import players_merging


@transaction.atomic
def merge_players(keep: Player, duplicate: Player) -> list[int]:
    """Make ``duplicate``'s seats ``keep``'s, then delete ``duplicate``; returns the records moved.

    The events are untouched (they name seats, not people). ``keep`` takes the duplicate's login
    when it has none. Refused (nothing changes) when both sat at one record, or when both have a
    login: then they are two people.
    """
    if keep.pk == duplicate.pk:
        raise PlayersCannotMerge("a player cannot be merged into itself", field="duplicate")
    keep = Player.objects.select_for_update().get(pk=keep.pk)
    duplicate = Player.objects.select_for_update().get(pk=duplicate.pk)
    shared = sorted(
        set(Seat.objects.filter(player=keep).values_list("record_id", flat=True))
        & set(Seat.objects.filter(player=duplicate).values_list("record_id", flat=True))
    )
    if shared:
        raise PlayersCannotMerge(
            f"{keep} and {duplicate} both sat at game(s) {', '.join(map(str, shared))}: they are two people",
            records=shared,
        )
    if keep.user_id and duplicate.user_id:
        raise PlayersCannotMerge(f"{keep} and {duplicate} each have their own login: they are two people")
    record_ids = sorted(set(Seat.objects.filter(player=duplicate).values_list("record_id", flat=True)))
    Seat.objects.filter(player=duplicate).update(player=keep)
    if duplicate.user_id and not keep.user_id:
        user_id = duplicate.user_id
        Player.objects.filter(pk=duplicate.pk).update(user=None)
        Player.objects.filter(pk=keep.pk).update(user_id=user_id)
    players_merging.send(sender=Player, keep_id=keep.pk, duplicate_id=duplicate.pk, record_ids=record_ids)
    duplicate.delete()
    return record_ids
