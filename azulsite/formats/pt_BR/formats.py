"""Brazilian Portuguese: month names in lower case, as Brazilian readers write
them ("2 de dezembro de 2026"; Django's formats print its capitalised ``F``,
"Dezembro").

The formats print ``E``, Django's alternative month names (context "alt.
month"); the site's catalogs give them, lower case in ``pt_BR``. They are marked
here so that ``makemessages`` keeps them in every catalog (in ``vi`` and ``ko``
they are Django's own: no format there prints ``E``).
"""

from django.utils.translation import pgettext_lazy

DATE_FORMAT = r"j \d\e E \d\e Y"
DATETIME_FORMAT = r"j \d\e E \d\e Y à\s H:i"
YEAR_MONTH_FORMAT = r"E \d\e Y"
MONTH_DAY_FORMAT = r"j \d\e E"

MONTHS_ALT = (
    # Translators: a month in a date ("2 de dezembro de 2026"); pt_BR: lower case.
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
"""The names ``E`` prints (``django.utils.dates.MONTHS_ALT``), marked for the
site's catalogs."""
