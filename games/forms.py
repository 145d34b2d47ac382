"""Forms: create a game, filter the archive, import a record; query numbers.

Each game family's move form lives in its package (``games/classic/forms.py``).
Every number or date read from a query string is parsed here, by a Django form
field: ``str.isdigit()`` accepts ``"²"`` and ``int()`` refuses 5,000 digits, so
hand parsing in a view fails with a server error on odd input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import User, computer_name
from accounts.selectors import user_by_name
from games import clock
from games.converters import MAX_ID
from games.engine.variants import PLAYERS
from games.models import FAMILY_VARIANTS, Family, Variant
from games.ratings.ratings import PROVISIONAL_GAMES
from games.selectors.archive import ArchiveCursor


def query_int(
    query: Mapping[str, str],
    name: str,
    *,
    default: int,
    min_value: int,
    max_value: int,
) -> int:
    """``query[name]`` as a whole number in ``min_value..max_value``; ``default``
    when it is missing or is anything else."""
    field = forms.IntegerField(min_value=min_value, max_value=max_value, required=False)
    try:
        value = field.clean(query.get(name))
    except ValidationError:
        return default
    return default if value is None else int(value)


def page_number(query: Mapping[str, str]) -> int:
    """``?page=N`` of a paginated list (1 when missing or not a page number)."""
    return query_int(query, "page", default=1, min_value=1, max_value=100_000)


CURSOR_QUERY = {"older": True, "newer": False}
"""The archive's page links: ``?older=<cursor>`` or ``?newer=<cursor>``."""


def archive_cursor(query: Mapping[str, str]) -> ArchiveCursor | None:
    """The archive page a link points at (``ArchiveCursor``), or None for the
    newest page (no cursor, or one that is not a cursor)."""
    for name, older in CURSOR_QUERY.items():
        token = query.get(name)
        if token:
            return ArchiveCursor.parse(token[:40], older=older)
    return None


def game_id(query: Mapping[str, str], name: str = "game") -> int | None:
    """``?game=<id>``: an id a game row can have, else None."""
    value = query_int(query, name, default=0, min_value=1, max_value=MAX_ID)
    return value or None


BOARD_QUERY_MAX = 40


def board_query(query: Mapping[str, str]) -> dict[str, str]:
    """The picks of a board's GET forms (``?group=3:red``, ``?space=red-2``…) for
    the family's ``live_context``: only short printable ASCII values, so a family
    reading digits with ``str.isdigit()`` never meets ``"²"`` or 5,000 digits.
    Anything else is dropped, as if not picked."""
    return {
        key: value
        for key, value in query.items()
        if len(value) <= BOARD_QUERY_MAX and value.isascii() and value.isprintable()
    }


def computer_choices(*, blank: Any) -> list[tuple[str, Any]]:
    """The computer levels as a seat's choices, by the computers' shown names
    ("Computer (strong)", translated when drawn: ``accounts.models.computer_name``),
    after a ``blank`` choice (a person) when one is given."""
    choices: list[tuple[str, Any]] = [] if blank is None else [("", blank)]
    for level in User.ComputerLevel.values:
        choices.append((level, computer_name(level)))
    return choices


COMPUTER_SEATS = (1, 2, 3)
"""The seats a creator can give a computer (seat 0 is the creator's)."""


def time_control_choices() -> list[tuple[str, str]]:
    """The bank presets a new game may choose, each with what it means."""
    return [
        (c.name, f"{c.label}: {c.describe(days_per_move=0)}") for c in clock.PRESETS
    ]


class GameCreateForm(forms.Form):
    # Classic only until the Summer Pavilion game page exists (pavilion-web).
    variant = forms.ChoiceField(
        label=_("Variant"),
        choices=Variant.choices,
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, str(n)) for n in PLAYERS],
        coerce=int,
        initial=2,
    )
    time_control = forms.ChoiceField(
        label=_("Clock"),
        choices=time_control_choices,
        initial=clock.DEFAULT.name,
        widget=forms.RadioSelect,
        help_text=_(
            "Each player has a bank of time: their turns spend it, each turn "
            "they finish adds to it, up to a cap."
        ),
    )
    no_vacation = forms.BooleanField(
        label=_("No vacation days"),
        required=False,
        help_text=_(
            "Without it, a player whose bank runs out spends one of their "
            "vacation days (24 hours more) before losing on time. For events."
        ),
    )
    rated = forms.BooleanField(label=_("Rated"), required=False)
    invite = forms.CharField(
        label=_("Invite players"),
        required=False,
        help_text=_(
            "Usernames separated by commas or spaces; seats left over are open "
            "to anyone."
        ),
        # The names suggested, friends first: the page's <datalist>
        # (templates/games/game_new.html, selectors.invite_suggestions).
        widget=forms.TextInput(attrs={"list": "invite-suggestions"}),
    )
    invite_link = forms.BooleanField(
        label=_("Invite by link"),
        required=False,
        help_text=_(
            "The seats left over go to whoever has the game's secret link, to "
            "share in any messenger; the game is not listed in the lobby."
        ),
    )

    def __init__(self, *args: Any, creator: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator
        for number in COMPUTER_SEATS:
            # data-seat: static/js/seats.js hides and disables the seats beyond
            # the player count; without it, clean() refuses a choice made there.
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=_("Seat %(n)s") % {"n": number + 1},
                choices=computer_choices(blank=_("A person (invited or open)")),
                required=False,
                widget=forms.Select(attrs={"data-seat": number}),
            )

    def computers(self) -> dict[int, str]:
        """The seats given to computers, by number, and their levels (after
        ``is_valid()``, which refuses a computer beyond the player count)."""
        return {
            number: level
            for number in COMPUTER_SEATS
            if (level := self.cleaned_data.get(f"seat_{number}"))
        }

    def clean_invite(self) -> list[User]:
        names = [n for n in re.split(r"[\s,]+", self.cleaned_data["invite"]) if n]
        names = list(dict.fromkeys(names))
        users = {u.username: u for u in User.objects.filter(username__in=names)}
        unknown = [n for n in names if n not in users]
        if unknown:
            raise forms.ValidationError(
                _("No player is called %(names)s.") % {"names": ", ".join(unknown)}
            )
        if self.creator.username in users:
            raise forms.ValidationError(_("You cannot invite yourself."))
        return [users[n] for n in names]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        invitees = data.get("invite") or []
        players = data.get("players")
        if not players:
            return data
        beyond = [
            number
            for number in COMPUTER_SEATS
            if number >= players and data.get(f"seat_{number}")
        ]
        for number in beyond:  # nothing is dropped silently (issue #25)
            self.add_error(
                f"seat_{number}",
                ngettext(
                    "A game of %(players)s player has no seat %(seat)s: choose "
                    "more players or take the computer out of that seat.",
                    "A game of %(players)s players has no seat %(seat)s: choose "
                    "more players or take the computer out of that seat.",
                    players,
                )
                % {"players": players, "seat": number + 1},
            )
        if beyond:
            return data
        computers = self.computers()
        if len(set(computers.values())) < len(computers):
            raise forms.ValidationError(
                _("Each computer level can take only one seat in a game.")
            )
        if len(invitees) > players - 1 - len(computers):
            raise forms.ValidationError(
                _("You invited more players than there are free seats.")
            )
        return data


