"""Players: one person, one player.

Names typed at the table find the player already known ("alice", "ALICE " and "Alíce" are Alice),
so a record only creates a player for a name nobody has yet; merging mends the duplicates a typo
or a nickname made all the same.

A name is looked for among the players the typist may already see (``selectors.visible_players``):
for someone else, a player known only from games they may not see is nobody yet, and their name
makes a new player named as typed. Display names are unique, so a spelling that *is* such a
player's name, character for character, seats that player: the answer shows what was typed and
nothing more.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from accounts.models import Invitation, Organisation
from accounts.scoping import in_organisation
from games.spelling import name_key, shows, tidy_name

from . import selectors
from .errors import PlayersCannotMerge, RecordError
from .models import Player, Seat, SeatMove
from .signals import players_merging


class SamePlayerTwice(RecordError):
    """Two seats whose names are one player's (``Chloé`` and ``chloe``)."""

    reason = "duplicate_player"
    status_code = 400


class InvisibleName(RecordError):
    """A name that shows nothing (spaces, zero-width characters…): it names nobody."""

    reason = "invalid_player_name"
    status_code = 400


class NameTooLong(RecordError):
    """A name longer than a player's name is kept (:data:`NAME_LENGTH`): refused, never cut."""

    reason = "player_name_too_long"
    status_code = 400


NAME_LENGTH: int = Player._meta.get_field("display_name").max_length
"""The longest name a seat keeps: every way in (the API, the forms, the files) refuses a longer one."""


def check_names(names: Sequence[str]) -> None:
    """Refuse the seats whose name shows nothing once tidied (:class:`InvisibleName`) or is longer
    than a player's name is kept (:class:`NameTooLong`)."""
    for seat, name in enumerate(names):
        tidied = tidy_name(name)
        if not shows(tidied):
            raise InvisibleName(f"the name of seat {seat} shows nothing: a name needs at least one visible character",
                                field="seats", seat=seat)
        if len(tidied) > NAME_LENGTH:
            raise NameTooLong(f"the name of seat {seat} is longer than {NAME_LENGTH} characters",
                              field="seats", seat=seat, most=NAME_LENGTH)


def known_players(names: Iterable[str], seen_by: selectors.User | None = None) -> dict[str, Player]:
    """The player each name's key already belongs to, by key, among the players ``seen_by`` may
    see (all of them for the code itself, ``None``); the oldest where near-duplicates share a key
    (the one other games most likely name)."""
    found: dict[str, Player] = {}
    keys = {name_key(name) for name in names}
    players = Player.objects.all() if seen_by is None else selectors.visible_players(seen_by)
    for player in players.filter(name_key__in=keys).order_by("pk"):
        found.setdefault(player.name_key, player)
    return found


def seat_players(names: Sequence[str], seen_by: selectors.User | None = None) -> list[Player]:
    """The player for each seat's name: the one ``seen_by`` may see whatever its case and accents,
    or a new one (see the module's words on players known only from hidden games).

    Raises :class:`InvisibleName` for a name that shows nothing, and :class:`SamePlayerTwice`
    when two names are one player's: a player takes one seat.
    """
    check_names(names)
    players = known_players(names, seen_by)
    seated: list[Player] = []
    for order, name in enumerate(names):
        key = name_key(name)
        if key not in players:
            # get_or_create: another request may have just created the same display name.
            players[key], _created = Player.objects.get_or_create(display_name=tidy_name(name))
        if players[key] in seated:
            raise SamePlayerTwice(
                f"{name!r} is {players[key]}, who already has seat {seated.index(players[key])}: "
                "a player takes only one seat",
                field="seats", seat=order,
            )
        seated.append(players[key])
    return seated


