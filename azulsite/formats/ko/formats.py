"""Korean: 오전/오후 before the time, as in Django's own TIME_FORMAT (its
DATETIME_FORMAT reads "2026년 12월 4일 8:33 오전")."""

DATE_FORMAT = "Y년 n월 j일"
TIME_FORMAT = "A g:i"
DATETIME_FORMAT = "Y년 n월 j일 A g:i"
SHORT_DATE_FORMAT = "Y. n. j."
SHORT_DATETIME_FORMAT = "Y. n. j. H:i"