class PlayComputerForm(forms.Form):
    """The home page's "Play the computer now": a two-player game, started,
    rated or not by the button pressed (``rated=on`` or nothing)."""

    level = forms.ChoiceField(
        label=_("Opponent"),
        choices=computer_choices(blank=None),
        initial=User.ComputerLevel.MEDIUM,
    )
    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices)
    rated = forms.BooleanField(label=_("Rated"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # At request time, in the reader's language (a count: ngettext).
        self.fields["rated"].help_text = ngettext(
            "A rated game changes your rating. The leaderboard ranks players "
            "with %(count)s rated game; before that they are provisional.",
            "A rated game changes your rating. The leaderboard ranks players "
            "with %(count)s rated games; before that they are provisional.",
            PROVISIONAL_GAMES,
        ) % {"count": PROVISIONAL_GAMES}


FAMILY_FILTER_SUFFIX = "-all"
"""A family's value in the archive's "Game" filter (``classic-all``): a
family and its first variant share a name (``classic``)."""


def _variant_filter_choices() -> list[tuple[str, Any]]:
    choices: list[tuple[str, Any]] = [("", _("All games"))]
    for family, label in Family.choices:
        choices.append((family + FAMILY_FILTER_SUFFIX, label))
        choices.extend(
            (value, name)
            for value, name in Variant.choices
            if value in FAMILY_VARIANTS[family]
        )
    return choices


FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(9000, 12, 31)


class ArchiveFilterForm(forms.Form):
    """The archive's filters, from the query string; an invalid value is ignored
    (with the form's error shown) rather than failing the page."""

    player = forms.CharField(label=_("Player"), required=False, max_length=150)
    variant = forms.ChoiceField(
        label=_("Game"), choices=_variant_filter_choices, required=False
    )
    players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[("", _("Any number")), *((n, str(n)) for n in PLAYERS)],
        coerce=int,
        empty_value=None,
        required=False,
    )
    rated = forms.ChoiceField(
        label=_("Rated"),
        choices=[("", _("Rated or not")), ("yes", _("Rated")), ("no", _("Unrated"))],
        required=False,
    )
    # Bounded: the archive adds a day to "To", and 9999-12-31 + 1 day overflows.
    since = forms.DateField(
        label=_("From"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        validators=[MinValueValidator(FIRST_DAY), MaxValueValidator(LAST_DAY)],
    )
    until = forms.DateField(
        label=_("To"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        validators=[MinValueValidator(FIRST_DAY), MaxValueValidator(LAST_DAY)],
    )
    show = forms.ChoiceField(
        label=_("Show"),
        choices=[
            ("", _("Finished games")),
            ("ongoing", _("Ongoing games")),
            ("imported", _("Imported records")),
        ],
        required=False,
    )

    def family_and_variant(self) -> tuple[str, str]:
        """The cleaned "Game" filter as (family, variant); either may be ""."""
        value = self.cleaned_data.get("variant") or ""
        if value.endswith(FAMILY_FILTER_SUFFIX):
            return value.removesuffix(FAMILY_FILTER_SUFFIX), ""
        return "", value

    def clean_player(self) -> User | None:
        name = self.cleaned_data["player"].strip()
        if not name:
            return None
        user = user_by_name(name=name)
        if user is None:
            raise forms.ValidationError(
                _("No player is called %(name)s.") % {"name": name}
            )
        return user


class WatchFilterForm(ArchiveFilterForm):
    """The watch page's filters (issue #26): the archive's "Game" and "Players"
    only, read the same way (an invalid value is ignored, with the form's error
    shown)."""

    player = None  # type: ignore[assignment]
    rated = None  # type: ignore[assignment]
    since = None  # type: ignore[assignment]
    until = None  # type: ignore[assignment]
    show = None  # type: ignore[assignment]


class RecordImportForm(forms.Form):
    record = forms.FileField(
        label=_("Game record (JSON)"),
        help_text=_("A record downloaded from this site or written to its format."),
    )