class Seating:
    """The players of many records' seats, found as :func:`seat_players` finds each record's in
    turn, with one look-up for every name and the new players made in one statement (a bulk
    import, ``records.services.log_results``).

    A name's player is the same for every record: the player ``seen_by`` may see whatever its
    case and accents, else the one that already has the name as tidied (someone ``seen_by`` may
    not see, as ``get_or_create`` finds them), else a new player named as first spelt, whom a
    later record with the name finds (they sit at a record its importer reads). :meth:`seat`
    checks each record as :func:`seat_players` does; :meth:`save_new_players` stores the new
    players, before any seat refers to them.
    """

    def __init__(self, names: Iterable[str], seen_by: selectors.User | None = None) -> None:
        names = list(names)
        self._by_key: dict[str, Player] = known_players(names, seen_by)
        unknown: dict[str, str] = {}
        for name in names:
            if name_key(name) not in self._by_key:
                unknown.setdefault(name_key(name), tidy_name(name))
        named = {player.display_name: player
                 for player in Player.objects.filter(display_name__in=set(unknown.values()))}
        self._new: dict[str, Player] = {}
        for key, display_name in unknown.items():
            player = named.get(display_name) or self._new.get(display_name)
            if player is None:
                # Player.save's key, set here: a bulk insert calls no save().
                player = self._new[display_name] = Player(display_name=display_name, name_key=name_key(display_name))
            self._by_key[key] = player

    def seat(self, names: Sequence[str]) -> list[Player]:
        """The player for each of one record's seats, refused as :func:`seat_players` refuses
        them (:class:`InvisibleName`, :class:`SamePlayerTwice`); new players are saved by
        :meth:`save_new_players`."""
        check_names(names)
        seated: list[Player] = []
        for order, name in enumerate(names):
            player = self._by_key[name_key(name)]
            if player in seated:  # a model's equality: the same id, or the same unsaved instance
                raise SamePlayerTwice(
                    f"{name!r} is {player}, who already has seat {seated.index(player)}: a player takes only one seat",
                    field="seats", seat=order,
                )
            seated.append(player)
        return seated

    def save_new_players(self) -> None:
        """Store the new players, in the order their names first came. A name another request
        has just taken seats that request's player, as ``get_or_create`` would."""
        if not self._new:
            return
        Player.objects.bulk_create(self._new.values(), ignore_conflicts=True)
        # The insert ignoring conflicts returns no ids: read them back, whoever made the row.
        ids = dict(Player.objects.filter(display_name__in=list(self._new)).values_list("display_name", "pk"))
        for display_name, player in self._new.items():
            player.pk = ids[display_name]
            player._state.adding = False
            player._state.db = Player.objects.db
        self._new = {}


def player_for_new_account(sender: object, user: AbstractBaseUser, **kwargs: object) -> Player | None:
    """``accounts.signals.account_created``: a new account is a player too (for a person, their
    account and their player are one thing): :func:`player_named_after` it. An account that has a
    player already keeps it."""
    if Player.objects.filter(user=user).exists():
        return None
    return player_named_after(user)


def player_named_after(user: AbstractBaseUser) -> Player:
    """A new player for ``user``, named after its username; with a number after it when another
    player already goes by that name, whatever its case and accents (a name at the table finds one
    player, and a stranger's history is never given to whoever signs up with their name: an
    organiser merges the two, ``merge_players``, and the account stays with the player kept)."""
    base = tidy_name(user.get_username())
    for number in range(1, 1000):
        name = base if number == 1 else f"{base} {number}"
        if Player.objects.filter(name_key=name_key(name)).exists():
            continue
        try:
            with transaction.atomic():
                return Player.objects.create(display_name=name, user=user)
        except IntegrityError:  # the same name just taken by another request
            continue
    raise RecordError(f"no free player name for {base!r}")


