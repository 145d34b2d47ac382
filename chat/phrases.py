"""Quick phrases (issue #26): a message chosen from this list is kept as its
code and shown in each reader's language, so players without a common language
can still talk. The list is the one place a phrase is written; its words are in
the catalogs under the context "quick phrase"."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

PHRASES = {
    "hello": pgettext_lazy("quick phrase", "Hello!"),
    "good-luck": pgettext_lazy("quick phrase", "Good luck!"),
    "have-fun": pgettext_lazy("quick phrase", "Have fun!"),
    "nice-move": pgettext_lazy("quick phrase", "Nice move!"),
    "oops": pgettext_lazy("quick phrase", "Oops!"),
    "thinking": pgettext_lazy("quick phrase", "Let me think about this one."),
    "slow-week": pgettext_lazy("quick phrase", "Sorry, I will be slow this week."),
    "back": pgettext_lazy("quick phrase", "I am back, moving again."),
    "well-played": pgettext_lazy("quick phrase", "Well played!"),
    "thanks": pgettext_lazy("quick phrase", "Thanks for the game!"),
    "rematch": pgettext_lazy("quick phrase", "A rematch?"),
}
"""Code (what a message keeps) → the phrase; in the order the panel offers them."""

CHOICES = [(code, phrase) for code, phrase in PHRASES.items()]