@transaction.atomic
def merge_players(keep: Player, duplicate: Player) -> list[int]:
    """Make ``duplicate``'s seats ``keep``'s, then delete ``duplicate``; returns the records moved.

    The events are untouched (they name seats, not people); each seat moved is kept as a
    :class:`~records.models.SeatMove`, which ``verify_events`` consults. ``keep`` takes the duplicate's login
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
    moved = list(Seat.objects.filter(player=duplicate).order_by("record_id").values_list("record_id", "seat_order"))
    record_ids = sorted({record_id for record_id, _order in moved})
    Seat.objects.filter(player=duplicate).update(player=keep)
    for record_id, order in moved:
        SeatMove.objects.create(record_id=record_id, seat_order=order, from_player=duplicate.pk, to_player=keep.pk,
                                reason=SeatMove.Reason.MERGE)
    # An invitation to become the duplicate is one to become the player kept.
    Invitation.objects.filter(player_id=duplicate.pk).update(player_id=keep.pk)
    if duplicate.user_id and not keep.user_id:
        user_id = duplicate.user_id
        Player.objects.filter(pk=duplicate.pk).update(user=None)
        Player.objects.filter(pk=keep.pk).update(user_id=user_id)
    players_merging.send(sender=Player, keep_id=keep.pk, duplicate_id=duplicate.pk, record_ids=record_ids)
    duplicate.delete()
    return record_ids


def seat_corrected(seat: Seat, from_player_id: int, moved_by: AbstractBaseUser | None = None) -> SeatMove:
    """Keep that ``seat`` (already saved with its new player) was corrected from the player
    ``from_player_id``: a :class:`~records.models.SeatMove`, which ``verify_events`` consults."""
    return SeatMove.objects.create(record_id=seat.record_id, seat_order=seat.seat_order, from_player=from_player_id,
                                   to_player=seat.player_id, reason=SeatMove.Reason.CORRECTION, moved_by=moved_by)


class PlayerNotClaimable(RecordError):
    """An invitation names a player who is not one the organisation's history knows without an
    account (another club's, someone's already, or no player at all)."""

    reason = "player_not_claimable"
    status_code = 400


class PlayerTaken(RecordError):
    """The player an invitation names has become someone else's account's since."""

    reason = "player_has_an_account"
    status_code = 409


def claimable_players(organisation: Organisation, seen_by: selectors.User | None = None) -> QuerySet[Player]:
    """The players of ``organisation`` (``accounts.scoping``) that no account is yet, among those
    ``seen_by`` may see: the names of its history an invitation may offer to a newcomer."""
    players = Player.objects.all() if seen_by is None else selectors.visible_players(seen_by)
    return in_organisation(players.filter(user__isnull=True), organisation)


def check_claimable(player_id: int | None, organisation: Organisation, seen_by: selectors.User | None = None) -> None:
    """Refuse (:class:`PlayerNotClaimable`) a player an invitation to ``organisation`` may not name."""
    if player_id is not None and not claimable_players(organisation, seen_by).filter(pk=player_id).exists():
        raise PlayerNotClaimable(f"player {player_id} is not one of this organisation's players without an account",
                                 field="player")


@transaction.atomic
def player_of_account(user: Any, claim: int | None = None) -> Player:
    """The player that ``user`` is, for the person and their account are one: their own, or,
    when ``claim`` names a player without an account (an invitation's), that one (their own, if
    they had one, merged into it: :func:`merge_players`), or a new one (:func:`player_named_after`).

    A claimed player another account has taken since is refused (:class:`PlayerTaken`); one that
    no longer exists is no claim."""
    own = Player.objects.select_for_update().filter(user=user).first()
    claimed = Player.objects.select_for_update().filter(pk=claim).first() if claim is not None else None
    if claimed is None:
        return own if own is not None else player_named_after(user)
    if claimed.user_id == user.pk:
        return claimed
    if claimed.user_id is not None:
        raise PlayerTaken(f"{claimed} is already another account's player", player=claimed.pk)
    if own is not None:
        merge_players(claimed, own)  # the kept player takes the account
        return Player.objects.get(pk=claimed.pk)
    claimed.user = user
    claimed.save(update_fields=["user"])
    return claimed
